@_spi(Tools) import RouteLogCore

// The sessions of a store (`sessions`, and in `meta` the session entry counter): creating,
// numbering, listing and removing them, for every part of the log.

extension StoreContext {
    /// Creates a session with a given creation time and, with `events`, its events, all in one
    /// transaction: the session appears with all its events or not at all. `also` writes more in
    /// that transaction, given the session's key prefix. Returns the new session's id.
    func createSession(_ new: NewSession, createdAt: Int64, events: [RecordedEvent] = [],
                       also: ((LMDBWriteTransaction, [UInt8]) throws -> Void)? = nil) throws -> SessionID {
        let writer = try requireWriter()
        let (info, key) = try claimNewSession(new, createdAt: createdAt)
        let id = info.id
        let bodies = StoredPayload.Bodies(events)
        try writer.perform(weight: max(1, events.count)) { [self] txn, heads in
            let row = try numberedRow(txn, info)
            try txn.put(row.encode(), forKey: key, in: databases.sessions, options: .noOverwrite)
            try also?(txn, row.eventPrefix)
            var head = SessionHead(emptySession: row)
            if !events.isEmpty { _ = try appendRecords(txn, &head, events, bodies: bodies, id: id, key: key, collect: false) }
            heads[id] = head
        }
        return id
    }

    /// A new session's id, key and info, claimed (its writer lock held) before it exists, so that
    /// retention, here or in another process, never takes it.
    func claimNewSession(_ new: NewSession, createdAt: Int64) throws -> (SessionInfo, key: [UInt8]) {
        var rng = SystemRandomNumberGenerator()
        let id = SessionID.v7(milliseconds: createdAt, random: (rng.next(), rng.next()))
        let key = try sessionKey(id)
        try locks?.hold(id)
        let info = SessionInfo(id: id, label: new.label, appName: new.appName, appVersion: new.appVersion, createdAt: createdAt,
                               enteredAt: options.clock())
        return (info, key)
    }

    /// A new session's row, numbered in `txn`: the entry counter orders sessions by when they
    /// entered this store (``sessions()``), and is also the session's number in event keys (4
    /// bytes). The write transaction is exclusive, across processes too.
    func numberedRow(_ txn: LMDBWriteTransaction, _ info: SessionInfo) throws -> SessionRow {
        var last: UInt64 = 0
        if let bytes = try txn.value(forKey: StoreKey.entries, in: databases.meta) {
            guard bytes.count == 8 else {
                throw LMDBEventLogError.corruptValue(database: "meta", key: "entries", reason: "expected an 8-byte counter, found \(bytes.count) bytes")
            }
            last = bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard last < UInt64(UInt32.max) else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "entries", reason: "the store has numbered \(last) sessions, the most a store can hold")
        }
        var counter = BinaryWriter()
        counter.writeBigEndian(last + 1)
        try txn.put(counter.bytes, forKey: StoreKey.entries, in: databases.meta)
        var row = SessionRow(info: info, headHash: .zero)
        row.info.entryOrder = last + 1
        return row
    }

    /// Every stored session, in entry order.
    func sessions() throws -> [SessionInfo] {
        try withRead("listing sessions in \(path)") { txn in try sessions(txn) }
    }

    /// One stored session. Throws `EventLogError.sessionNotFound`.
    func session(_ id: SessionID) throws -> SessionInfo {
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        guard let info = try withRead("reading session \(id)", { txn in
            try readRow(txn, id, key).map { row in
                var info = row.info
                info.imported = try isImported(txn, info)
                return info
            }
        }) else {
            throw EventLogError.sessionNotFound(id)
        }
        return info
    }

    /// The hash of a session's last record (zero when it has none): the head of its chain.
    func headHash(of id: SessionID) throws -> Digest {
        guard let key = StoreKey.sessionBytes(id),
              let row = try withRead("reading session \(id)", { try readRow($0, id, key) }) else {
            throw EventLogError.sessionNotFound(id)
        }
        return row.headHash
    }

    /// The session's event count in the store (`nil` when it has no row or cannot be read).
    func storedCount(_ id: SessionID) -> UInt64? {
        guard let key = StoreKey.sessionBytes(id) else { return nil }
        return try? withRead("reading session \(id)") { try readRow($0, id, key)?.info.eventCount }
    }

    /// Every session's info, in entry order, read in `txn`.
    func sessions(_ txn: LMDBReadTransaction) throws -> [SessionInfo] {
        var out: [SessionInfo] = []
        try txn.forEach(in: databases.sessions) { key, value in
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

    /// Whether the session entered the store by import (see ``ImportMark``).
    func isImported(_ txn: LMDBReadTransaction, _ info: SessionInfo) throws -> Bool {
        try txn.value(forKey: ImportMark.key(StoreKey.eventPrefix(info)), in: databases.meta) != nil
    }

    /// Removes a session's row (under `key`), its records, runs, screen records and import mark
    /// inside `txn`.
    func removeSession(_ txn: LMDBWriteTransaction, _ key: [UInt8], _ info: SessionInfo) throws {
        let prefix = StoreKey.eventPrefix(info)
        try removeRuns(prefix: prefix, txn)
        try SessionScreens.remove(prefix: prefix, txn, in: databases.meta)
        try removeRecords(txn, prefix: prefix)
        _ = try txn.delete(forKey: ImportMark.key(prefix), in: databases.meta)
        try txn.delete(forKey: key, in: databases.sessions)
    }

    /// Removes the events, snapshots and call sites of the session numbered `prefix` inside `txn`.
    func removeRecords(_ txn: LMDBWriteTransaction, prefix: [UInt8]) throws {
        try txn.deleteAll(withPrefix: prefix, in: databases.events)
        try txn.deleteAll(withPrefix: prefix, in: databases.snapshots)
        try txn.deleteAll(withPrefix: prefix, in: databases.sites)
    }
}
