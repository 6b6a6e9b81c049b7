import Foundation
@_spi(Tools) import RouteLog
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `--only navigator`: what suspending costs when the app goes to the background right after a
/// burst of calls: `Navigator.suspend()` writes the pending events, marks the journal suspended and
/// releases the journal, the session's lock and the store (target ≤ 100 ms with 1,000 pending).
@MainActor
enum SuspendBench {
    static func figures(_ o: Options) async throws -> [Figure] {
        let calls = 1_000
        var suspends: [Double] = []
        var resumes: [Double] = []
        var pendingAtStart: [Int] = []
        let clock = ContinuousClock()
        for run in 0..<max(3, o.runs) {
            progress("navigator-suspend: run \(run + 1): \(calls) calls, then suspend()")
            let dir = try TemporaryDirectory(prefix: "routelog-bench-suspend")
            defer { dir.remove() }
            let store = try LMDBEventLog.open(at: dir.file("store"))
            let nav = try Navigator<BenchRoute>(log: store)
            for i in 0..<calls { NavigatorMix.call(nav, i) }
            pendingAtStart.append(nav.recordingStatus.pendingCount)
            let t0 = clock.now
            await nav.suspend()
            suspends.append((clock.now - t0).seconds * 1000)
            try require(nav.recordingStatus.pendingCount == 0 && !store.environment.isOpen, "suspend() left \(nav.recordingStatus)")
            let t1 = clock.now
            try nav.resume()
            resumes.append((clock.now - t1).seconds * 1000)
            try require(try store.session(nav.session).eventCount == nav.headSeq, "the store does not hold every call")
        }
        return [
            Figure(name: "navigator-suspend-1000", value: suspends.min()!, unit: "ms", target: .valueAtMost(100), count: calls,
                   median: Measure.median(suspends), runs: suspends.count,
                   note: "suspend() right after \(calls) calls of the mix on an LMDB store (default options), \(pendingAtStart.max()!) still pending at the most: drain, journal marked suspended and closed, session lock and LMDB environment released; resume() \(Summary.format(Measure.median(resumes))) ms"),
        ]
    }
}
