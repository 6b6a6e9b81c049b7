import RouteLogCore

/// The `meta` key that marks a session being imported (`part` + the session's number; the value is
/// the session id's 16 bytes). An import writes its records in several transactions and the
/// session's row in the last one, which also removes this mark: until then no reader sees the
/// session. A mark whose import died (killed, or out of space) is found at the store's next
/// read-write open, and its records are removed.
enum PartialImport {
    static let keyPrefix: [UInt8] = Array("part".utf8)
    static func key(_ sessionPrefix: [UInt8]) -> [UInt8] { keyPrefix + sessionPrefix }
}

extension LMDBEventLog {
    /// How many events an import writes in one transaction. LMDB keeps a transaction's dirty pages
    /// in memory (up to 512 MiB before it spills them), so one transaction for a 10M-event session
    /// would hold about 600 MB; 32,768 events are about 2 MB of pages (and the events themselves, held
    /// so that the transaction can be run again when the map grows, a few MB more).
    static let importTransactionEvents = 32_768

    /// The head of a session being imported, handed from the writer thread back to the importer.
    private final class ImportHead {
        var head: Head?
    }

    /// Creates an imported session whose events `events` hands to `write` in batches, in order.
    /// They are written in transactions of about `transactionEvents` events, and the session's row
    /// in the last one: the session appears with all its events or not at all. When `events`
    /// throws, or a write fails, what was written is removed (or, if that fails too, at the
    /// store's next read-write open) and the error is rethrown.
    func importSession(_ new: NewSession, createdAt: Int64, transactionEvents: Int = importTransactionEvents,
                       events: (_ write: ([RecordedEvent]) throws -> Void) throws -> Void) throws -> SessionInfo {
        precondition(transactionEvents >= 1)
        let writer = try requireWriter()
        let (info, key) = try claimNewSession(new, createdAt: createdAt)
        let id = info.id
        let handoff = ImportHead()
        do {
            try writer.perform(weight: 1) { [self] txn, _ in
                let row = try numberedRow(txn, info)
                try txn.put(key, forKey: PartialImport.key(row.eventPrefix), in: metaDB, options: .noOverwrite)
                let head = Head(emptySession: row)
                return { handoff.head = head }
            }
        } catch {
            locks?.release(id)
            throw error
        }
        var head = handoff.head!
        let prefix = head.row.eventPrefix
        /// Writes `batch` after `head` in one transaction; `last` also writes the row and marks.
        func commit(_ batch: [RecordedEvent], last: Bool) throws {
            let start = head
            // Encoded here, not while the transaction holds the store's writer lock.
            let bodies = batch.map { StoredPayload.eventBody($0.event) }
            try writer.perform(weight: max(1, batch.count)) { [self] txn, scratch in
                var next = start
                // Removed only by a log that took the session's lock, which this log held (unless
                // it was let go): then nothing more is written. Past this check, which writes
                // nothing, only LMDB errors throw (and abort the transaction).
                guard try txn.value(forKey: PartialImport.key(prefix), in: metaDB) != nil else {
                    throw LMDBEventLogError.corruptValue(database: "meta", key: "part",
                                                         reason: "the import of \(id) was removed while it ran")
                }
                if !batch.isEmpty {
                    _ = try appendRecords(txn, &next, batch, bodies: bodies, id: id, key: key, writeRow: false, collect: false)
                }
                if last {
                    try txn.delete(forKey: PartialImport.key(prefix), in: metaDB)
                    try txn.put(next.row.encode(), forKey: key, in: sessionsDB, options: .noOverwrite)
                    try txn.put([1], forKey: ImportMark.key(prefix), in: metaDB)
                    scratch[id] = next
                }
                let committed = next
                return { [self] in
                    handoff.head = committed
                    if last { rememberHead(committed, for: id) }
                }
            }
            head = handoff.head!
        }
        do {
            var pending: [RecordedEvent] = []
            try events { batch in
                pending += batch
                guard pending.count >= transactionEvents else { return }
                try commit(pending, last: false)
                pending.removeAll(keepingCapacity: true)
            }
            try commit(pending, last: true)
        } catch {
            try? removePartialImport(prefix: prefix, id: id)
            locks?.release(id)
            throw error
        }
        try applyRetention()
        return try session(id)
    }

    /// Removes the records of the import of `id`, numbered `prefix`, and its mark, in one
    /// transaction; does nothing when the mark is gone (the import ended, or was removed).
    func removePartialImport(prefix: [UInt8], id: SessionID) throws {
        try requireWriter().perform(weight: 1) { [self] txn, _ in
            guard let marked = try txn.value(forKey: PartialImport.key(prefix), in: metaDB),
                  marked == StoreKey.sessionBytes(id) else { return {} }
            try removeRecords(txn, prefix: prefix)
            try txn.delete(forKey: PartialImport.key(prefix), in: metaDB)
            return {}
        }
    }

    /// Removes what imports that died midway wrote. An import still running (in any process)
    /// holds its session's writer lock, and is left alone. Returns how many were removed.
    @discardableResult
    func removeAbandonedImports() throws -> Int {
        guard let locks else { return 0 }
        let marks: [(prefix: [UInt8], id: SessionID)] = try withRead("reading the imports of \(path)") { txn in
            var found: [([UInt8], SessionID)] = []
            try txn.forEach(in: metaDB, from: PartialImport.keyPrefix) { k, v in
                guard k.starts(with: PartialImport.keyPrefix) else { return false }
                if v.count == 16 { found.append((Array(k.dropFirst(PartialImport.keyPrefix.count)), StoreKey.sessionID(v))) }
                return true
            }
            return found
        }
        var removed = 0
        for (prefix, id) in marks {
            guard let fd = try locks.tryExclusive(id) else { continue }
            defer { locks.unlinkAndClose(fd, id: id) }
            try removePartialImport(prefix: prefix, id: id)
            removed += 1
        }
        return removed
    }
}
