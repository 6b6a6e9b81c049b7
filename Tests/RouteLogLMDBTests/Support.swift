import Foundation
@_exported import RouteLogTestSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB

/// A new store at `dir` with ``testOptions(_:snapshotInterval:readOnly:mapSize:)`` and one empty session.
func storeWithSession(at dir: TempDir, snapshotInterval: UInt64 = 64) throws -> (LMDBEventLog, SessionInfo) {
    let log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: snapshotInterval))
    return (log, try log.createSession(NewSession()))
}

func testOptions(_ durability: LMDBEventLog.Durability = .none, snapshotInterval: UInt64 = 64, readOnly: Bool = false, mapSize: Int = 1 << 20,
                 format: UInt32 = LMDBEventLog.newStoreFormat) -> LMDBEventLog.Options {
    var options = LMDBEventLog.Options(readOnly: readOnly, durability: durability, snapshotInterval: snapshotInterval, initialMapSize: mapSize,
                                       clock: { 1_700_000_000_000 })
    options.storeFormat = format
    return options
}

