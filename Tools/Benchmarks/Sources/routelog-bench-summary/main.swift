// Measures every figure of RouteLog's benchmark table with its baselines in the same run, prints
// the table and writes the JSON summary. `make bench` runs it (release build) through `run.sh`.
//
//   routelog-bench-summary [--out PATH] [--scale X] [--runs N] [--only core|store]
//
// `--scale` multiplies every event count (0.1 for a quick look); the summary records it.
import Foundation
@_spi(Benchmarks) import RouteLogCore
import RouteLogBenchSupport


struct Options {
    var out = ProcessInfo.processInfo.environment["BENCH_OUT"] ?? ".build/bench-summary.json"
    var scale = Double(ProcessInfo.processInfo.environment["BENCH_SCALE"] ?? "") ?? 1
    var runs = Int(ProcessInfo.processInfo.environment["BENCH_RUNS"] ?? "") ?? 5
    var only: String?

    static func parse(_ args: [String]) throws -> Options {
        var o = Options()
        var i = 1
        func value() throws -> String {
            i += 1
            guard i < args.count else { throw BenchError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--out": o.out = try value()
            case "--scale":
                guard let s = Double(try value()), s > 0 else { throw BenchError("--scale needs a positive number") }
                o.scale = s
            case "--runs":
                guard let r = Int(try value()), r > 0 else { throw BenchError("--runs needs a positive integer") }
                o.runs = r
            case "--only": o.only = try value()
            case "-h", "--help":
                print("usage: routelog-bench-summary [--out PATH] [--scale X] [--runs N] [--only core|store]")
                exit(0)
            default: throw BenchError("unknown argument \(args[i])")
            }
            i += 1
        }
        return o
    }

    func count(_ n: Int) -> Int { max(1, Int((Double(n) * scale).rounded())) }
}

func progress(_ s: String) {
    FileHandle.standardError.write(Data("[bench] \(s)\n".utf8))
}

func require(_ ok: Bool, _ message: @autoclosure () -> String) throws {
    if !ok { throw BenchError("check failed: \(message())") }
}

/// Events per second of the best run, with the median run's rate.
func rate(_ count: Int, _ times: [Double]) -> (best: Double, median: Double) {
    (Double(count) / times.min()!, Double(count) / Measure.median(times))
}

// MARK: - Core figures (fold, digest, decoding)

