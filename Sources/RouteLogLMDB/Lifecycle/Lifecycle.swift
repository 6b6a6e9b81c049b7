import Foundation
import RouteLogCore

extension LMDBEventLog {
    /// Which sessions a store keeps: any combination of a session count, an age and a byte
    /// budget. Sessions go oldest first (in the order they entered the store), each in one write
    /// transaction with its events and snapshots, and never one that is being written (see
    /// ``LMDBEventLog/finishWriting(_:)``).
    ///
    /// A policy is applied when a read-write log opens the store and after each session it
    /// creates. ``app`` is the default of ``Options``; the `routelog` CLI uses ``none``.
    public struct Retention: Hashable, Sendable {
        /// Keep at most this many sessions.
        public var maxSessions: Int?
        /// Drop sessions whose last event (or, without events, whose entry into the store) is
        /// older than this, by the log's clock.
        public var maxAge: Duration?
        /// Keep the store's live data (the pages its databases use) under this many bytes.
        public var maxBytes: Int?

        public init(maxSessions: Int? = nil, maxAge: Duration? = nil, maxBytes: Int? = nil) {
            self.maxSessions = maxSessions
            self.maxAge = maxAge
            self.maxBytes = maxBytes
        }

        /// Keep everything.
        public static let none = Retention()
        /// The default for an app: the 50 newest sessions, none older than 30 days.
        public static let app = Retention(maxSessions: 50, maxAge: .seconds(30 * 24 * 3600))

        /// Whether the policy can delete anything.
        public var isNone: Bool { maxSessions == nil && maxAge == nil && maxBytes == nil }
    }

    // MARK: Deleting

    /// Deletes a session: its events, snapshots and row go in one write transaction, so a reader
    /// sees the whole session or none of it, and a crash leaves it whole or gone.
    ///
    /// If this log is writing the session, it stops (as ``finishWriting(_:)``) and the session
    /// is deleted.
    ///
    /// - Throws: `EventLogError.sessionNotFound`; ``LMDBEventLogError/sessionInUse(_:)`` when
    ///   another log or process is writing it (nothing is deleted); ``LMDBEventLogError``.
    public func deleteSession(_ id: SessionID) throws {
        try deleteSessions([id])
    }

    /// Deletes several sessions in one write transaction: all of them, or (when one is unknown or
    /// being written elsewhere) none.
    public func deleteSessions(_ ids: [SessionID]) throws {
        let writer = try requireWriter()
        guard let locks else { throw LMDBEventLogError.readOnly(path: path) }
        var keys: [[UInt8]] = []
        for id in ids {
            guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
            keys.append(key)
        }
        var exclusive: [(SessionID, Int32)] = []
        defer { for (id, fd) in exclusive { locks.unlinkAndClose(fd, id: id) } }
        for id in ids where !exclusive.contains(where: { $0.0 == id }) {
            locks.release(id)
            guard let fd = try locks.tryExclusive(id) else { throw LMDBEventLogError.sessionInUse(id) }
            exclusive.append((id, fd))
        }
        try writer.perform(weight: max(1, ids.count)) { [self] txn, scratch in
            var rows: [SessionRow] = []
            for (id, key) in zip(ids, keys) {
                guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                rows.append(row)
            }
            for (row, key) in zip(rows, keys) {
                try removeSession(txn, key, row.info)
                scratch[row.info.id] = nil
            }
            return { [self] in for id in ids { forgetHead(id) } }
        }
    }

    /// Removes a session's row (under `key`), events and snapshots inside `txn`.
    func removeSession(_ txn: LMDBWriteTransaction, _ key: [UInt8], _ info: SessionInfo) throws {
        try removeRecords(txn, prefix: StoreKey.eventPrefix(info))
        try removeRunsAndMarks(txn, info)
        try txn.delete(forKey: key, in: sessionsDB)
    }

    /// Removes the events, snapshots and call sites of the session numbered `prefix` inside `txn`.
    func removeRecords(_ txn: LMDBWriteTransaction, prefix: [UInt8]) throws {
        try txn.deleteAll(withPrefix: prefix, in: eventsDB)
        try txn.deleteAll(withPrefix: prefix, in: snapshotsDB)
        try txn.deleteAll(withPrefix: prefix, in: sitesDB)
    }

    /// Ends this log's claim on a session it created or appended to: from now on retention (and
    /// other logs' ``deleteSession(_:)``) may delete it. A later append claims it again. Closing
    /// the log, or the process ending in any way, ends every claim.
    public func finishWriting(_ id: SessionID) {
        locks?.release(id)
    }

    // MARK: Retention

    /// The bytes of the pages the store's databases use (branch, leaf and overflow pages of the
    /// five databases and of LMDB's main database), as seen by `txn`.
    func liveBytes(_ txn: LMDBReadTransaction) throws -> Int {
        var pages = 0
        var pageSize = 4096
        for db in [metaDB, sessionsDB, eventsDB, snapshotsDB, sitesDB] {
            let st = try txn.statistics(of: db)
            pages += st.branchPages + st.leafPages + st.overflowPages
            pageSize = st.pageSize
        }
        let main = try txn.statistics(of: try environment.database(named: nil))
        pages += main.branchPages + main.leafPages + main.overflowPages
        return pages * pageSize
    }

