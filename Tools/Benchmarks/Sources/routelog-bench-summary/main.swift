// Measures every figure of RouteLog's benchmark table with its baselines in the same run, prints
// the table and writes the JSON summary. `make bench` runs it (release build) through `run.sh`.
//
//   routelog-bench-summary [--out PATH] [--scale X] [--runs N] [--only GROUP]  (GROUP: see `groups`)
//
// `--scale` multiplies every event count (0.1 for a quick look); the summary records it. `--only`
// measures one group of figures: `core`, `store` (which includes append-multiprocess) or
// `append-multiprocess` alone, `report` (the timeline report's size and write time), `lifecycle` (bytes
// per stored event against JSON Lines and SQLite), `navigator` (the Navigator call on the main
// actor, its memory and time travel on a 1M-event session), `cli` (the release `routelog` binary
// on 1M-event sessions: diff --events, reading a JSON file, log), or `restore` (RouteLogTesting's
// restore gate on a last-states corpus of 100,000 sessions).
import Foundation
@_spi(Benchmarks) @_spi(Tools) import RouteLogCore
import RouteLogBenchSupport
@_spi(Tools) import RouteLogLMDB


/// The groups `--only` takes (`store` includes `append-multiprocess`).
let groups = ["core", "store", "append-multiprocess", "report", "lifecycle", "navigator", "journal", "cli", "restore"]

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
            case "--only":
                let only = try value()
                guard groups.contains(only) else {
                    throw BenchError("--only takes one of: \(groups.joined(separator: ", "))")
                }
                o.only = only
            case "-h", "--help":
                print("usage: routelog-bench-summary [--out PATH] [--scale X] [--runs N] [--only \(groups.joined(separator: "|"))]")
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
    let digested = Folds.withDigest(events)
    try require(digested.0.computeDigest() == digested.0.digest, "the incremental digest differs from the digest from scratch")
    progress("encoding \(n) events (\(EventBytes.encodingName)) and JSON lines")
    let encoded = DecodingFolds.encode(recorded)
    let decoded = try DecodingFolds.decodeFoldDigest(encoded)
    try require(decoded.0.digest == digested.0.digest, "decode+fold+digest reaches another state")
    // JSONDecoder is two orders of magnitude slower than the fold: its baseline runs on the first
    // `jsonN` events (a per-event rate; the table says so when it is fewer than `n`).
    let jsonN = min(n, o.count(200_000))
    let lines = JSONBaseline.lines(Array(recorded.prefix(jsonN)))
    let json = try JSONBaseline.decodeAndFold(lines)
    try require(json.0 == Folds.withDigest(Array(events.prefix(jsonN))).0, "json-decode+fold reaches another state")
    let deepState = Folds.withDigest(deep).0
    try require(deepState.root.path.count == deepN, "the deep path has \(deepState.root.path.count) routes, not \(deepN)")

    var tTerms: [Double] = [], tDigest: [Double] = [], tDecode: [Double] = [], tDeep: [Double] = []
    for r in 0..<o.runs {
        progress("core run \(r + 1)/\(o.runs)")
        tDigest += Measure.seconds(runs: 1) { _ = Folds.withDigest(events) }
        tTerms += Measure.seconds(runs: 1) { _ = Folds.digestTerms(events) }
        tDecode += try Measure.seconds(runs: 1) { _ = try DecodingFolds.decodeFoldDigest(encoded) }
        tDeep += Measure.seconds(runs: 1) { _ = Folds.withDigest(deep) }
    }
    let jsonRuns = max(1, min(2, o.runs))
    progress("json-decode+fold, \(jsonRuns) run(s)")
    let tJSON = try Measure.seconds(runs: jsonRuns) { _ = try JSONBaseline.decodeAndFold(lines) }

    let terms = rate(n, tTerms), digest = rate(n, tDigest), decode = rate(n, tDecode), deepRate = rate(deepN, tDeep), jsonRate = rate(jsonN, tJSON)
    return [
        Figure(name: "fold+digest", value: digest.best, unit: "events/s", count: n, median: digest.median, runs: o.runs,
               note: "the reducer (apply, incremental digest included), realistic mix"),
        Figure(name: "digest-terms", value: terms.best, unit: "events/s", baseline: "fold+digest", baselineValue: digest.best,
               target: .ratioAtLeast(2), count: n, median: terms.median, runs: o.runs,
               note: "the digest terms of every push and show, hashed twice, without the reducer"),
        Figure(name: "decode+fold+digest", value: decode.best, unit: "events/s", baseline: "fold+digest", baselineValue: digest.best,
               target: .ratioAtLeast(0.4), count: n, median: decode.median, runs: o.runs,
               note: "decoding \(EventBytes.encodingName) bytes (events with metadata)"),
        Figure(name: "deep-path", value: deepRate.best, unit: "events/s", baseline: "fold+digest", baselineValue: digest.best,
               target: .ratioAtLeast(0.5), count: deepN, median: deepRate.median, runs: o.runs,
               note: "fold+digest, the path grows to \(deepN) routes"),
        Figure(name: "json-decode+fold", value: jsonRate.best, unit: "events/s", count: jsonN, median: jsonRate.median, runs: jsonRuns,
               note: "baseline: JSONDecoder into a JSONValue wrapper, Event(json:), fold+digest" + (jsonN < n ? "; first \(jsonN) of the \(n) events" : "")),
        Figure(name: "decode+fold+digest vs json", value: decode.best, unit: "events/s", baseline: "json-decode+fold",
               baselineValue: jsonRate.best, target: .ratioAtLeast(10), count: n, median: decode.median, runs: o.runs),
    ]
}