func coreFigures(_ o: Options) throws -> [Figure] {
    let n = o.count(1_000_000)
    let deepN = o.count(100_000)
    progress("generating \(n) realistic events and a \(deepN)-deep path")
    let events = Workloads.realistic(n)
    let deep = Workloads.deepPath(deepN)
    let recorded = Workloads.recorded(events)

    // Every fold measured must compute the same thing.
    let pure = Folds.pure(events)
    let digested = Folds.withDigest(events)
    try require(pure.0 == digested.0 && pure.applied == digested.applied, "the pure fold and fold+digest reach different states")
    try require(pure.0.computeDigest() == digested.0.digest, "the incremental digest differs from the digest from scratch")
    progress("encoding \(n) events (\(EventBytes.encodingName)) and JSON lines")
    let encoded = DecodingFolds.encode(recorded)
    let decoded = try DecodingFolds.decodeFoldDigest(encoded)
    try require(decoded.0.digest == digested.0.digest, "decode+fold+digest reaches another state")
    // JSONDecoder is two orders of magnitude slower than the fold: its baseline runs on the first
    // `jsonN` events (a per-event rate; the table says so when it is fewer than `n`).
    let jsonN = min(n, o.count(200_000))
    let lines = JSONBaseline.lines(Array(recorded.prefix(jsonN)))
    let json = try JSONBaseline.decodeAndFold(lines)
    try require(json.0 == Folds.pure(Array(events.prefix(jsonN))).0, "json-decode+fold reaches another state")
    let deepState = Folds.withDigest(deep).0
    try require(deepState.root.path.count == deepN, "the deep path has \(deepState.root.path.count) routes, not \(deepN)")

    var tFold: [Double] = [], tDigest: [Double] = [], tDecode: [Double] = [], tDeep: [Double] = []
    for r in 0..<o.runs {
        progress("core run \(r + 1)/\(o.runs)")
        tFold += Measure.seconds(runs: 1) { _ = Folds.pure(events) }
        tDigest += Measure.seconds(runs: 1) { _ = Folds.withDigest(events) }
        tDecode += try Measure.seconds(runs: 1) { _ = try DecodingFolds.decodeFoldDigest(encoded) }
        tDeep += Measure.seconds(runs: 1) { _ = Folds.withDigest(deep) }
    }
    let jsonRuns = max(1, min(2, o.runs))
    progress("json-decode+fold, \(jsonRuns) run(s)")
    let tJSON = try Measure.seconds(runs: jsonRuns) { _ = try JSONBaseline.decodeAndFold(lines) }

    let fold = rate(n, tFold), digest = rate(n, tDigest), decode = rate(n, tDecode), deepRate = rate(deepN, tDeep), jsonRate = rate(jsonN, tJSON)
    return [
        Figure(name: "fold", value: fold.best, unit: "events/s", count: n, median: fold.median, runs: o.runs,
               note: "pure fold (reducer without digest upkeep), realistic mix"),
        Figure(name: "fold+digest", value: digest.best, unit: "events/s", baseline: "fold", baselineValue: fold.best,
               target: .ratioAtLeast(0.5), count: n, median: digest.median, runs: o.runs),
        Figure(name: "decode+fold+digest", value: decode.best, unit: "events/s", baseline: "fold", baselineValue: fold.best,
               target: .ratioAtLeast(0.25), count: n, median: decode.median, runs: o.runs,
               note: "decoding \(EventBytes.encodingName) bytes (events with metadata)"),
        Figure(name: "deep-path", value: deepRate.best, unit: "events/s", baseline: "fold+digest", baselineValue: digest.best,
               target: .ratioAtLeast(0.5), count: deepN, median: deepRate.median, runs: o.runs,
               note: "fold+digest, the path grows to \(deepN) routes"),
        Figure(name: "json-decode+fold", value: jsonRate.best, unit: "events/s", count: jsonN, median: jsonRate.median, runs: jsonRuns,
               note: "baseline: JSONDecoder into a JSONValue wrapper, Event(json:), pure fold" + (jsonN < n ? "; first \(jsonN) of the \(n) events" : "")),
        Figure(name: "decode+fold+digest vs json", value: decode.best, unit: "events/s", baseline: "json-decode+fold",
               baselineValue: jsonRate.best, target: .ratioAtLeast(10), count: n, median: decode.median, runs: o.runs),
    ]
}

// MARK: - Store figures (LMDB, SQLite, JSON Lines)

