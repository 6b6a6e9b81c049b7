import Foundation
@_exported import RouteLogTestSupport
import RouteLogCore
@testable import RouteLogLMDB

/// `n` recorded events from a seeded generator, with timestamps that count up.
func generatedEvents(_ n: Int, seed: UInt64, mix: SessionGenerator.Mix = .realistic, startTime: Int64 = 1_700_000_000_000) -> [RecordedEvent] {
    var g = SessionGenerator(seed: seed, mix: mix)
    return g.events(n).enumerated().map { i, e in
        RecordedEvent(e, meta: EventMetadata(timestamp: startTime + Int64(i), origin: i % 3 == 0 ? .user : .app))
    }
}

func testOptions(_ durability: LMDBEventLog.Durability = .none, snapshotInterval: UInt64 = 64, readOnly: Bool = false, mapSize: Int = 1 << 20) -> LMDBEventLog.Options {
    LMDBEventLog.Options(readOnly: readOnly, durability: durability, snapshotInterval: snapshotInterval, initialMapSize: mapSize,
                         clock: { 1_700_000_000_000 })
}