    /// Applies ``Options/retention`` now; returns the sessions it deleted. Sessions being written
    /// (by this log or any other, in any process) are skipped.
    @discardableResult
    public func applyRetention() throws -> [SessionInfo] {
        try applyRetention(options.retention)
    }

    /// Applies `policy` now (see ``Retention``), or with `dryRun` only says what it would delete.
    @discardableResult
    public func applyRetention(_ policy: Retention, dryRun: Bool = false) throws -> [SessionInfo] {
        guard !policy.isNone else { return [] }
        if dryRun {
            // Skips what a real run would skip: sessions a writer holds now.
            let locks = self.locks
            return try withRead("listing sessions in \(path)") { txn in
                try retentionVictims(policy, txn: txn, deletable: { id in
                    guard let locks else { return true }
                    if locks.holds(id) { return false }
                    guard let fd = try locks.tryExclusive(id) else { return false }
                    locks.unlinkAndClose(fd, id: id)
                    return true
                }, delete: nil)
            }
        }
        let writer = try requireWriter()
        guard let locks else { throw LMDBEventLogError.readOnly(path: path) }
        // Most calls find nothing to delete: a read transaction says so without a commit.
        guard try !applyRetention(policy, dryRun: true).isEmpty else { return [] }
        var exclusive: [SessionID: Int32] = [:]
        defer { for (id, fd) in exclusive { locks.unlinkAndClose(fd, id: id) } }
        var deleted: [SessionInfo] = []
        try writer.perform(weight: 1) { [self] txn, scratch in
            let victims = try retentionVictims(policy, txn: txn, deletable: { id in
                if locks.holds(id) { return false }
                if exclusive[id] != nil { return true }
                guard let fd = try locks.tryExclusive(id) else { return false }
                exclusive[id] = fd
                return true
            }, delete: { [self] info in
                try removeSession(txn, StoreKey.sessionBytes(info.id)!, info)
            })
            for v in victims { scratch[v.id] = nil }
            deleted = victims
            return { [self] in for v in victims { forgetHead(v.id) } }
        }
        return deleted
    }

    /// The sessions `policy` removes, oldest first; each is passed to `delete` (inside the write
    /// transaction) when one is given, so the byte budget sees the pages it freed.
    private func retentionVictims(_ policy: Retention, txn: LMDBReadTransaction, deletable: (SessionID) throws -> Bool,
                                  delete: ((SessionInfo) throws -> Void)?) throws -> [SessionInfo] {
        let all = try sessions(txn)
        var remaining = all.count
        var victims: [SessionInfo] = []
        let cutoff: Int64? = policy.maxAge.map { age in
            let (s, atto) = age.components
            return options.clock() - (s * 1000 + atto / 1_000_000_000_000_000)
        }
        var bytes = policy.maxBytes == nil ? 0 : try liveBytes(txn)
        // Without deleting, the bytes a session frees are estimated from its share of events.
        let totalEvents = max(1, all.reduce(UInt64(0)) { $0 + $1.eventCount })
        let startBytes = bytes
        for info in all {
            let tooMany = policy.maxSessions.map { remaining > $0 } ?? false
            // Its age: by its last event; by when it entered the store only if no event has a time
            // (an entry time comes from the importing machine's clock, which may run ahead).
            let lastActive = info.lastEventAt.flatMap { $0 == 0 ? nil : $0 } ?? info.enteredAt ?? info.createdAt
            let tooOld = cutoff.map { lastActive < $0 } ?? false
            let tooBig = policy.maxBytes.map { bytes > $0 } ?? false
            guard tooMany || tooOld || tooBig else {
                // Later sessions are newer; only the age rule can still match one of them.
                if cutoff == nil { break }
                continue
            }
            guard try deletable(info.id) else { continue }
            victims.append(info)
            remaining -= 1
            if let delete {
                try delete(info)
                if policy.maxBytes != nil { bytes = try liveBytes(txn) }
            } else {
                bytes -= Int(Double(startBytes) * Double(info.eventCount) / Double(totalEvents))
            }
        }
        return victims
    }

