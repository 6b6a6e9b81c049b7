@_spi(Tools) import RouteLogCore

/// Importing sessions: whole fixtures in one transaction, and fixture files streamed in several.
/// It writes the session's row and records (`sessions`, `events`, `snapshots`, `sites`) and, in
/// `meta`, the ``ImportMark`` of an imported session and the `part` mark (``PartialImport``) that
/// lets a read-write open remove an import that died. The log applies retention after each import.
struct SessionImporter {
    let context: StoreContext

    /// How many events an import writes in one transaction. LMDB keeps a transaction's dirty pages
    /// in memory (up to 512 MiB before it spills them), so one transaction for a 10M-event session
    /// would hold about 600 MB; 32,768 events are about 2 MB of pages (and the events themselves, held
    /// so that the transaction can be run again when the map grows, a few MB more).
    static let importTransactionEvents = 32_768

    /// Creates an imported session with `events`, all in one transaction.
    func createImportedSession(_ new: NewSession, createdAt: Int64, events: [RecordedEvent]) throws -> SessionInfo {
        let meta = context.databases.meta
        let id = try context.createSession(new, createdAt: createdAt, events: events) { txn, prefix in
            try ImportMark.write(txn, prefix, in: meta)
        }
        return try context.session(id)
    }

    /// Creates an imported session whose events `events` hands to `write` in batches, in order.
    /// They are written in transactions of about `transactionEvents` events, and the session's row
    /// in the last one: the session appears with all its events or not at all. When `events`
    /// throws, or a write fails, what was written is removed (or, if that fails too, at the
    /// store's next read-write open) and the error is rethrown.
    func importSession(_ new: NewSession, createdAt: Int64, transactionEvents: Int = importTransactionEvents,
                       events: (_ write: ([RecordedEvent]) throws -> Void) throws -> Void) throws -> SessionInfo {
        precondition(transactionEvents >= 1)
        let session = try ImportingSession(context, new, createdAt: createdAt)
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
        return try session.info()
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
            try ImportingSession.removePartial(prefix: prefix, id: id, in: context)
            removed += 1
        }
        return removed
    }
}
