import Foundation
import RouteLogCore

/// A run's stored row: in the `meta` database under `run` + the session's number (4 bytes) + the
/// run's number (4 bytes, big-endian), so a session's runs sort together, oldest first. Runs are
/// metadata beside the event chain: they change no record, checksum, digest or replay.
struct RunRow: Equatable {
    var firstSeq: UInt64
    var startedAt: Int64
    var appVersion: String?
    var build: String?
    var end: RunEnd

    static let keyPrefix: [UInt8] = Array("run".utf8)

    static func prefix(_ sessionPrefix: [UInt8]) -> [UInt8] { keyPrefix + sessionPrefix }
    static func key(_ sessionPrefix: [UInt8], _ number: UInt32) -> [UInt8] { keyPrefix + sessionPrefix + StoreKey.number(number) }

    func encode() -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.writeBigEndian(firstSeq)
        w.writeBigEndian(startedAt)
        w.writeOptionalString(appVersion)
        w.writeOptionalString(build)
        switch end {
        case .open: w.writeByte(0)
        case .clean: w.writeByte(1)
        case .crashed(let n, let last):
            w.writeByte(2)
            w.writeBigEndian(n)
            w.writeBigEndian(last)
        case .unknown: w.writeByte(3)
        case .suspended: w.writeByte(4)
        }
        w.seal()
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> RunRow {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("run row")
        let first = try r.readBigEndian(UInt64.self)
        let started = try r.readBigEndian(Int64.self)
        let version = try r.readOptionalString("app version")
        let build = try r.readOptionalString("build")
        let at = r.offset
        let end: RunEnd
        switch try r.readByte() {
        case 0: end = .open
        case 1: end = .clean
        case 2: end = .crashed(recovered: try r.readBigEndian(UInt64.self), lastSeq: try r.readBigEndian(UInt64.self))
        case 3: end = .unknown
        case 4: end = .suspended
        case let t: throw r.error("run end \(t) is not 0...4", at: at)
        }
        try r.expectEnd()
        return RunRow(firstSeq: first, startedAt: started, appVersion: version, build: build, end: end)
    }
}

/// The `meta` key that marks a session as imported (`imp` + the session's number).
enum ImportMark {
    static func key(_ sessionPrefix: [UInt8]) -> [UInt8] { Array("imp".utf8) + sessionPrefix }
}

extension LMDBEventLog: JournalingEventLog {
    /// The folder of the store's journals.
    public var journalDirectory: String { (path as NSString).appendingPathComponent("journal") }

    /// Starts a run of `id` (see ``RunInfo``) and opens its journal: a navigator on this log calls
    /// it when it opens, so that each of its calls survives the death of the process.
    ///
    /// How the session's previous run ended is never guessed here: the journal of a writer that
    /// is gone is recovered first (its state says crashed, suspended or exited); a previous run
    /// still `open` after that, with no live writer and no journal, ends `unknown`. A session from
    /// before runs were recorded gets a first run of unknown end for its events.
    public func beginRun(of id: SessionID, head: UInt64, _ start: RunStart) throws -> any EventJournal {
        let writer = try requireWriter()
        let key = try sessionKey(id)
        let liveWriter = recoverJournals(only: id).skippedLive > 0
        try locks?.hold(id)
        var number: UInt32 = 0
        let startedAt = options.clock()
        try writer.perform(weight: 1) { [self] txn, _ in
            guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            let prefix = row.eventPrefix
            var runs = try readRuns(txn, prefix, id)
            if runs.isEmpty && row.info.eventCount > 0 {
                let old = RunRow(firstSeq: 1, startedAt: row.info.createdAt, appVersion: row.info.appVersion, build: nil, end: .unknown)
                try txn.put(old.encode(), forKey: RunRow.key(prefix, 1), in: metaDB)
                runs.append((1, old))
            } else if var last = runs.last, last.1.end == .open, !liveWriter {
                last.1.end = .unknown
                try txn.put(last.1.encode(), forKey: RunRow.key(prefix, last.0), in: metaDB)
            }
            number = (runs.last?.0 ?? 0) + 1
            let new = RunRow(firstSeq: row.info.eventCount + 1, startedAt: startedAt, appVersion: start.appVersion, build: start.build, end: .open)
            try txn.put(new.encode(), forKey: RunRow.key(prefix, number), in: metaDB)
            return {}
        }
        let run = number
        let journal = try Journal(directory: journalDirectory, session: id, run: run, head: head) { [weak self] allCommitted, wasActive in
            if allCommitted { self?.endRun(of: id, run: run, .clean) }
            if wasActive {
                // The session is no longer being written: another window may restore it.
                self?.finishWriting(id)
                self?.environment.navigatorStopped()
            }
        }
        environment.navigatorStarted()
        return journal
    }

