@_spi(Tools) import RouteLogCore

/// The runs of the store's sessions: one ``RunRow`` per run in `meta` (see ``RunInfo``), opened
/// when a navigator begins writing a session and ended when it closes, suspends or resumes, or
/// when a recovery finds how its writer ended.
struct SessionRuns {
    let context: StoreContext

    /// Writes the row of a new run of `id`, starting after the session's stored events, and
    /// returns its number. The previous run, if still `open`, ends `unknown` unless
    /// `previousIsLive` (its writer is alive); a session from before runs were recorded gets a
    /// first run of unknown end for its events.
    func open(of id: SessionID, startedAt: Int64, _ start: RunStart, previousIsLive: Bool) throws -> UInt32 {
        let writer = try context.requireWriter()
        let key = try context.sessionKey(id)
        let meta = context.databases.meta
        var number: UInt32 = 0
        try writer.perform(weight: 1) { [context] txn, _ in
            guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            let prefix = row.eventPrefix
            var runs = try Self.read(txn, prefix, id, in: meta)
            if runs.isEmpty && row.info.eventCount > 0 {
                let old = RunRow(firstSeq: 1, startedAt: row.info.createdAt, appVersion: row.info.appVersion, build: nil, end: .unknown)
                try txn.put(old.encode(), forKey: RunRow.key(prefix, 1), in: meta)
                runs.append((1, old))
            } else if var last = runs.last, last.1.end == .open, !previousIsLive {
                last.1.end = .unknown
                try txn.put(last.1.encode(), forKey: RunRow.key(prefix, last.0), in: meta)
            }
            number = (runs.last?.0 ?? 0) + 1
            let new = RunRow(firstSeq: row.info.eventCount + 1, startedAt: startedAt, appVersion: start.appVersion, build: start.build, end: .open)
            try txn.put(new.encode(), forKey: RunRow.key(prefix, number), in: meta)
            return {}
        }
        return number
    }

    /// Sets run `run` of `id` to `end` if the store still shows it running (`open` or
    /// `suspended`); a failure is left for the next open's recovery to settle.
    func end(of id: SessionID, run: UInt32, _ end: RunEnd) {
        try? updateRow(of: id) { [self] txn, prefix in
            try setEnd(txn, prefix: prefix, run: run, to: end, onlyIfRunning: true)
        }
    }

    /// Writes `end` as the end of run `run` (under the session's key prefix `prefix`) in `txn`;
    /// with `onlyIfRunning`, only over `open` or `suspended`. Nothing when the run has no row or
    /// already ended so.
    func setEnd(_ txn: LMDBWriteTransaction, prefix: [UInt8], run: UInt32, to end: RunEnd, onlyIfRunning: Bool) throws {
        let key = RunRow.key(prefix, run)
        guard let bytes = try txn.value(forKey: key, in: context.databases.meta) else { return }
        var row = try bytes.withUnsafeBytes { raw in try RunRow.decode(raw) }
        guard row.end != end, !onlyIfRunning || row.end == .open || row.end == .suspended else { return }
        row.end = end
        try txn.put(row.encode(), forKey: key, in: context.databases.meta)
    }

    /// Runs `body` in a write transaction with the key prefix of session `id`'s records.
    func updateRow(of id: SessionID, _ body: @escaping (LMDBWriteTransaction, [UInt8]) throws -> Void) throws {
        let writer = try context.requireWriter()
        let key = try context.sessionKey(id)
        try writer.perform(weight: 1) { [context] txn, _ in
            guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            do { try body(txn, row.eventPrefix) } catch let error as LMDBError { throw error } catch { throw Writer.Abort(error: error) }
            return {}
        }
    }

    /// The navigator of `id` suspends: the session's writer lock goes, and when no navigator of
    /// this store is active in the process any more, the LMDB environment is released.
    func suspendWriting(_ id: SessionID) {
        context.locks?.release(id)
        if context.environment.navigatorStopped() { context.environment.release() }
    }

    /// The navigator of `id` resumes run `run`: it holds the session's writer lock again, and the
    /// run is open again.
    func resumeWriting(_ id: SessionID, run: Int) throws {
        context.environment.navigatorStarted()
        try context.locks?.hold(id)
        try updateRow(of: id) { [self] txn, prefix in
            try setEnd(txn, prefix: prefix, run: UInt32(run), to: .open, onlyIfRunning: false)
        }
    }

    /// The stored runs of a session, oldest first.
    func runs(of id: SessionID) throws -> [RunInfo] {
        let key = try context.sessionKey(id)
        let meta = context.databases.meta
        let rows: [(UInt32, RunRow)] = try context.withRead("reading the runs of session \(id)") { txn in
            guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            return try Self.read(txn, row.eventPrefix, id, in: meta)
        }
        return rows.map { n, r in
            RunInfo(number: Int(n), firstSeq: r.firstSeq, startedAt: r.startedAt, appVersion: r.appVersion, build: r.build, end: r.end)
        }
    }

    /// Writes `runs` as the runs of the session numbered `prefix` in `txn` (a moved session's).
    func write(_ runs: [RunInfo], prefix: [UInt8], _ txn: LMDBWriteTransaction) throws {
        for run in runs {
            let row = RunRow(firstSeq: run.firstSeq, startedAt: run.startedAt, appVersion: run.appVersion, build: run.build, end: run.end)
            try txn.put(row.encode(), forKey: RunRow.key(prefix, UInt32(run.number)), in: context.databases.meta)
        }
    }

    /// Removes the runs of the session numbered `prefix` (with the session, in `txn`).
    func remove(prefix: [UInt8], _ txn: LMDBWriteTransaction) throws {
        try txn.deleteAll(withPrefix: RunRow.prefix(prefix), in: context.databases.meta)
    }

    /// The run rows of the session numbered `sessionPrefix`, by number, oldest first.
    private static func read(_ txn: LMDBReadTransaction, _ sessionPrefix: [UInt8], _ id: SessionID,
                             in meta: LMDBDatabase) throws -> [(UInt32, RunRow)] {
        let prefix = RunRow.prefix(sessionPrefix)
        var out: [(UInt32, RunRow)] = []
        try txn.forEach(in: meta, from: prefix) { k, v in
            guard k.count == prefix.count + 4, k.starts(with: prefix) else { return false }
            let n = k[prefix.count...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            do { out.append((n, try RunRow.decode(v))) } catch {
                throw LMDBEventLogError.corruptValue(database: "meta", key: "run \(n) of \(id)", reason: "\(error)")
            }
            return true
        }
        return out
    }
}
