@_spi(Tools) import RouteLogCore

/// An import of fixture or export files as new sessions that enter the store together, or not at
/// all. Each file is read once: its events are checked as they are read and written as they
/// come, in transactions of 32,768 events, each session under a `part` mark (``PartialImport``)
/// that no reader sees through. ``commit()`` then writes every session's row in one transaction;
/// ``rollback()`` (or a failure of ``commit()``, or this import let go unfinished) removes what
/// was written, and an import that is killed leaves marks that the store's next read-write open
/// removes with their records.
///
/// Start one with ``LMDBEventLog/beginImport()``; use it from one thread.
@_spi(Tools) public final class FixtureImport {
    /// Kept so that the store (and its writer thread) outlives the import's rollback.
    private let log: LMDBEventLog
    /// The sessions written so far, one a file, in order.
    private var sessions: [ImportingSession] = []
    private var ended = false

    init(_ log: LMDBEventLog) {
        self.log = log
    }

    deinit { rollback() }

    /// Reads the file at `path` once and writes its events as a new session, seen by no reader
    /// before ``commit()``. A file whose header follows its events (RouteLog writes it first) is
    /// written a second time: an event's stored time depends on the session's creation time.
    ///
    /// - Parameters:
    ///   - label: overrides the label from the file's header (or its name).
    ///   - scan: reads the file at the path it is given, hands each event to its second argument
    ///     as it is read, and returns the file's header and event count, or throws why the file is
    ///     bad: ``Fixture/scan(contentsOf:event:bytesRead:)``, or a caller's wrapper of it that words errors
    ///     its own way.
    ///   - progress: called with the number of events read so far, every few thousand.
    /// - Returns: what `scan` returned.
    /// - Throws: what `scan` throws (also when a write failed first: a bad file is reported as
    ///   such), else ``LMDBEventLogError``. What was written stays until ``rollback()``.
    @discardableResult
    public func add(contentsOf path: String, label: String? = nil,
                    scan: (String, (RecordedEvent) -> Void) throws -> (header: Fixture, eventCount: Int) = { try Fixture.scan(contentsOf: $0, event: $1) },
                    progress: (Int) -> Void = { _ in }) throws -> (header: Fixture, eventCount: Int) {
        precondition(!ended, "add to an import that ended")
        let guess = CreationTimeGuess.created(inFileAt: path)
        var scanned = try write(path, createdAt: guess, scan: scan, progress: progress)
        let recorded = scanned.header.session?.created
        if recorded != guess {
            // Written with a creation time the header does not record: again, with the one it does.
            sessions.removeLast().remove()
            let again = try write(path, createdAt: recorded, scan: scan, progress: progress)
            guard again.header == scanned.header, again.eventCount == scanned.eventCount else {
                throw FixtureError(file: path, problem: .unreadable("the file changed while it was imported; nothing was written"))
            }
            scanned = again
        }
        let header = scanned.header.session
        try sessions[sessions.count - 1].describe(NewSession(label: label ?? header?.label ?? scanned.header.name,
                                                             appName: header?.app, appVersion: header?.appVersion))
        return scanned
    }

    /// Writes every session's row in one transaction: from its commit on, readers see them all.
    /// Then applies the store's retention.
    ///
    /// - Returns: the new sessions, one for each file added, in order.
    /// - Throws: ``LMDBEventLogError``; then nothing was committed, and what was written is removed.
    public func commit() throws -> [SessionInfo] {
        precondition(!ended, "commit an import that ended")
        do {
            for session in sessions { try session.flush() }
            try log.context.requireWriter().perform(weight: max(1, sessions.count)) { [sessions] txn, heads in
                for session in sessions { try session.finish(txn, &heads) }
            }
            for session in sessions { session.markFinished() }
        } catch {
            rollback()
            throw error
        }
        ended = true
        try log.lifecycle.applyRetention()
        return try sessions.map { try $0.info() }
    }

    /// Removes the sessions written so far (the last one first, so that the store's session
    /// numbers go back as they were). Does nothing after ``commit()``.
    public func rollback() {
        guard !ended else { return }
        ended = true
        for session in sessions.reversed() { session.remove() }
        sessions.removeAll()
    }

    /// Reads the file with `scan` and writes its events as a new session created at `createdAt`
    /// (the clock's time when `nil`), claimed at its first event (or at the end, for a file with
    /// none), and added to ``sessions``. A write that fails stops the writing, not the reading,
    /// so that a bad file is reported as such.
    private func write(_ path: String, createdAt: Int64?,
                       scan: (String, (RecordedEvent) -> Void) throws -> (header: Fixture, eventCount: Int),
                       progress: (Int) -> Void) throws -> (header: Fixture, eventCount: Int) {
        let transactionEvents = SessionImporter.importTransactionEvents
        var session: ImportingSession?
        var batch: [RecordedEvent] = []
        var read = 0
        var failure: (any Error)?
        func hand() {
            do {
                if session == nil {
                    session = try ImportingSession(log.context, NewSession(), createdAt: createdAt ?? log.options.clock())
                    sessions.append(session!)
                }
                if !batch.isEmpty { try session!.append(batch) }
            } catch {
                failure = error
            }
            batch = []
        }
        batch.reserveCapacity(transactionEvents)
        // `progress` is only called while `scan` runs.
        let scanned = try withoutActuallyEscaping(progress) { progress in
            try scan(path) { event in
                guard failure == nil else { return }
                batch.append(event)
                read += 1
                if read % SessionImporter.importBatch == 0 { progress(read) }
                if batch.count == transactionEvents {
                    hand()
                    batch.reserveCapacity(transactionEvents)
                }
            }
        }
        if let failure { throw failure }
        if session == nil || !batch.isEmpty { hand() }
        if let failure { throw failure }
        progress(read)
        return scanned
    }
}
