import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore

// MARK: - predicate figures

/// `contains` on a long string: `routelog bisect` of a file of 6 pushes whose ids are 1,000,000
/// characters, judging a 1,001-character needle that almost matches everywhere (the naive
/// search's worst case: 7.3 s a judged seq) at seqs 0 through 6.
enum PredicateBench {
    static func figures(bin: String, runs: Int) throws -> [Figure] {
        let dir = try TemporaryDirectory(prefix: "routelog-bench-contains")
        defer { dir.remove() }
        let file = (dir.path as NSString).appendingPathComponent("long.json")
        let long = String(repeating: "a", count: 1_000_000)
        let events = (0..<6).map { i in Event.push(RouteRef(id: long + (i == 5 ? "b" : ""))) }
        try Fixture(name: "long", events: events).write(toFile: file)
        let needle = String(repeating: "a", count: 1_000) + "b"
        progress("cli-contains-long-id, \(runs) run(s)")
        let run = try CLIBench.measure(bin, ["bisect", file, "--predicate", "path.last.id contains \"\(needle)\""], runs: runs, expect: [1])
        // Seven judged seqs; the time also reads the 6 MB file and folds it, so this is an upper bound.
        let judged = 7.0
        return [Figure(name: "cli-contains-long-id", value: run.best.seconds / judged * 1000, unit: "ms/seq", target: .valueAtMost(50),
                       count: 6, median: run.median / judged * 1000, runs: runs,
                       note: "routelog bisect FILE --predicate 'path.last.id contains NEEDLE': a 1,001-character needle against 1,000,000-character ids, "
                           + "whole run / 7 judged seqs (file read and fold included); \(CLIBench.cpu(run.best)); target 50 ms a judged seq")]
    }
}
