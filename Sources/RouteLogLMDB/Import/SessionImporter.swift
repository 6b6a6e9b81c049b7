@_spi(Tools) import RouteLogCore

/// Importing sessions: whole fixtures in one transaction, and fixture files streamed in several.
/// It writes the session's row and records through ``RecordLog`` (`sessions`, `events`,
/// `snapshots`, `sites`) and, in `meta`, the ``ImportMark`` of an imported session and the `part`
/// mark (``PartialImport``) that lets a read-write open remove an import that died; it applies
/// retention (``StoreLifecycle``) after each import.
struct SessionImporter {
    let context: StoreContext
    let records: RecordLog
    let lifecycle: StoreLifecycle

    /// How many events an import writes in one transaction. LMDB keeps a transaction's dirty pages
    /// in memory (up to 512 MiB before it spills them), so one transaction for a 10M-event session
    /// would hold about 600 MB; 32,768 events are about 2 MB of pages (and the events themselves, held
    /// so that the transaction can be run again when the map grows, a few MB more).
    static let importTransactionEvents = 32_768

    /// Creates an imported session with `events`, all in one transaction, and applies retention.
    func createImportedSession(_ new: NewSession, createdAt: Int64, events: [RecordedEvent]) throws -> SessionInfo {
        let meta = context.databases.meta
        let id = try records.createSession(new, createdAt: createdAt, events: events) { txn, prefix in
            try ImportMark.write(txn, prefix, in: meta)
        }
        try lifecycle.applyRetention()
        return try records.session(id)
    }

    /// Creates an imported session whose events `events` hands to `write` in batches, in order.
    /// They are written in transactions of about `transactionEvents` events, and the session's row
    /// in the last one: the session appears with all its events or not at all. When `events`
    /// throws, or a write fails, what was written is removed (or, if that fails too, at the
    /// store's next read-write open) and the error is rethrown.
    func importSession(_ new: NewSession, createdAt: Int64, transactionEvents: Int = importTransactionEvents,
                       events: (_ write: ([RecordedEvent]) throws -> Void) throws -> Void) throws -> SessionInfo {
        precondition(transactionEvents >= 1)
        let session = try ImportingSession(self, new, createdAt: createdAt)
        do {
            var pending: [RecordedEvent] = []
            try events { batch in
                pending += batch
                guard pending.count >= transactionEvents else { return }
                try session.append(pending)
                try session.flush()
                pending.removeAll(keepingCapacity: true)
            }
            try session.append(pending, finishing: true)
            try session.flush()
        } catch {
            session.remove()
            throw error
        }
        try lifecycle.applyRetention()
        return try session.info()
    }

    /// Removes the records of the import of `id`, numbered `prefix`, and its mark, in one
    /// transaction; does nothing when the mark is gone (the import ended, or was removed).
    func removePartialImport(prefix: [UInt8], id: SessionID) throws {
        let meta = context.databases.meta
        try context.requireWriter().perform(weight: 1) { [records] txn, _ in
            guard let marked = try txn.value(forKey: PartialImport.key(prefix), in: meta),
                  marked == StoreKey.sessionBytes(id) else { return {} }
            try records.removeRecords(txn, prefix: prefix)
            try txn.delete(forKey: PartialImport.key(prefix), in: meta)
            // The session's number goes back when no session was numbered after it, so that a
            // store an import left is as it was before.
            if let counter = try txn.value(forKey: StoreKey.entries, in: meta), counter.count == 8 {
                let last = counter.reduce(0) { $0 << 8 | UInt64($1) }
                if last > 0 && StoreKey.number(UInt32(truncatingIfNeeded: last)) == prefix {
                    var previous = BinaryWriter()
                    previous.writeBigEndian(last - 1)
                    try txn.put(previous.bytes, forKey: StoreKey.entries, in: meta)
                }
            }
            return {}
        }
    }

    /// Removes what imports that died midway wrote. An import still running (in any process)
    /// holds its session's writer lock, and is left alone. Returns how many were removed.
    @discardableResult
    func removeAbandonedImports() throws -> Int {
        guard let locks = context.locks else { return 0 }
        let meta = context.databases.meta
        let marks: [(prefix: [UInt8], id: SessionID)] = try context.withRead("reading the imports of \(context.path)") { txn in
            var found: [([UInt8], SessionID)] = []
            try txn.forEach(in: meta, from: PartialImport.keyPrefix) { k, v in
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