// MARK: - Store figures (LMDB, SQLite, JSON Lines)

func storeFigures(_ o: Options) throws -> [Figure] {
    let n = o.count(1_000_000)
    let durableN = o.count(300)
    let groupedN = o.count(20_000) / 4 * 4
    let bigN = o.count(10_000_000)
    let dir = try TemporaryDirectory(prefix: "routelog-bench")
    defer { dir.remove() }
    progress("store files in \(dir.path)")
    progress("generating \(n) recorded events")
    let recorded = Workloads.recorded(Workloads.realistic(n))
    var figures: [Figure] = []
    let storeRuns = max(1, min(2, o.runs))
    let replayRuns = max(1, min(3, o.runs))

    // Batched appends, in two durability modes, each against baselines that give the same
    // guarantee:
    // - default: the store's default `.grouped` durability (commits not synced; one flush at the
    //   end, included) vs raw LMDB with MDB_NOSYNC (one mdb_env_sync at the end, included) and
    //   SQLite WAL with synchronous=NORMAL (one FULL checkpoint at the end, included);
    // - synced: `.perEvent` (every batch a synced commit) vs raw LMDB synced commits and SQLite
    //   WAL with synchronous=FULL.
    // The baselines write the store's own keys and record bytes, copied from the store.
    var storePath = ""
    var storeSession = SessionID("")
    var records = RecordSet(keyLength: 0)
    var blocks = RecordSet(keyLength: 0)
    let digests = StoreBench.digests(recorded)
    for synced in [false, true] {
        let suffix = synced ? "-synced" : ""
        var tAppend: [Double] = [], tStoreFold: [Double] = []
        for r in 0..<storeRuns {
            progress("append-batched\(suffix) run \(r + 1)/\(storeRuns)")
            if !storePath.isEmpty { try? FileManager.default.removeItem(atPath: storePath) }
            storePath = dir.file("store\(suffix)-\(r)")
            let (session, seconds) = try StoreBench.appendBatched(recorded, digests: digests, at: storePath,
                                                                  durability: synced ? .perEvent : LMDBEventLog.Options().durability)
            storeSession = session
            tAppend.append(seconds)
            progress("append-batched-store-fold\(suffix) run \(r + 1)/\(storeRuns)")
            let foldPath = dir.file("store-fold\(suffix)-\(r)")
            tStoreFold.append(try StoreBench.appendBatched(recorded, at: foldPath, durability: synced ? .perEvent : LMDBEventLog.Options().durability).1)
            try? FileManager.default.removeItem(atPath: foldPath)
        }
        if records.count == 0 {
            // The baselines put one record per event: format 3's records (the store's key and
            // record of each event, as RouteLog stored them before blocks), copied from a store of
            // that format; the store's own blocks are a second baseline.
            progress("format-3 records for the baselines")
            let v3Path = dir.file("store-format3")
            _ = try StoreBench.appendBatched(recorded, digests: digests, at: v3Path, durability: .none, format: 3)
            records = try RawLMDB.copyRecords(fromEnvironment: v3Path, database: "events")
            try require(records.count == n, "the format-3 store holds \(records.count) records, not \(n)")
            try? FileManager.default.removeItem(atPath: v3Path)
            blocks = try RawLMDB.copyRecords(fromEnvironment: storePath, database: "events")
        }
        let recordBytes = Int((Double(records.totalValueBytes) / Double(records.count)).rounded())
        let blockBytes = Int((Double(blocks.totalValueBytes) / Double(max(1, blocks.count))).rounded())
        var tRawBlocks: [Double] = []
        for r in 0..<storeRuns {
            progress("raw-lmdb-batched-blocks\(suffix) run \(r + 1)/\(storeRuns)")
            let env = try RawLMDB(path: try dir.subdirectory("raw-blocks\(suffix)-\(r)"), noSync: !synced)
            // The batches' blocks: 1,000 events a commit, as the store's batches wrote them.
            let perCommit = max(1, blocks.count * 1_000 / n)
            tRawBlocks += try Measure.seconds(runs: 1) {
                try env.put(blocks, batch: perCommit)
                if !synced { try env.sync() }
            }
        }
        let rawBlocks = rate(n, tRawBlocks)
        figures.append(Figure(name: "raw-lmdb-batched-blocks\(suffix)", value: rawBlocks.best, unit: "events/s", count: n, median: rawBlocks.median,
                              runs: storeRuns,
                              note: "mdb_put (MDB_APPEND) of the store's own \(blocks.count) blocks (\(blockBytes) B values), "
                                  + "the blocks of 1,000 events per commit, " + (synced ? "every commit synced" : "MDB_NOSYNC + one sync at the end")))

        var tRaw: [Double] = []
        for r in 0..<storeRuns {
            progress("raw-lmdb-batched\(suffix) run \(r + 1)/\(storeRuns)")
            let env = try RawLMDB(path: try dir.subdirectory("raw\(suffix)-\(r)"), noSync: !synced)
            tRaw += try Measure.seconds(runs: 1) {
                try env.put(records, batch: 1_000)
                if !synced { try env.sync() }
            }
        }
        let raw = rate(n, tRaw)
        figures.append(Figure(name: "raw-lmdb-batched\(suffix)", value: raw.best, unit: "events/s", count: n, median: raw.median, runs: storeRuns,
                              note: "baseline: mdb_put (MDB_APPEND) of a record per event, format 3's keys and records (\(recordBytes) B values), 1,000 per commit, "
                                  + (synced ? "every commit synced" : "MDB_NOSYNC + one sync at the end")))

        var tSQLite: [Double] = []
        for r in 0..<storeRuns {
            progress("sqlite-batched\(suffix) run \(r + 1)/\(storeRuns)")
            let db = try SQLiteBaseline(path: dir.file("batched\(suffix)-\(r).sqlite"), synchronous: synced ? "FULL" : "NORMAL")
            tSQLite += try Measure.seconds(runs: 1) {
                try db.insert(records, batch: 1_000)
                if !synced { try db.checkpoint() }
            }
            let rows = try db.count()
            try require(rows == n, "sqlite-batched wrote \(rows) rows")
        }
        let sqlite = rate(n, tSQLite)
        figures.append(Figure(name: "sqlite-batched\(suffix)", value: sqlite.best, unit: "events/s", count: n, median: sqlite.median, runs: storeRuns,
                              note: "baseline: SQLite WAL, the same records as blobs keyed by (session, seq), 1,000 rows per transaction, "
                                  + (synced ? "synchronous=FULL" : "synchronous=NORMAL + a FULL checkpoint at the end")))

        let append = rate(n, tAppend)
        figures.append(Figure(name: "append-batched\(suffix)", value: append.best, unit: "events/s", baseline: "raw-lmdb-batched\(suffix)", baselineValue: raw.best,
                              target: .ratioAtLeast(synced ? 0.5 : 0.7), count: n, median: append.median, runs: storeRuns,
                              note: (synced ? "LMDBEventLog, .perEvent: every batch of 1,000 a synced commit"
                                            : "LMDBEventLog, default .grouped durability, batches of 1,000, final flush included")
                                  + "; appendFolded with the navigator's digests, the recorder's call (written on this caller's thread; "
                                  + "the recorder hands its batches to the writer thread)"))
        let storeFold = rate(n, tStoreFold)
        figures.append(Figure(name: "append-batched-store-fold\(suffix)", value: storeFold.best, unit: "events/s", baseline: "append-batched\(suffix)",
                              baselineValue: append.best, count: n, median: storeFold.median, runs: storeRuns,
                              note: "the same batches through append, which folds every event on the writer (an import's path)"))
        figures.append(Figure(name: "append-batched\(suffix) vs raw blocks", value: append.best, unit: "events/s", baseline: "raw-lmdb-batched-blocks\(suffix)",
                              baselineValue: rawBlocks.best, count: n, median: append.median, runs: storeRuns,
                              note: "the store against a raw put of its own blocks: what encoding, folding and checking cost"))
        figures.append(Figure(name: "append-batched\(suffix) vs sqlite", value: append.best, unit: "events/s", baseline: "sqlite-batched\(suffix)",
                              baselineValue: sqlite.best, target: .ratioAtLeast(4), count: n, median: append.median, runs: storeRuns))
    }

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
                          note: "baseline: mdb_put, one synced commit per record (LMDB's floor: two fsyncs a commit)"))

    progress("append-durable, \(durableN) commits")
    let tDurable = try StoreBench.appendSingles(recorded[0..<durableN], at: dir.file("durable"), durability: .perEvent)
    let durable = rate(durableN, [tDurable])
    figures.append(Figure(name: "append-durable", value: durable.best, unit: "commits/s", baseline: "raw-lmdb-per-commit", baselineValue: perCommit.best,
                          target: .ratioAtLeast(0.9), count: durableN, note: "LMDBEventLog, .perEvent, one event per append"))
    figures.append(Figure(name: "append-durable vs sqlite", value: durable.best, unit: "commits/s", baseline: "sqlite-full-per-row",
                          baselineValue: perRow.best, count: durableN, note: "no target: LMDB syncs twice a commit, SQLite WAL once"))
    progress("append-grouped, 4 appenders, \(groupedN) events")
    let tGrouped = try GroupedAppends.seconds(Array(recorded[0..<groupedN]), appenders: 4, at: dir.file("grouped"))
    let grouped = rate(groupedN, [tGrouped])
    figures.append(Figure(name: "append-grouped", value: grouped.best, unit: "events/s", baseline: "append-durable", baselineValue: durable.best,
                          target: .ratioAtLeast(10), count: groupedN,
                          note: "4 threads, one event per append, .grouped(maxDelay: 100 ms), final flush included"))

    // raw-scan+fold: a raw environment of the baseline layout (BinaryCodec event + integrity fields).
    progress("raw-scan+fold: writing \(n) baseline records")
    let scanEnv = try RawLMDB(path: try dir.subdirectory("raw-scan"), noSync: true)
    try scanEnv.put(BaselineRecords.make(recorded), batch: 10_000)
    let scanned = try DecodingFolds.rawScanFold(scanEnv)
    try require(scanned.events == n, "raw scan saw \(scanned.events) records")
    var tScan: [Double] = []
    for r in 0..<replayRuns {
        progress("raw-scan+fold run \(r + 1)/\(replayRuns)")
        tScan += try Measure.seconds(runs: 1) { _ = try DecodingFolds.rawScanFold(scanEnv) }
    }
    let scan = rate(n, tScan)
    figures.append(Figure(name: "raw-scan+fold", value: scan.best, unit: "events/s", count: n, median: scan.median, runs: replayRuns,
                          note: "baseline: one cursor scan, BinaryCodec decode, fold+digest"))

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

    let check = try StoreBench.replay(at: storePath, session: storeSession)
    try require(check.events == UInt64(n) && check.digest == scanned.0.computeDigest(), "replay of the store reaches another state")
    var tReplay: [Double] = []
    for r in 0..<replayRuns {
        progress("replay-1M run \(r + 1)/\(replayRuns)")
        tReplay += try Measure.seconds(runs: 1) { try StoreBench.replay(at: storePath, session: storeSession) }
    }
    let replay1 = rate(n, tReplay)
    figures.append(Figure(name: "replay-1M", value: replay1.best, unit: "events/s", baseline: "raw-scan+fold", baselineValue: scan.best,
                          target: .ratioAtLeast(0.5), count: n, median: replay1.median, runs: replayRuns,
                          note: "open read-only, read (checksums), decode, fold, check every stored digest"))
    figures.append(Figure(name: "replay-1M vs jsonl", value: replay1.best, unit: "events/s", baseline: "jsonl-replay", baselineValue: jsonl.best,
                          target: .ratioAtLeast(20), count: n, median: replay1.median, runs: replayRuns))
    try? FileManager.default.removeItem(atPath: storePath)

    // The 10M-event session (scaled with --scale).
    progress("writing a \(bigN)-event session to a store and a raw environment")
    let bigStore = dir.file("store-big")
    let bigRaw = try dir.subdirectory("raw-big")
    let bigSession = try StoreBench.buildBig(count: bigN, storePath: bigStore, rawPath: bigRaw)
    let big = bigN >= 1_000_000 ? "\(bigN / 1_000_000)M" : "\(bigN)"
    progress("replay-\(big)")
    let (bigCheck, tBigReplay) = try Measure.once { try StoreBench.replay(at: bigStore, session: bigSession) }
    try require(bigCheck.events == UInt64(bigN), "replay of the big session read \(bigCheck.events) events")
    progress("raw-scan+fold-\(big)")
    let bigScanEnv = try RawLMDB(path: bigRaw, mapSize: 64 << 30, noSync: true)
    let (bigScanned, tBigScan) = try Measure.once { try DecodingFolds.rawScanFold(bigScanEnv) }
    try require(bigScanned.events == bigN && bigScanned.0.computeDigest() == bigCheck.digest, "the big raw scan reaches another state")
    let scaledNote = bigN < 10_000_000 ? "; \(bigN) events, not 10M (scaled)" : ""
    figures.append(Figure(name: "raw-scan+fold-\(big)", value: Double(bigN) / tBigScan, unit: "events/s", count: bigN, runs: 1,
                          note: "baseline: as raw-scan+fold" + scaledNote))
    figures.append(Figure(name: "replay-\(big)", value: Double(bigN) / tBigReplay, unit: "events/s", baseline: "raw-scan+fold-\(big)",
                          baselineValue: Double(bigN) / tBigScan, target: .ratioAtLeast(0.5), count: bigN, runs: 1, note: "as replay-1M" + scaledNote))
    figures.append(Figure(name: "replay-\(big) vs jsonl", value: Double(bigN) / tBigReplay, unit: "events/s", baseline: "jsonl-replay",
                          baselineValue: jsonl.best, target: .ratioAtLeast(20), count: bigN, runs: 1))

    // The big store's size on disk (format 4; format 3 took store-bytes-per-event-format3 an event).
    let bigBytes = Double(LifecycleBench.fileSize(bigStore + "/data.mdb"))
    progress("store-size-\(big)-format3: the same session in format 3")
    let big3 = dir.file("store-big-format3")
    _ = try StoreBench.buildBig(count: bigN, storePath: big3, rawPath: nil, format: 3)
    let big3Bytes = Double(LifecycleBench.fileSize(big3 + "/data.mdb"))
    try? FileManager.default.removeItem(atPath: big3)
    figures.append(Figure(name: "store-size-\(big)", value: bigBytes / 1_048_576, unit: "MiB", baseline: "store-size-\(big)-format3",
                          baselineValue: big3Bytes / 1_048_576, count: bigN, runs: 1,
                          note: "data.mdb of the \(bigN)-event session (format 4, batches as replay-\(big) wrote them), "
                              + "\(Summary.format(bigBytes / Double(bigN))) bytes/event" + scaledNote))
    figures.append(Figure(name: "store-size-\(big)-format3", value: big3Bytes / 1_048_576, unit: "MiB", count: bigN, runs: 1,
                          note: "the same events in a format-3 store, \(Summary.format(big3Bytes / Double(bigN))) bytes/event" + scaledNote))

    let lookups = 101
    progress("time-travel: \(lookups) state(at:) at random seqs")
    let log = try LMDBEventLog.open(at: bigStore, options: .init(readOnly: true))
    var rng = SplitMix64(seed: Workloads.seed)
    var tTravel: [Double] = []
    for _ in 0..<lookups {
        let seq = 1 + rng.next() % UInt64(bigN)
        tTravel += try Measure.seconds(runs: 1) { _ = try log.state(of: bigSession, at: seq) }
    }
    let travel = Measure.median(tTravel)
    figures.append(Figure(name: "time-travel", value: travel, unit: "s", baseline: "replay-\(big) (full, s)", baselineValue: tBigReplay,
                          target: .ratioAtMost(0.001), count: lookups, median: travel, runs: lookups,
                          note: "median state(of:at:) at random seqs; snapshot every \(LMDBEventLog.defaultSnapshotInterval) events" + scaledNote))

    progress("replay-rss: replaying \(bigN) events in a child process")
    let rss = try StoreBench.replayRSS(path: bigStore, session: bigSession)
    figures.append(Figure(name: "replay-rss", value: Double(rss.peak) / 1_048_576, unit: "MiB", target: .valueAtMost(64), count: bigN,
                          note: "peak RssAnon while replaying (\(String(format: "%.1f", Double(rss.start) / 1_048_576)) MiB at start)" + scaledNote))
    return figures
}