func storeFigures(_ o: Options) throws -> [Figure] {
    let n = o.count(1_000_000)
    let durableN = o.count(300)
    let dir = try TemporaryDirectory(prefix: "routelog-bench")
    defer { dir.remove() }
    progress("store files in \(dir.path)")
    progress("generating \(n) recorded events and their records")
    let recorded = Workloads.recorded(Workloads.realistic(n))
    let records = BaselineRecords.make(recorded)
    let recordBytes = Double(records.totalValueBytes) / Double(records.count)
    var figures: [Figure] = []
    let storeRuns = max(1, min(2, o.runs))

    // raw-lmdb-batched: mdb_put with MDB_APPEND, 1,000 per synced commit, a fresh environment each run.
    var tRaw: [Double] = []
    var lastRaw: RawLMDB?
    for r in 0..<storeRuns {
        progress("raw-lmdb-batched run \(r + 1)/\(storeRuns)")
        let path = try dir.subdirectory("raw-\(r)")
        let env = try RawLMDB(path: path)
        tRaw += try Measure.seconds(runs: 1) { try env.put(records, batch: 1_000) }
        lastRaw = env
    }
    let raw = rate(n, tRaw)
    figures.append(Figure(name: "raw-lmdb-batched", value: raw.best, unit: "events/s", count: n, median: raw.median, runs: storeRuns,
                          note: "baseline: mdb_put (MDB_APPEND), 1,000 per synced commit, \(Int(recordBytes)) B records"))

    var tSQLite: [Double] = []
    for r in 0..<storeRuns {
        progress("sqlite-batched run \(r + 1)/\(storeRuns)")
        let db = try SQLiteBaseline(path: dir.file("batched-\(r).sqlite"), synchronous: "FULL")
        tSQLite += try Measure.seconds(runs: 1) { try db.insert(records, batch: 1_000) }
        let rows = try db.count()
        try require(rows == n, "sqlite-batched wrote \(rows) rows")
    }
    let sqlite = rate(n, tSQLite)
    figures.append(Figure(name: "sqlite-batched", value: sqlite.best, unit: "events/s", count: n, median: sqlite.median, runs: storeRuns,
                          note: "baseline: SQLite WAL, synchronous=FULL, 1,000 rows per transaction"))

    progress("sqlite-full-per-row, \(durableN) commits")
    let perRowDB = try SQLiteBaseline(path: dir.file("per-row.sqlite"), synchronous: "FULL")
    let tPerRow = try Measure.seconds(runs: 1) { try perRowDB.insert(records, range: 0..<durableN, batch: 1) }
    let perRow = rate(durableN, tPerRow)
    figures.append(Figure(name: "sqlite-full-per-row", value: perRow.best, unit: "commits/s", count: durableN,
                          note: "baseline: SQLite WAL, synchronous=FULL, one commit per row"))

    progress("raw-lmdb-per-commit, \(durableN) commits")
    let perCommitEnv = try RawLMDB(path: try dir.subdirectory("raw-per-commit"))
    let tPerCommit = try Measure.seconds(runs: 1) { try perCommitEnv.put(records, range: 0..<durableN, batch: 1) }
    let perCommit = rate(durableN, tPerCommit)
    figures.append(Figure(name: "raw-lmdb-per-commit", value: perCommit.best, unit: "commits/s", count: durableN,
                          note: "reference: mdb_put, one synced commit per record"))

    // raw-scan+fold over the last raw environment.
    let scanned = try DecodingFolds.rawScanFold(lastRaw!)
    try require(scanned.events == n, "raw scan saw \(scanned.events) records")
    var tScan: [Double] = []
    for r in 0..<o.runs {
        progress("raw-scan+fold run \(r + 1)/\(o.runs)")
        tScan += try Measure.seconds(runs: 1) { _ = try DecodingFolds.rawScanFold(lastRaw!) }
    }
    let scan = rate(n, tScan)
    figures.append(Figure(name: "raw-scan+fold", value: scan.best, unit: "events/s", count: n, median: scan.median, runs: o.runs,
                          note: "baseline: cursor scan, decode (\(EventBytes.encodingName)), pure fold"))
    lastRaw = nil

    let jsonlN = min(n, o.count(200_000))
    progress("writing \(jsonlN) events as JSON Lines")
    let jsonlPath = dir.file("events.jsonl")
    try JSONBaseline.jsonLines(Array(recorded.prefix(jsonlN))).write(to: URL(fileURLWithPath: jsonlPath))
    let jsonlCheck = try JSONBaseline.replayFile(at: jsonlPath)
    try require(jsonlCheck.events == jsonlN, "jsonl-replay read \(jsonlCheck.events) events")
    progress("jsonl-replay, \(storeRuns) run(s)")
    let tJSONL = try Measure.seconds(runs: storeRuns) { _ = try JSONBaseline.replayFile(at: jsonlPath) }
    let jsonl = rate(jsonlN, tJSONL)
    figures.append(Figure(name: "jsonl-replay", value: jsonl.best, unit: "events/s", count: jsonlN, median: jsonl.median, runs: storeRuns,
                          note: "baseline: JSON Lines file, JSONDecoder, fold+digest" + (jsonlN < n ? "; \(jsonlN) events (a per-event rate)" : "")))

    figures += StoreFigures.pending(raw: raw.best, sqlite: sqlite.best, perRow: perRow.best, scan: scan.best, jsonl: jsonl.best)
    return figures
}

