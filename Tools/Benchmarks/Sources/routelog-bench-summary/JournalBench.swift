import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `--only journal`: what the crash-safe journal costs: recovering a crashed app's journaled
/// events when the store is next opened, and the journal's bytes per event. (The navigator-call
/// figures of `--only navigator` are measured with the journal on, as an app runs.)
enum JournalBench {
    static func figures(_ o: Options) throws -> [Figure] {
        let n = 10_000
        // The realistic mix with call sites, as an app records it.
        let recorded = LifecycleBench.events(n)
        var replayer = Replayer()
        let digests = recorded.map { replayer.apply($0.event).digest }
        var recoveries: [Double] = []
        var opens: [Double] = []
        var bytesPerEvent = 0.0
        var writes: [Double] = []
        let clock = ContinuousClock()
        for run in 0..<max(1, o.runs) {
            progress("journal: run \(run + 1): \(n) journaled events")
            let dir = try TemporaryDirectory(prefix: "routelog-bench-journal")
            defer { dir.remove() }
            let path = dir.file("store")
            do {
                // A crashed app: its events are in its journal only (nothing was committed).
                let log = try LMDBEventLog.open(at: path, options: .init(retention: .none))
                let session = try log.createSession(NewSession(label: "bench", appName: "Bench", appVersion: "1.0")).id
                let journal = try log.beginRun(of: session, head: 0, RunStart(appVersion: "1.0"))
                var t = clock.now
                for (i, e) in recorded.enumerated() {
                    journal.write(e, seq: UInt64(i + 1), digest: digests[i])
                    let now = clock.now
                    writes.append((now - t).seconds * 1_000_000)
                    t = now
                }
                journal.close(allCommitted: false)
            }
            let t0 = clock.now
            let log = try LMDBEventLog.open(at: path, options: .init(retention: .none))
            recoveries.append((clock.now - t0).seconds * 1000)
            let recovered = log.journalRecovery.recovered
            try require(recovered.count == 1 && recovered[0].count == UInt64(n), "recovered \(recovered) of \(n) events")
            try require(try log.sessions()[0].eventCount == UInt64(n), "the store holds another count")
            bytesPerEvent = Double(recovered[0].journalBytes) / Double(recovered[0].journalEntries)
            // Baseline: opening the same store again, with nothing left to recover.
            let t1 = clock.now
            _ = try LMDBEventLog.open(at: path, options: .init(retention: .none))
            opens.append((clock.now - t1).seconds * 1000)
        }
        let best = recoveries.min()!, baseline = opens.min()!
        writes.sort()
        return [
            Figure(name: "journal-write-p50", value: percentile(writes, 0.5), unit: "µs", count: writes.count,
                   note: "one EventJournal.write (encode, checksum, copy into the mapped segment), timed alone; p99 \(Summary.format(percentile(writes, 0.99))) µs, p999 \(Summary.format(percentile(writes, 0.999))) µs"),
            Figure(name: "store-open", value: baseline, unit: "ms", count: n, median: Measure.median(opens), runs: opens.count,
                   note: "baseline: opening the same store read-write with no journal left"),
            Figure(name: "crash-recovery", value: best, unit: "ms", baseline: "store-open", baselineValue: baseline,
                   target: .valueAtMost(50), count: n, median: Measure.median(recoveries), runs: recoveries.count,
                   note: "opening a store read-write whose crashed app left \(n) events (realistic mix with call sites) only in its journal: read, checked, folded against the journaled digests, committed in one transaction, journal removed"),
            Figure(name: "journal-bytes-per-event", value: bytesPerEvent, unit: "bytes/event", count: n,
                   note: "entry header 32 (length, seq, digest) + the event in the core's binary codec + checksum 8, 8-byte aligned; segments of 1 MiB are reserved ahead and removed once committed"),
        ]
    }
}
