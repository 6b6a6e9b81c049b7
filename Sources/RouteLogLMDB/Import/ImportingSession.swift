@_spi(Tools) import RouteLogCore

/// A session being imported: claimed (its writer lock held), numbered, and marked `part`
/// (``PartialImport``) so that no reader sees it, its events appended in transactions of their
/// own. Readers see it once a transaction writes its row and its ``ImportMark`` and removes the
/// `part` mark (``append(_:finishing:)`` with `finishing`, or ``finish(_:)`` inside a
/// transaction of the caller's); until then ``remove()`` takes it back.
///
/// One transaction at a time is in flight: ``append(_:finishing:)`` hands a batch to the writer
/// thread and returns, so that the caller reads its next batch while this one is written, and
/// waits for it before it hands over the next. Used from one thread.
final class ImportingSession {
    let context: StoreContext
    let id: SessionID
    /// The session's key in `sessions`.
    let key: [UInt8]
    /// The session after the last committed transaction: its row (label, count, head digest) is
    /// what ``finish(_:)`` writes.
    private(set) var head: SessionHead
    /// The transaction handed to the writer and not yet waited for.
    private var inFlight: Writer.Job?
    /// The head a committed transaction leaves, handed from the writer thread back to this session.
    private let handoff = Handoff()
    private var finished = false

    private final class Handoff {
        var head: SessionHead?
    }

    /// The session's number in event keys (4 bytes).
    var prefix: [UInt8] { head.row.eventPrefix }

    /// Claims and numbers a new session, and writes its `part` mark in one transaction.
    init(_ context: StoreContext, _ new: NewSession, createdAt: Int64) throws {
        self.context = context
        let writer = try context.requireWriter()
        let meta = context.databases.meta
        let (info, key) = try context.claimNewSession(new, createdAt: createdAt)
        let handoff = self.handoff
        do {
            // The head is read once the transaction committed.
            try writer.perform(weight: 1) { txn, _ in
                let row = try context.numberedRow(txn, info)
                try txn.put(key, forKey: PartialImport.key(row.eventPrefix), in: meta, options: .noOverwrite)
                handoff.head = SessionHead(emptySession: row)
            }
        } catch {
            context.locks?.release(info.id)
            throw error
        }
        self.id = info.id
        self.key = key
        self.head = handoff.head!
    }

    /// Sets the label, app and app version the row will record (after the transaction in flight).
    func describe(_ new: NewSession) throws {
        try flush()
        head.row.info.label = new.label
        head.row.info.appName = new.appName
        head.row.info.appVersion = new.appVersion
    }

    /// Hands `batch` to the writer thread, to be appended after the events handed before in one
    /// transaction (with `finishing`, the transaction also writes the row and marks: see
    /// ``finish(_:)``), once the transaction before it has committed. Returns before the commit;
    /// ``flush()`` waits for it.
    func append(_ batch: [RecordedEvent], finishing: Bool = false) throws {
        precondition(!finished, "append to a finished import")
        // Encoded here, while the transaction before is written, and not while a transaction holds
        // the store's writer lock.
        let bodies = StoredPayload.Bodies(batch)
        try flush()
        let start = head
        let (id, key, prefix, context, handoff) = (id, key, prefix, context, handoff)
        // The head is read by ``flush()`` once the transaction committed; finishing, the writer
        // keeps it too.
        inFlight = try context.requireWriter().submit(weight: max(1, batch.count)) { txn, heads in
            var next = start
            try Self.requireMark(txn, prefix: prefix, id: id, context: context)
            if !batch.isEmpty {
                _ = try context.appendRecords(txn, &next, batch, bodies: bodies, id: id, key: key, writeRow: false, collect: false)
            }
            if finishing { try Self.writeRow(txn, next, key: key, context: context, heads: &heads) }
            handoff.head = next
        }
        finished = finishing
    }

    /// Waits for the transaction in flight, if any.
    func flush() throws {
        guard let job = inFlight else { return }
        inFlight = nil
        try context.requireWriter().wait(for: job)
        head = handoff.head!
    }

    /// In `txn`, a transaction on the writer thread: writes the session's row and its
    /// ``ImportMark`` and removes its `part` mark, so that readers see it once `txn` commits, and
    /// gives the writer its head. Call after ``flush()``, and ``markFinished()`` once `txn` committed
    /// (a transaction that is run again, when the map grew, finishes again).
    func finish(_ txn: LMDBWriteTransaction, _ heads: inout Writer.Heads) throws {
        precondition(inFlight == nil && !finished, "finish an import with a transaction in flight, or twice")
        try Self.requireMark(txn, prefix: prefix, id: id, context: context)
        try Self.writeRow(txn, head, key: key, context: context, heads: &heads)
    }

    /// The transaction that ran ``finish(_:_:)`` committed.
    func markFinished() {
        finished = true
    }

    /// Removes what was written (or, when that fails too, leaves it to the store's next
    /// read-write open) and lets the session go.
    func remove() {
        try? flush()
        try? Self.removePartial(prefix: prefix, id: id, in: context)
        context.locks?.release(id)
    }

    /// The session this import wrote, once finished.
    func info() throws -> SessionInfo { try context.session(id) }

    /// Removes the records of the import of `id`, numbered `prefix`, and its mark, in one
    /// transaction; does nothing when the mark is gone (the import ended, or was removed).
    static func removePartial(prefix: [UInt8], id: SessionID, in context: StoreContext) throws {
        let meta = context.databases.meta
        try context.requireWriter().perform(weight: 1) { txn, _ in
            guard let marked = try txn.value(forKey: PartialImport.key(prefix), in: meta),
                  marked == StoreKey.sessionBytes(id) else { return }
            try context.removeRecords(txn, prefix: prefix)
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
        }
    }

    /// Throws unless the session's `part` mark is still there: it is removed only by a log that
    /// took the session's lock, which this log held (unless it was let go), and then nothing more
    /// is written. Past this check, which writes nothing, only LMDB errors throw (and abort the
    /// transaction).
    private static func requireMark(_ txn: LMDBWriteTransaction, prefix: [UInt8], id: SessionID, context: StoreContext) throws {
        guard try txn.value(forKey: PartialImport.key(prefix), in: context.databases.meta) != nil else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "part", reason: "the import of \(id) was removed while it ran")
        }
    }

    private static func writeRow(_ txn: LMDBWriteTransaction, _ head: SessionHead, key: [UInt8], context: StoreContext,
                                 heads: inout Writer.Heads) throws {
        let databases = context.databases
        try txn.delete(forKey: PartialImport.key(head.row.eventPrefix), in: databases.meta)
        try txn.put(head.row.encode(), forKey: key, in: databases.sessions, options: .noOverwrite)
        try ImportMark.write(txn, head.row.eventPrefix, in: databases.meta)
        heads[head.row.info.id] = head
    }
}
