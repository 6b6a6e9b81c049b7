import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `--only lifecycle`: what a stored event costs on disk, against the same events as JSON Lines
/// and as SQLite rows, and where the store's bytes go.
enum LifecycleBench {
    /// The realistic mix with the metadata an app records: times, origins, and call sites on the
    /// app's own calls (a few dozen call sites, as in an app), a note now and then.
    static func events(_ n: Int) -> [RecordedEvent] {
        let files = ["InboxView.swift", "ThreadView.swift", "ComposerView.swift", "Paywall.swift", "SettingsView.swift",
                     "SearchView.swift", "PlayerView.swift", "ProfileView.swift", "OnboardingFlow.swift", "DeepLinks.swift"]
        var rng = SplitMix64(seed: 0xB17E5)
        return Workloads.recorded(Workloads.realistic(n)).map { e in
            var meta = e.meta
            if meta.origin == .app {
                meta.callSite = CallSite(file: files[Int(rng.next() % UInt64(files.count))], line: 10 + Int(rng.next() % 4) * 17)
            }
            if rng.next() % 50 == 0 { meta.note = "retry" }
            return RecordedEvent(e.event, meta: meta)
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    static func figures(_ o: Options) throws -> [Figure] {
        let n = o.count(1_000_000)
        let dir = try TemporaryDirectory(prefix: "routelog-bench-lifecycle")
        defer { dir.remove() }
        progress("lifecycle: generating \(n) realistic events with metadata")
        let recorded = events(n)
        let scaled = n < 1_000_000 ? "; \(n) events (scaled)" : ""

        // The store: one session, batches of 1,000, then a final sync.
        progress("lifecycle: writing the store")
        let storePath = dir.file("store")
        let log = try LMDBEventLog.open(at: storePath, options: .init(durability: .none, retention: .none))
        let session = try log.createSession(NewSession(label: "bench", appName: "Bench", appVersion: "1.0")).id
        var seq: UInt64 = 0
        var i = 0
        while i < recorded.count {
            let end = min(recorded.count, i + 1000)
            try log.append(Array(recorded[i..<end]), to: session, expectedSeq: seq)
            seq = UInt64(end)
            i = end
        }
        try log.flush()
        let storeBytes = fileSize(storePath + "/data.mdb")
        try require(try log.session(session).eventCount == UInt64(n), "the store holds another count")

        // Where the bytes go: the events and snapshots databases' pages, against the bytes of the
        // keys and values LMDB stores in them (each node adds an 8-byte header and a 2-byte slot).
        let env = log.environment
        let (eventsStats, snapshotStats, sitesStats, recordBytes) = try env.withReadTransaction { txn in
            var bytes = 0
            try txn.forEach(in: try env.database(named: "events")) { _, v in
                bytes += v.count
                return true
            }
            return (try txn.statistics(of: try env.database(named: "events")), try txn.statistics(of: try env.database(named: "snapshots")),
                    try txn.statistics(of: try env.database(named: "sites")), bytes)
        }
        // Store format 3: session number 4 ‖ seq 5; format, kind, outcome, digest, checksum.
        let key = 9.0, fixed = 35.0, node = 10.0
        // The payload as stored: metadata relative to the session (time delta, call-site index), then the event.
        let payload = Double(recordBytes) / Double(n) - fixed
        let pageSize = Double(eventsStats.pageSize)
        let eventPages = Double(eventsStats.leafPages + eventsStats.branchPages + eventsStats.overflowPages) * pageSize / Double(n)
        let snapshotPages = Double(snapshotStats.leafPages + snapshotStats.branchPages + snapshotStats.overflowPages) * pageSize / Double(n)
        let fill = (key + fixed + payload + node) / eventPages
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        let sitePages = Double(sitesStats.leafPages + sitesStats.branchPages + sitesStats.overflowPages) * pageSize / Double(n)
        let breakdown = "per event: key \(f(key)), record header and integrity \(f(fixed)) (format, kind, outcome, digest 16, "
            + "checksum 16 chained to the previous record's), payload \(f(payload)) (time delta, call-site index, note, event), LMDB node \(f(node)); "
            + "events pages \(f(eventPages)) (fill \(f(fill * 100)) %), snapshots pages \(f(snapshotPages)), "
            + "call-site table \(sitesStats.entries) entries, \(f(sitePages)) pages"

        // The same events as JSON Lines (the canonical JSON of each event with its metadata).
        progress("lifecycle: JSON Lines")
        let jsonl = JSONBaseline.jsonLines(recorded)
        let jsonlPath = dir.file("events.jsonl")
        try jsonl.write(to: URL(fileURLWithPath: jsonlPath))
        let jsonlBytes = fileSize(jsonlPath)

        // The same records in SQLite: (session, seq) primary key, the event's encoding with
        // checksum, previous hash and digest, WITHOUT ROWID, after a full checkpoint.
        progress("lifecycle: SQLite")
        let sqlitePath = dir.file("events.sqlite")
        do {
            let db = try SQLiteBaseline(path: sqlitePath, synchronous: "NORMAL")
            var stream = BaselineRecords.Stream()
            var start = 0
            while start < recorded.count {
                let end = min(recorded.count, start + 100_000)
                try db.insert(stream.records(Array(recorded[start..<end])), batch: 1000)
                start = end
            }
            try db.checkpoint()
            try require(try db.count() == n, "sqlite holds another count")
        }
        let sqliteBytes = fileSize(sqlitePath) + fileSize(sqlitePath + "-wal")

        let perEvent = Double(storeBytes) / Double(n)
        let jsonlPerEvent = Double(jsonlBytes) / Double(n)
        let sqlitePerEvent = Double(sqliteBytes) / Double(n)
        return [
            Figure(name: "jsonl-bytes-per-event", value: jsonlPerEvent, unit: "bytes/event", count: n,
                   note: "baseline: canonical JSON Lines of the same events with metadata" + scaled),
            Figure(name: "sqlite-bytes-per-event", value: sqlitePerEvent, unit: "bytes/event", count: n,
                   note: "baseline: SQLite WAL, WITHOUT ROWID table of the same records (event encoding, checksum, previous hash, digest), after a checkpoint" + scaled),
            Figure(name: "store-bytes-per-event", value: perEvent, unit: "bytes/event", baseline: "jsonl-bytes-per-event",
                   baselineValue: jsonlPerEvent, target: .ratioAtMost(0.5), count: n,
                   note: "data.mdb after a final sync, one session, batches of 1,000; " + breakdown + scaled),
            Figure(name: "store-bytes-per-event vs sqlite", value: perEvent, unit: "bytes/event", baseline: "sqlite-bytes-per-event",
                   baselineValue: sqlitePerEvent, target: .ratioAtMost(1), count: n),
        ]
    }
}
