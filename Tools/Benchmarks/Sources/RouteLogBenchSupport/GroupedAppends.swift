import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// Concurrent single-event appends: the store bench's `append-grouped` and the profile's mode of
/// the same name.
public enum GroupedAppends {
    /// `appenders` threads append single events concurrently, each to its own session, through one
    /// log with `.grouped` durability; the time includes the final `flush` (everything on disk).
    /// `storeFormat` picks the format of the new store (the default: the newest).
    public static func seconds(_ events: [RecordedEvent], appenders: Int, at path: String, storeFormat: UInt32? = nil) throws -> Double {
        var options = LMDBEventLog.Options(durability: .grouped(maxDelay: .milliseconds(100)))
        if let storeFormat { options.storeFormat = storeFormat }
        let log = try LMDBEventLog.open(at: path, options: options)
        let sessions = try (0..<appenders).map { try log.createSession(NewSession(label: "bench-\($0)")).id }
        let per = events.count / appenders
        let failures = Failures()
        let seconds = try Measure.seconds(runs: 1) {
            DispatchQueue.concurrentPerform(iterations: appenders) { a in
                do {
                    var seq: UInt64 = 0
                    for e in events[(a * per)..<((a + 1) * per)] {
                        try log.append(e, to: sessions[a], expectedSeq: seq)
                        seq += 1
                    }
                } catch {
                    failures.add("\(error)")
                }
            }
            try log.flush()
        }[0]
        if let f = failures.first { throw BenchError("append-grouped: \(f)") }
        for s in sessions {
            let count = try log.session(s).eventCount
            guard count == UInt64(per) else { throw BenchError("append-grouped: a session has \(count) events, not \(per)") }
        }
        return seconds
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var first: String? { lock.lock(); defer { lock.unlock() }; return items.first }
    }
}
