import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - CLI figures (the release `routelog` binary on 1M-event sessions)

/// The `routelog` CLI as a user runs it, on generated sessions: each figure runs the release binary
/// as a child process (stdout to /dev/null) and reads its wall time and peak RSS (`ru_maxrss` from
/// `wait4`). The binary is `$ROUTELOG_BIN`, else the main package's `.build/release/routelog`.
enum CLIBench {
    /// The data the figures run on: a store with two unrelated sessions of `count` realistic events
    /// (different seeds) and the first one exported as a fixture file.
    struct Data {
        var store: String
        var sessionA: String
        var sessionB: String
        var file: String
    }

    static func binary() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["ROUTELOG_BIN"], !bin.isEmpty { return bin }
        // The first `.build/release/routelog` above this binary (run.sh sets ROUTELOG_BIN to the tools' package's).
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var path = ""
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(".build/release/routelog").path
            if FileManager.default.isExecutableFile(atPath: candidate) { path = candidate; break }
            dir = dir.deletingLastPathComponent()
        }
        guard !path.isEmpty else {
            throw BenchError("no .build/release/routelog above \(CommandLine.arguments[0]): build it with `swift build -c release --package-path Tools/RouteLogTools --product routelog` (from the repository) or set ROUTELOG_BIN")
        }
        return path
    }

    /// Writes the store and the file into `dir` (streaming: one batch of events in memory at a time,
    /// except the exported file's events).
    static func makeData(count: Int, in dir: String) throws -> Data {
        let store = (dir as NSString).appendingPathComponent("store")
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .none))
        var ids: [String] = []
        for (n, seed) in [Workloads.seed, Workloads.seed ^ 0x5A5A_5A5A_5A5A_5A5A].enumerated() {
            let session = try log.createSession(NewSession(label: "cli-\(n == 0 ? "a" : "b")")).id
            var generator = SessionGenerator(seed: seed, mix: .realistic)
            var seq = 0
            while seq < count {
                let k = min(StoreBench.batch, count - seq)
                var chunk: [RecordedEvent] = []
                chunk.reserveCapacity(k)
                for i in 0..<k { chunk.append(Workloads.recorded(generator.next(), index: seq + i)) }
                try log.append(chunk, to: session, expectedSeq: UInt64(seq))
                seq += k
            }
            ids.append(session.rawValue)
        }
        try log.flush()
        let file = (dir as NSString).appendingPathComponent("session-a.json")
        try log.exportFixture(session: SessionID(ids[0]), name: "cli-a").write(toFile: file)
        return Data(store: store, sessionA: ids[0], sessionB: ids[1], file: file)
    }

    /// The data in `dir` (`$BENCH_CLI_DATA`), written there first unless a previous run left it.
    static func keptData(count: Int, in dir: String) throws -> Data {
        let ready = (dir as NSString).appendingPathComponent("ready-\(count)")
        if let text = try? String(contentsOfFile: ready, encoding: .utf8) {
            let ids = text.split(separator: " ").map(String.init)
            if ids.count == 2 {
                return Data(store: (dir as NSString).appendingPathComponent("store"), sessionA: ids[0], sessionB: ids[1],
                            file: (dir as NSString).appendingPathComponent("session-a.json"))
            }
        }
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        progress("cli: writing two \(count)-event sessions and an export file to \(dir) (kept)")
        let data = try makeData(count: count, in: dir)
        try "\(data.sessionA) \(data.sessionB)".write(toFile: ready, atomically: true, encoding: .utf8)
        return data
    }

    /// Runs `routelog-bench-summary --cli-data DIR COUNT` (``keptData(count:in:)`` in a child).
    static func dataChild(count: Int, in dir: String) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = ["--cli-data", dir, String(count)]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("the cli data child failed (status \(p.terminationStatus))") }
        return try keptData(count: count, in: dir)
    }

    /// One run of the binary: wall seconds, peak RSS in bytes, exit status.
    struct Run {
        var seconds: Double
        var maxRSS: Int
        var status: Int32
        /// User and system CPU seconds (several threads can make more than the wall time).
        var cpu: Double
    }

    /// Runs `binary arguments` with stdout and stderr to /dev/null and waits for it with `wait4`.
    static func run(_ binary: String, _ arguments: [String]) throws -> Run {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var env: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment
            .filter { $0.key != "NO_COLOR" }.map { strdup("\($0.key)=\($0.value)") } + [strdup("NO_COLOR=1"), nil]
        defer { for p in env { free(p) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let rc = posix_spawn(&pid, binary, &actions, nil, argv, &env)
        guard rc == 0 else { throw BenchError("cannot start \(binary): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = (clock.now - start).seconds
        // ru_maxrss is in KiB on Linux.
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        func secs(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return Run(seconds: seconds, maxRSS: Int(usage.ru_maxrss) * 1024, status: exit, cpu: secs(usage.ru_utime) + secs(usage.ru_stime))
    }

    /// Best-of-`runs` time and the peak RSS of that run; fails when an exit status is not expected.
    static func measure(_ binary: String, _ arguments: [String], runs: Int, expect: Set<Int32>) throws -> (best: Run, median: Double) {
        var all: [Run] = []
        for _ in 0..<runs {
            let r = try run(binary, arguments)
            guard expect.contains(r.status) else {
                throw BenchError("routelog \(arguments.joined(separator: " ")) exited with \(r.status)")
            }
            all.append(r)
        }
        let best = all.min { $0.seconds < $1.seconds }!
        return (best, Measure.median(all.map(\.seconds)))
    }

    /// `CPU 2.1 s` of a run, for a reader of a busy machine's figures.
    static func cpu(_ r: Run) -> String { "CPU \(Summary.format(r.cpu)) s" }

    /// Measures `routelog arguments…` (`bin`) `runs` times on a session of `n` events: figure `name`,
    /// the best wall time, targeted at `perMillion` s per 1M events (its note: `note`, the CPU time and
    /// the target), and `name-rss`, that run's peak RSS, targeted at `rssMiB`.
    static func timeAndRSS(
        _ name: String, _ bin: String, _ arguments: [String], expect: Set<Int32> = [0], runs: Int, count n: Int,
        perMillion: Double, rssMiB: Double, note: String, scaled: String
    ) throws -> [Figure] {
        progress("\(name), \(runs) run(s)")
        let r = try measure(bin, arguments, runs: runs, expect: expect)
        return [
            Figure(name: name, value: r.best.seconds, unit: "s", target: .valueAtMost(perMillion * Double(n) / 1e6),
                   count: n, median: r.median, runs: runs,
                   note: "\(note); \(cpu(r.best)); target \(Int(perMillion)) s per 1M events" + scaled),
            Figure(name: name + "-rss", value: Double(r.best.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(rssMiB),
                   count: n, note: "peak RSS (ru_maxrss) of that run" + scaled),
        ]
    }

    static func figures(_ o: Options) throws -> [Figure] {
        let n = o.count(1_000_000)
        let size = n >= 1_000_000 && n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)"
        let scaled = n == 1_000_000 ? "" : "; \(n) events, not 1M (scaled)"
        let bin = try binary()
        let data: Data
        var temporary: TemporaryDirectory?
        defer { temporary?.remove() }
        // The data is written by a child process: a child's ru_maxrss starts from the peak of the
        // process that spawned it (posix_spawn shares its memory until the exec), so this process
        // stays small until the measurements.
        if let keep = ProcessInfo.processInfo.environment["BENCH_CLI_DATA"], !keep.isEmpty {
            // Kept between runs (for profiling the binary on the same files): reused when present.
            data = try dataChild(count: n, in: keep)
        } else {
            let dir = try TemporaryDirectory(prefix: "routelog-bench-cli")
            temporary = dir
            data = try dataChild(count: n, in: dir.path)
        }
        let runs = max(1, min(3, o.runs))
        let store = ["--store", data.store]
        var figures: [Figure] = []

        figures += try timeAndRSS("cli-diff-events-\(size)", bin, ["diff", data.sessionA, data.sessionB, "--events"] + store, expect: [1], runs: runs,
                                  count: n, perMillion: 3, rssMiB: 256,
                                  note: "routelog diff A B --events, two unrelated sessions, stdout to /dev/null", scaled: scaled)

        let at = n / 2
        figures += try timeAndRSS("cli-read-json-\(size)", bin, ["state", "\(data.file)@\(at)"] + store, runs: runs, count: n, perMillion: 2, rssMiB: 300,
                                  note: "routelog state FILE@\(at) on an exported \(n)-event fixture file", scaled: scaled)

        progress("cli-import-\(size), \(runs) run(s)")
        var importRuns: [Run] = []
        for k in 0..<runs {
            let target = (data.store as NSString).deletingLastPathComponent + "/import-\(k)"
            try? FileManager.default.removeItem(atPath: target)
            defer { try? FileManager.default.removeItem(atPath: target) }
            let r = try run(bin, ["import", "--store", target, data.file])
            guard r.status == 0 else { throw BenchError("routelog import exited with \(r.status)") }
            importRuns.append(r)
        }
        let imported = importRuns.min { $0.seconds < $1.seconds }!
        // A file holds at most 1 GiB (a 1M-event export is about 146 MB), so 10M events arrive as
        // ten such files, which import reads one after the other: 10M events in 30 s is 1M in 3 s.
        figures.append(Figure(name: "cli-import-\(size)", value: imported.seconds, unit: "s", target: .valueAtMost(3 * Double(n) / 1_000_000),
                              count: n, median: Measure.median(importRuns.map(\.seconds)), runs: runs,
                              note: "routelog import of the exported \(n)-event file into a new store, \(cpu(imported)); target: 10M events "
                                  + "(ten files) in 30 s, scaled to this file's events" + scaled))
        figures.append(Figure(name: "cli-import-\(size)-rss", value: Double(imported.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(512),
                              count: n, note: "peak RSS (ru_maxrss) of routelog import of the exported \(n)-event file into a new store; "
                                  + "\(Summary.format(imported.seconds)) s, \(cpu(imported)); target 512 MiB at 10M events (BENCH_SCALE=10)" + scaled))

        // Ten such files in one import: the 10M events a file cannot hold (one run; the ten names
        // are links to the exported file, imported as ten sessions).
        progress("cli-import-\(size)x10, 1 run")
        let tenDir = (data.store as NSString).deletingLastPathComponent + "/ten-files"
        try? FileManager.default.removeItem(atPath: tenDir)
        try FileManager.default.createDirectory(atPath: tenDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tenDir) }
        let tenFiles = try (0..<10).map { k -> String in
            let link = tenDir + "/part-\(k).json"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: data.file)
            return link
        }
        let ten = try run(bin, ["import", "--store", tenDir + "/store"] + tenFiles)
        guard ten.status == 0 else { throw BenchError("routelog import of ten files exited with \(ten.status)") }
        let tenName = n == 1_000_000 ? "cli-import-10M" : "cli-import-\(size)x10"
        figures.append(Figure(name: tenName, value: ten.seconds, unit: "s", target: .valueAtMost(30 * Double(n) / 1_000_000), count: 10 * n,
                              note: "routelog import of ten \(n)-event files into a new store, one run; \(cpu(ten)); peak RSS "
                                  + "\(Summary.format(Double(ten.maxRSS) / 1_048_576)) MiB (target 512)" + scaled))
        figures.append(Figure(name: tenName + "-rss", value: Double(ten.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(512), count: 10 * n,
                              note: "peak RSS (ru_maxrss) of that run" + scaled))

        progress("cli-log-\(size), \(runs) run(s)")
        let logRun = try measure(bin, ["log", data.sessionA] + store, runs: runs, expect: [0])
        figures.append(Figure(name: "cli-log-\(size)", value: Double(n) / logRun.best.seconds, unit: "lines/s", target: .valueAtLeast(1_000_000),
                              count: n, median: Double(n) / logRun.median, runs: runs,
                              note: "routelog log SESSION > /dev/null; \(cpu(logRun.best)); peak RSS \(Summary.format(Double(logRun.best.maxRSS) / 1_048_576)) MiB" + scaled))
        figures += try BlameBench.figures(bin: bin, session: data.sessionA, store: store, count: n, runs: runs, size: size, scaled: scaled)
        figures += try DeepReportBench.figures(bin: bin, runs: runs)
        figures += try PredicateBench.figures(bin: bin, runs: runs)
        return figures
    }
}