// MARK: - Main

/// When this process was started as one of the benchmarks' child processes (`--MODE A B`): runs
/// `body` with A and B, then exits 0, or 1 after printing `MODE: error` on stderr.
func runChild(_ mode: String, _ body: (String, String) throws -> Void) {
    let args = CommandLine.arguments
    guard args.count == 4, args[1] == "--" + mode else { return }
    do {
        try body(args[2], args[3])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(mode): \(error)\n".utf8))
        exit(1)
    }
}

/// A child's COUNT argument.
func childCount(_ text: String) throws -> Int {
    guard let count = Int(text) else { throw BenchError("not a count: \(text)") }
    return count
}

// The child process of replay-rss: `routelog-bench-summary --replay-rss STORE SESSION`.
runChild("replay-rss") { try StoreBench.replayRSSChild(path: $0, session: $1) }
// The appenders of append-multiprocess: `routelog-bench-summary --append-child STORE COUNT`.
runChild("append-child") { try MultiProcessBench.child(store: $0, count: try childCount($1)) }
// The child process of navigator-memory-distinct-1M: `routelog-bench-summary --navigator-distinct STORE COUNT`.
runChild("navigator-distinct") { path, count in
    let n = try childCount(count)
    try MainActor.assumeIsolated { try DistinctPayloadMemory.child(store: path, count: n) }
}
// The data of the cli figures: `routelog-bench-summary --cli-data DIR COUNT`.
runChild("cli-data") { _ = try CLIBench.keptData(count: try childCount($1), in: $0) }