/// The figures of the LMDB store itself.
enum StoreFigures {
    static let why = "not measured: LMDBEventLog is not on this branch yet"

    static func pending(raw: Double, sqlite: Double, perRow: Double, scan: Double, jsonl: Double) -> [Figure] {
        [
            Figure(name: "append-batched", value: nil, unit: "events/s", baseline: "raw-lmdb-batched", baselineValue: raw, target: .ratioAtLeast(0.5), note: why),
            Figure(name: "append-batched vs sqlite", value: nil, unit: "events/s", baseline: "sqlite-batched", baselineValue: sqlite, target: .ratioAtLeast(4), note: why),
            Figure(name: "append-durable", value: nil, unit: "commits/s", baseline: "sqlite-full-per-row", baselineValue: perRow, target: .ratioAtLeast(1), note: why),
            Figure(name: "append-grouped", value: nil, unit: "events/s", baseline: "append-durable", target: .ratioAtLeast(10), note: why),
            Figure(name: "replay-1M", value: nil, unit: "events/s", baseline: "raw-scan+fold", baselineValue: scan, target: .ratioAtLeast(0.5), note: why),
            Figure(name: "replay-1M vs jsonl", value: nil, unit: "events/s", baseline: "jsonl-replay", baselineValue: jsonl, target: .ratioAtLeast(20), note: why),
            Figure(name: "replay-10M", value: nil, unit: "events/s", baseline: "raw-scan+fold", baselineValue: scan, target: .ratioAtLeast(0.5), note: why),
            Figure(name: "time-travel", value: nil, unit: "s", baseline: "replay-10M (full)", target: .ratioAtMost(0.001), note: why),
            Figure(name: "replay-rss", value: nil, unit: "MiB", target: .valueAtMost(64), note: why),
        ]
    }
}

// MARK: - Main

do {
    let o = try Options.parse(CommandLine.arguments)
    let clock = ContinuousClock()
    let start = clock.now
    var figures: [Figure] = []
    if o.only == nil || o.only == "core" { figures += try coreFigures(o) }
    if o.only == nil || o.only == "store" { figures += try storeFigures(o) }
    let elapsed = (clock.now - start).seconds
    print("")
    print("RouteLog benchmarks (release build; value = best of the runs; rates are per second of wall-clock time)")
    if o.scale != 1 { print("NOTE: every event count is scaled by \(o.scale) (--scale / BENCH_SCALE)") }
    print(Summary.table(figures), terminator: "")
    let targets = figures.compactMap(\.met)
    let unmeasured = figures.filter { $0.value == nil }.count
    print("\(targets.filter { $0 }.count) of \(targets.count) measured targets met; \(unmeasured) figure(s) not measured; \(String(format: "%.0f", elapsed)) s")
    let context: [String: String] = [
        "scale": String(o.scale),
        "runs": String(o.runs),
        "eventEncoding": EventBytes.encodingName,
        "cores": String(ProcessInfo.processInfo.activeProcessorCount),
        "seconds": String(format: "%.1f", elapsed),
    ]
    let outURL = URL(fileURLWithPath: o.out)
    try FileManager.default.createDirectory(at: outURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Summary.json(figures, context: context).write(to: outURL, atomically: true, encoding: .utf8)
    print("summary written to \(o.out)")
} catch {
    FileHandle.standardError.write(Data("routelog-bench-summary: \(error)\n".utf8))
    exit(1)
}
