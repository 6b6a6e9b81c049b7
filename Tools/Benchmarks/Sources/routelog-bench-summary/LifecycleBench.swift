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

    /// The bytes this process has written with write(2) and its kind (`wchar` of /proc/self/io; 0
    /// where there is none).
    static func writtenBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
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

        // The store, in format 4 (the default) and in format 3 (the stores written before): one
        // session, batches of 1,000, then a final sync.
        func writeStore(format: UInt32) throws -> (bytes: Int, breakdown: String, floor: Double) {
            progress("lifecycle: writing the store (format \(format))")
            let storePath = dir.file("store\(format)")
            var options = LMDBEventLog.Options(durability: .none, retention: .none)
            options.storeFormat = format
            let log = try LMDBEventLog.open(at: storePath, options: options)
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
            let (eventsStats, snapshotStats, sitesStats, valueBytes) = try env.withReadTransaction { txn in
                var bytes = 0
                try txn.forEach(in: try env.database(named: "events")) { _, v in
                    bytes += v.count
                    return true
                }
                return (try txn.statistics(of: try env.database(named: "events")), try txn.statistics(of: try env.database(named: "snapshots")),
                        try txn.statistics(of: try env.database(named: "sites")), bytes)
            }
            // Format 4: a block's key (9), node (10 with its slot), format, count, digest and checksum
            // (34), shared by its events; format 3: the same per event, with kind and outcome (35).
            let entries = Double(eventsStats.entries)
            let key = 9.0 * entries / Double(n), node = 10.0 * entries / Double(n)
            let fixed = (format >= 4 ? 34.0 : 35.0) * entries / Double(n)
            // What an event's information takes as stored: its outcome (format 4), metadata relative
            // to the session (time delta, call-site index, note) and the event.
            let payload = Double(valueBytes) / Double(n) - fixed
            let pageSize = Double(eventsStats.pageSize)
            let eventPages = Double(eventsStats.leafPages + eventsStats.branchPages + eventsStats.overflowPages) * pageSize / Double(n)
            let snapshotPages = Double(snapshotStats.leafPages + snapshotStats.branchPages + snapshotStats.overflowPages) * pageSize / Double(n)
            let fill = (key + fixed + payload + node) / eventPages
            func f(_ v: Double) -> String { String(format: "%.1f", v) }
            let sitePages = Double(sitesStats.leafPages + sitesStats.branchPages + sitesStats.overflowPages) * pageSize / Double(n)
            let layout = format >= 4
                ? "\(eventsStats.entries) blocks (\(f(Double(n) / entries)) events a block); per event: block key \(f(key)), block header and integrity \(f(fixed)) (format, count, digest 16, checksum 16, per block), "
                    + "outcome and payload \(f(payload)) (outcome, time delta, call-site index, note, event), LMDB node \(f(node)); "
                : "per event: key \(f(key)), record header and integrity \(f(fixed)) (format, kind, outcome, digest 16, "
                    + "checksum 16 chained to the previous record's), payload \(f(payload)) (time delta, call-site index, note, event), LMDB node \(f(node)); "
            let breakdown = layout + "events pages \(f(eventPages)) (fill \(f(fill * 100)) %), snapshots pages \(f(snapshotPages)), "
                + "call-site table \(sitesStats.entries) entries, \(f(sitePages)) pages"
            return (storeBytes, breakdown, payload)
        }
        let (storeBytes, breakdown, floor) = try writeStore(format: LMDBEventLog.newStoreFormat)
        let (store3Bytes, breakdown3, _) = try writeStore(format: 3)

        // A recorder that drains one event at a time rewrites the session's open block at every
        // append: the bytes LMDB writes to data.mdb (its pwrite calls, /proc/self/io wchar) per event,
        // format 4 against format 3, without syncs.
        func singleAppendWrites(format: UInt32) throws -> Double {
            let k = min(n, 20_000)
            var options = LMDBEventLog.Options(durability: .none, retention: .none)
            options.storeFormat = format
            let log = try LMDBEventLog.open(at: dir.file("single\(format)"), options: options)
            let session = try log.createSession(NewSession(label: "single")).id
            let before = writtenBytes()
            for j in 0..<k { try log.append([recorded[j]], to: session, expectedSeq: UInt64(j)) }
            try log.flush()
            return Double(writtenBytes() - before) / Double(k)
        }
        progress("lifecycle: single-event appends")
        let single4 = try singleAppendWrites(format: LMDBEventLog.newStoreFormat)
        let single3 = try singleAppendWrites(format: 3)

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
        let perEvent3 = Double(store3Bytes) / Double(n)
        let jsonlPerEvent = Double(jsonlBytes) / Double(n)
        let sqlitePerEvent = Double(sqliteBytes) / Double(n)
        return [
            Figure(name: "jsonl-bytes-per-event", value: jsonlPerEvent, unit: "bytes/event", count: n,
                   note: "baseline: canonical JSON Lines of the same events with metadata" + scaled),
            Figure(name: "sqlite-bytes-per-event", value: sqlitePerEvent, unit: "bytes/event", count: n,
                   note: "baseline: SQLite WAL, WITHOUT ROWID table of the same records (event encoding, checksum, previous hash, digest), after a checkpoint" + scaled),
            Figure(name: "store-bytes-per-event", value: perEvent, unit: "bytes/event", baseline: "jsonl-bytes-per-event",
                   baselineValue: jsonlPerEvent, target: .ratioAtMost(0.3), count: n,
                   note: "format 4: data.mdb after a final sync, one session, batches of 1,000; " + breakdown + scaled),
            Figure(name: "store-bytes-per-event-format3", value: perEvent3, unit: "bytes/event", baseline: "jsonl-bytes-per-event",
                   baselineValue: jsonlPerEvent, count: n,
                   note: "the same store in format 3 (a record per event, as written before); " + breakdown3 + scaled),
            Figure(name: "store-bytes-per-event-floor", value: floor, unit: "bytes/event", baseline: "jsonl-bytes-per-event",
                   baselineValue: jsonlPerEvent, count: n,
                   note: "format 4's floor: what an average event's information takes as a block stores it (outcome, metadata relative "
                       + "to the session, the event in the binary codec), without keys, block headers, checksums, pages or snapshots" + scaled),
            Figure(name: "append-single-written-bytes-per-event", value: single4, unit: "bytes/event", baseline: "append-single-written-bytes-per-event-format3",
                   baselineValue: single3, count: min(n, 20_000),
                   note: "write amplification of a one-event append (a recorder draining one at a time): bytes LMDB writes to data.mdb "
                       + "(pwrite, /proc/self/io wchar) per event; format 4 rewrites the open block, format 3 writes one record; both a page per commit"),
            Figure(name: "append-single-written-bytes-per-event-format3", value: single3, unit: "bytes/event", count: min(n, 20_000)),
            Figure(name: "store-bytes-per-event vs sqlite", value: perEvent, unit: "bytes/event", baseline: "sqlite-bytes-per-event",
                   baselineValue: sqlitePerEvent, target: .ratioAtMost(1), count: n),
        ]
    }
}