do {
    let o = try Options.parse(CommandLine.arguments)
    let clock = ContinuousClock()
    let start = clock.now
    var figures: [Figure] = []
    // The cli group first: a child's ru_maxrss starts from this process's peak RSS (Linux carries
    // the spawning process's high-water mark across exec), which the other groups raise past 1 GB.
    if o.only == nil || o.only == "cli" { figures += try CLIBench.figures(o) }
    if o.only == nil || o.only == "core" { figures += try coreFigures(o) }
    if o.only == nil || o.only == "store" { figures += try storeFigures(o) }
    if o.only == nil || o.only == "store" || o.only == "append-multiprocess" { figures += try MultiProcessBench.figures(o) }
    if o.only == nil || o.only == "report" { figures += try reportFigures(o) }
    if o.only == nil || o.only == "lifecycle" { figures += try LifecycleBench.figures(o) }
    if o.only == nil || o.only == "navigator" { figures += try navigatorFigures(o) }
    if o.only == nil || o.only == "navigator" { figures += try await SuspendBench.figures(o) }
    if o.only == nil || o.only == "journal" { figures += try JournalBench.figures(o) }
    if o.only == nil || o.only == "restore" { figures += try RestoreGateBench.figures(o) }
    let elapsed = (clock.now - start).seconds
    print("")
    print("RouteLog benchmarks (release build; value = best of the runs; rates are per second of wall-clock time)")
    if o.scale != 1 { print("NOTE: every event count is scaled by \(o.scale) (--scale / BENCH_SCALE)") }
    print(Summary.table(figures), terminator: "")
    let targets = figures.compactMap(\.met)
    print("\(targets.filter { $0 }.count) of \(targets.count) targets met; \(String(format: "%.0f", elapsed)) s")
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
