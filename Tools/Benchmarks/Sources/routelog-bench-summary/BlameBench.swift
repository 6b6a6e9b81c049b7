import RouteLogBenchSupport

// MARK: - blame and lifetimes figures (the release `routelog` binary on a 1M-event session)

/// `routelog blame` at the last seq and `routelog lifetimes` of a generated session, each one pass
/// over the whole session: wall time and peak RSS of the child process (see ``CLIBench``).
enum BlameBench {
    static func figures(bin: String, session: String, store: [String], count n: Int, runs: Int, size: String, scaled: String) throws -> [Figure] {
        try CLIBench.timeAndRSS("cli-blame-\(size)", bin, ["blame", session] + store, runs: runs, count: n, perMillion: 2, rssMiB: 256,
                                note: "routelog blame SESSION (the last seq), stdout to /dev/null", scaled: scaled)
            + CLIBench.timeAndRSS("cli-lifetimes-\(size)", bin, ["lifetimes", session] + store, runs: runs, count: n, perMillion: 3, rssMiB: 256,
                                  note: "routelog lifetimes SESSION, every screen, stdout to /dev/null", scaled: scaled)
    }
}
