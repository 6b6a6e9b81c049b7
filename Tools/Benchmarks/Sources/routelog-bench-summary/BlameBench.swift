import RouteLogBenchSupport

// MARK: - blame and lifetimes figures (the release `routelog` binary on a 1M-event session)

/// `routelog blame` at the last seq and `routelog lifetimes` of a generated session, each one pass
/// over the whole session: wall time and peak RSS of the child process (see ``CLIBench``).
enum BlameBench {
    static func figures(bin: String, session: String, store: [String], count n: Int, runs: Int, size: String, scaled: String) throws -> [Figure] {
        var figures: [Figure] = []
        progress("cli-blame-\(size), \(runs) run(s)")
        let blame = try CLIBench.measure(bin, ["blame", session] + store, runs: runs, expect: [0])
        figures.append(Figure(name: "cli-blame-\(size)", value: blame.best.seconds, unit: "s", target: .valueAtMost(2 * Double(n) / 1e6),
                              count: n, median: blame.median, runs: runs,
                              note: "routelog blame SESSION (the last seq), stdout to /dev/null; \(CLIBench.cpu(blame.best)); target 2 s per 1M events" + scaled))
        figures.append(Figure(name: "cli-blame-\(size)-rss", value: Double(blame.best.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(256),
                              count: n, note: "peak RSS (ru_maxrss) of that run" + scaled))
        progress("cli-lifetimes-\(size), \(runs) run(s)")
        let lifetimes = try CLIBench.measure(bin, ["lifetimes", session] + store, runs: runs, expect: [0])
        figures.append(Figure(name: "cli-lifetimes-\(size)", value: lifetimes.best.seconds, unit: "s", target: .valueAtMost(3 * Double(n) / 1e6),
                              count: n, median: lifetimes.median, runs: runs,
                              note: "routelog lifetimes SESSION, every screen, stdout to /dev/null; \(CLIBench.cpu(lifetimes.best)); target 3 s per 1M events" + scaled))
        figures.append(Figure(name: "cli-lifetimes-\(size)-rss", value: Double(lifetimes.best.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(256),
                              count: n, note: "peak RSS (ru_maxrss) of that run" + scaled))
        return figures
    }
}
