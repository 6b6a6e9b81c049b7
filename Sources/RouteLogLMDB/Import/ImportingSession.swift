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
    let importer: SessionImporter
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
    init(_ importer: SessionImporter, _ new: NewSession, createdAt: Int64) throws {
        self.importer = importer
        let context = importer.context
        let writer = try context.requireWriter()
        let meta = context.databases.meta
        let records = importer.records
        let (info, key) = try records.claimNewSession(new, createdAt: createdAt)
        let handoff = self.handoff
        do {
            try writer.perform(weight: 1) { txn, _ in
                let row = try records.numberedRow(txn, info)
                try txn.put(key, forKey: PartialImport.key(row.eventPrefix), in: meta, options: .noOverwrite)
                let head = SessionHead(emptySession: row)
                return { handoff.head = head }
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
        let bodies = batch.map { StoredPayload.eventBody($0.event) }
        try flush()
        let start = head
        let (id, key, prefix, importer, handoff) = (id, key, prefix, importer, handoff)
        let records = importer.records
        inFlight = try importer.context.requireWriter().submit(weight: max(1, batch.count)) { txn, scratch in
            var next = start
            try Self.requireMark(txn, prefix: prefix, id: id, importer: importer)
            if !batch.isEmpty {
                _ = try records.appendRecords(txn, &next, batch, bodies: bodies, id: id, key: key, writeRow: false, collect: false)
            }
            if finishing { try Self.writeRow(txn, next, key: key, importer: importer, scratch: &scratch) }
            let committed = next
            return {
                handoff.head = committed
                if finishing { records.rememberHead(committed, for: id) }
            }
        }
        finished = finishing
    }

    /// Waits for the transaction in flight, if any.
    func flush() throws {
        guard let job = inFlight else { return }
        inFlight = nil
        try importer.context.requireWriter().wait(for: job)
        head = handoff.head!
    }

    /// In `txn`, a transaction on the writer thread: writes the session's row and its
    /// ``ImportMark`` and removes its `part` mark, so that readers see it once `txn` commits; the
    /// returned hook (run after the commit) keeps its head. Call after ``flush()``.
    func finish(_ txn: LMDBWriteTransaction, _ scratch: inout Writer.Scratch) throws -> () -> Void {
        precondition(inFlight == nil && !finished, "finish an import with a transaction in flight, or twice")
        try Self.requireMark(txn, prefix: prefix, id: id, importer: importer)
        try Self.writeRow(txn, head, key: key, importer: importer, scratch: &scratch)
        // Marked finished by the hook: a transaction that is run again (the map grew) finishes again.
        let (head, id, records) = (head, id, importer.records)
        return { [self] in
            finished = true
            records.rememberHead(head, for: id)
        }
    }

    /// Removes what was written (or, when that fails too, leaves it to the store's next
    /// read-write open) and lets the session go.
    func remove() {
        try? flush()
        try? importer.removePartialImport(prefix: prefix, id: id)
        importer.context.locks?.release(id)
    }

    /// The session this import wrote, once finished.
    func info() throws -> SessionInfo { try importer.records.session(id) }

    /// Throws unless the session's `part` mark is still there: it is removed only by a log that
    /// took the session's lock, which this log held (unless it was let go), and then nothing more
    /// is written. Past this check, which writes nothing, only LMDB errors throw (and abort the
    /// transaction).
    private static func requireMark(_ txn: LMDBWriteTransaction, prefix: [UInt8], id: SessionID, importer: SessionImporter) throws {
        guard try txn.value(forKey: PartialImport.key(prefix), in: importer.context.databases.meta) != nil else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "part", reason: "the import of \(id) was removed while it ran")
        }
    }

    private static func writeRow(_ txn: LMDBWriteTransaction, _ head: SessionHead, key: [UInt8], importer: SessionImporter,
                                 scratch: inout Writer.Scratch) throws {
        let databases = importer.context.databases
        try txn.delete(forKey: PartialImport.key(head.row.eventPrefix), in: databases.meta)
        try txn.put(head.row.encode(), forKey: key, in: databases.sessions, options: .noOverwrite)
        try ImportMark.write(txn, head.row.eventPrefix, in: databases.meta)
        scratch[head.row.info.id] = head
    }
}