    /// Sets run `run` of `id` to `end` if the store still shows it running (`open` or
    /// `suspended`); a failure is left for the next open's recovery to settle.
    func endRun(of id: SessionID, run: UInt32, _ end: RunEnd) {
        try? updateRow(of: id) { [self] txn, prefix in
            try setRunEnd(txn, prefix: prefix, run: run, to: end, onlyIfRunning: true)
        }
    }

    /// Writes `end` as the end of run `run` (under the session's key prefix `prefix`) in `txn`;
    /// with `onlyIfRunning`, only over `open` or `suspended`. Nothing when the run has no row or
    /// already ended so.
    func setRunEnd(_ txn: LMDBWriteTransaction, prefix: [UInt8], run: UInt32, to end: RunEnd, onlyIfRunning: Bool) throws {
        let key = RunRow.key(prefix, run)
        guard let bytes = try txn.value(forKey: key, in: metaDB) else { return }
        var row = try bytes.withUnsafeBytes { raw in try RunRow.decode(raw) }
        guard row.end != end, !onlyIfRunning || row.end == .open || row.end == .suspended else { return }
        row.end = end
        try txn.put(row.encode(), forKey: key, in: metaDB)
    }

    /// Runs `body` in a write transaction with the key prefix of session `id`'s records.
    func updateRow(of id: SessionID, _ body: @escaping (LMDBWriteTransaction, [UInt8]) throws -> Void) throws {
        let writer = try requireWriter()
        let key = try sessionKey(id)
        try writer.perform(weight: 1) { [self] txn, _ in
            guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            do { try body(txn, row.eventPrefix) } catch let error as LMDBError { throw error } catch { throw Writer.Abort(error: error) }
            return {}
        }
    }

    public func isBeingWritten(_ id: SessionID) -> Bool {
        locks?.isHeld(id) ?? SessionLocks(storePath: path).isHeld(id)
    }

    /// The navigator of `id` suspends (its journal is suspended and holds everything the log does
    /// not): the session's writer lock goes, and when no navigator of this store is active in the
    /// process any more, the LMDB environment is released, with its files and their locks.
    public func suspendWriting(_ id: SessionID) {
        finishWriting(id)
        if environment.navigatorStopped() { environment.release() }
    }

    /// The navigator of `id` resumes run `run`: it holds the session's writer lock again, and a
    /// run that a recovery in another process ended while it was suspended is open again. The
    /// environment opens again with this transaction.
    public func resumeWriting(_ id: SessionID, run: Int) throws {
        environment.navigatorStarted()
        try locks?.hold(id)
        try updateRow(of: id) { [self] txn, prefix in
            try setRunEnd(txn, prefix: prefix, run: UInt32(run), to: .open, onlyIfRunning: false)
        }
    }

    /// The runs of a session, oldest first. A reader of a store whose app crashed sees the crashed
    /// run's end before the next read-write open recovers it.
    public func runs(of id: SessionID) throws -> [RunInfo] {
        let key = try sessionKey(id)
        let rows: [(UInt32, RunRow)] = try withRead("reading the runs of session \(id)") { txn in
            guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            return try readRuns(txn, row.eventPrefix, id)
        }
        var out = rows.map { n, r in
            RunInfo(number: Int(n), firstSeq: r.firstSeq, startedAt: r.startedAt, appVersion: r.appVersion, build: r.build, end: r.end)
        }
        if let pending = overlay?.sessions[id], let last = pending.events.last,
           let i = out.firstIndex(where: { $0.number == Int(pending.run) }) {
            out[i].end = .crashed(recovered: UInt64(pending.events.count), lastSeq: last.seq)
        }
        return out
    }

    func readRuns(_ txn: LMDBReadTransaction, _ sessionPrefix: [UInt8], _ id: SessionID) throws -> [(UInt32, RunRow)] {
        let prefix = RunRow.prefix(sessionPrefix)
        var out: [(UInt32, RunRow)] = []
        try txn.forEach(in: metaDB, from: prefix) { k, v in
            guard k.count == prefix.count + 4, k.starts(with: prefix) else { return false }
            let n = k[prefix.count...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            do { out.append((n, try RunRow.decode(v))) } catch {
                throw LMDBEventLogError.corruptValue(database: "meta", key: "run \(n) of \(id)", reason: "\(error)")
            }
            return true
        }
        return out
    }

    /// Whether the session entered the store by import.
    func isImported(_ txn: LMDBReadTransaction, _ info: SessionInfo) throws -> Bool {
        try txn.value(forKey: ImportMark.key(StoreKey.eventPrefix(info)), in: metaDB) != nil
    }

    /// Removes a session's runs and import mark (with the session, in `txn`).
    func removeRunsAndMarks(_ txn: LMDBWriteTransaction, _ info: SessionInfo) throws {
        let prefix = StoreKey.eventPrefix(info)
        try txn.deleteAll(withPrefix: RunRow.prefix(prefix), in: metaDB)
        _ = try txn.delete(forKey: ImportMark.key(prefix), in: metaDB)
    }
}