    /// Every session's info, in entry order, read in `txn`.
    func sessions(_ txn: LMDBReadTransaction) throws -> [SessionInfo] {
        var out: [SessionInfo] = []
        try txn.forEach(in: sessionsDB) { key, value in
            let hex = key.map { String($0, radix: 16) }.joined()
            guard key.count == 16 else {
                throw LMDBEventLogError.corruptValue(database: "sessions", key: hex, reason: "a session key has \(key.count) bytes, expected 16")
            }
            let id = StoreKey.sessionID(key)
            do { out.append(try SessionRow.decode(value, id: id).info) } catch {
                throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "\(error)")
            }
            return true
        }
        // In the order the sessions entered the store; rows from before the counter (entry
        // order 0) first, by their time-ordered ids as before.
        for i in out.indices { out[i].imported = try isImported(txn, out[i]) }
        return out.enumerated().sorted { a, b in
            a.element.entryOrder != b.element.entryOrder ? a.element.entryOrder < b.element.entryOrder : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: Statistics and copies

    /// Counts and sizes of a store.
    public struct Statistics: Hashable, Sendable {
        public var sessions: Int
        public var events: UInt64
        /// The size of `data.mdb`.
        public var fileBytes: Int
        /// The bytes of the pages the databases use (see ``Retention/maxBytes``).
        public var liveBytes: Int
        /// Pages on LMDB's free list, reused by later writes.
        public var freePages: Int
        public var pageSize: Int
        public var mapSize: Int
        /// The first and last session in entry order.
        public var oldest: SessionInfo?
        public var newest: SessionInfo?

        /// `data.mdb`'s bytes per stored event (0 without events).
        public var bytesPerEvent: Double { events == 0 ? 0 : Double(fileBytes) / Double(events) }
    }

    /// The store's counts and sizes, from one read transaction.
    public func statistics() throws -> Statistics {
        let space = try withRead("reading the statistics of \(path)") { _ in try environment.spaceInfo() }
        return try withRead("reading the statistics of \(path)") { txn in
            let all = try sessions(txn)
            let attributes = try? FileManager.default.attributesOfItem(atPath: (path as NSString).appendingPathComponent("data.mdb"))
            let file = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            return Statistics(sessions: all.count, events: all.reduce(0) { $0 + $1.eventCount }, fileBytes: file,
                              liveBytes: try liveBytes(txn), freePages: space.freePages, pageSize: space.pageSize,
                              mapSize: space.mapSize, oldest: all.first, newest: all.last)
        }
    }

    /// Writes a compacted copy of the store into `directory` (created if missing; it must be
    /// empty): `mdb_env_copy2` with `MDB_CP_COMPACT`, which reads in one read transaction, so an
    /// app may keep writing meanwhile; the copy holds what was committed when it began.
    ///
    /// The copy is written into a temporary directory beside `directory` (`.NAME.compact-PID`),
    /// given the store's file modes, and renamed into place once complete, so a failure (a full
    /// disk) or a kill never leaves a half-written store at `directory`; a failed copy's temporary
    /// directory is removed, and one left by a killed copy is removed by the next.
    public func compactCopy(to directory: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        let exists = fm.fileExists(atPath: directory, isDirectory: &isDir)
        if exists {
            guard isDir.boolValue else { throw LMDBEventLogError.notADirectory(path: directory) }
            let entries = (try? fm.contentsOfDirectory(atPath: directory)) ?? []
            guard entries.isEmpty else {
                throw LMDBEventLogError.notAStore(path: directory, reason: "the copy's directory is not empty")
            }
        }
        let url = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = url.deletingLastPathComponent().path
        let stem = ".\(url.lastPathComponent).compact-"
        // Left by a copy that was killed (its process is gone).
        for name in (try? fm.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(stem) {
            if let pid = Int32(name.dropFirst(stem.count)), pid > 0, kill(pid, 0) != 0, errno == ESRCH {
                try? fm.removeItem(atPath: (parent as NSString).appendingPathComponent(name))
            }
        }
        let temporary = (parent as NSString).appendingPathComponent(stem + String(getpid()))
        try? fm.removeItem(atPath: temporary)
        let modes = Self.fileModes(of: path)
        do {
            try fm.createDirectory(atPath: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: modes.directory])
        } catch {
            throw LMDBEventLogError.permissionDenied(path: directory, reason: "cannot create the directory")
        }
        do {
            do { try environment.copy(to: temporary, compact: true) } catch {
                throw LMDBEventLogError.storage(error.onFileSystem(of: parent), operation: "copying \(path) to \(directory)")
            }
            for name in (try? fm.contentsOfDirectory(atPath: temporary)) ?? [] {
                _ = chmod((temporary as NSString).appendingPathComponent(name), mode_t(modes.file))
            }
            // rename(2) replaces an empty directory.
            guard rename(temporary, url.path) == 0 else {
                throw LMDBEventLogError.permissionDenied(path: directory, reason: "cannot move the copy into place: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? fm.removeItem(atPath: temporary)
            throw error
        }
    }

    /// The permission bits of the store's directory and of its `data.mdb` (0700 and 0600 when unknown).
    static func fileModes(of store: String) -> (directory: Int, file: Int) {
        let fm = FileManager.default
        func mode(_ p: String, _ fallback: Int) -> Int {
            ((try? fm.attributesOfItem(atPath: p))?[.posixPermissions] as? NSNumber)?.intValue ?? fallback
        }
        return (mode(store, 0o700), mode((store as NSString).appendingPathComponent("data.mdb"), 0o600))
    }
}
