import Foundation
import RouteLogCore
@testable import RouteLogLMDB

/// A fresh directory under the system temp directory, removed by `cleanup()`.
struct TempDir {
    let path: String
    init(_ name: String = "store") {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/routelog-lmdb-tests-\(getpid())-\(UUID().uuidString.prefix(8))/\(name)"
    }
    var parent: String { (path as NSString).deletingLastPathComponent }
    func cleanup() { try? FileManager.default.removeItem(atPath: parent) }
}

/// `n` recorded events from a seeded generator, with timestamps that count up.
func generatedEvents(_ n: Int, seed: UInt64, mix: SessionGenerator.Mix = .realistic, startTime: Int64 = 1_700_000_000_000) -> [RecordedEvent] {
    var g = SessionGenerator(seed: seed, mix: mix)
    return g.events(n).enumerated().map { i, e in
        RecordedEvent(e, meta: EventMetadata(timestamp: startTime + Int64(i), origin: i % 3 == 0 ? .user : .app))
    }
}

/// The built products directory (where the crash-test helper lives).
var productsDirectory: URL {
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    if let bundle { return bundle.bundleURL.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

func testOptions(_ durability: LMDBEventLog.Durability = .none, snapshotInterval: UInt64 = 64, readOnly: Bool = false, mapSize: Int = 1 << 20) -> LMDBEventLog.Options {
    LMDBEventLog.Options(readOnly: readOnly, durability: durability, snapshotInterval: snapshotInterval, initialMapSize: mapSize,
                         clock: { 1_700_000_000_000 })
}
