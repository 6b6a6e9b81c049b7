@_spi(Tools) import RouteLogCore

// Deleting sessions, retention, statistics, compaction and moving: forwarded to ``StoreLifecycle``.

extension LMDBEventLog {
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
        try lifecycle.deleteSessions(ids)
    }

    /// Ends this log's claim on a session it created or appended to: from now on retention (and
    /// other logs' ``deleteSession(_:)``) may delete it. A later append claims it again. Closing
    /// the log, or the process ending in any way, ends every claim.
    public func finishWriting(_ id: SessionID) {
        context.locks?.release(id)
    }

    /// Applies ``Options/retention`` now; returns the sessions it deleted. Sessions being written
    /// (by this log or any other, in any process) are skipped.
    @discardableResult
    public func applyRetention() throws -> [SessionInfo] {
        try lifecycle.applyRetention()
    }

    /// Applies `policy` now (see ``Retention``), or with `dryRun` only says what it would delete.
    @discardableResult
    @_spi(Tools) public func applyRetention(_ policy: Retention, dryRun: Bool = false) throws -> [SessionInfo] {
        try lifecycle.applyRetention(policy, dryRun: dryRun)
    }

    /// The store's counts and sizes, from one read transaction.
    public func statistics() throws -> Statistics {
        try lifecycle.statistics()
    }

    /// Writes a compacted copy of the store into `directory` (created if missing; it must be
    /// empty): `mdb_env_copy2` with `MDB_CP_COMPACT`, which reads in one read transaction, so an
    /// app may keep writing meanwhile; the copy holds what was committed when it began.
    ///
    /// The copy is written into a temporary directory beside `directory` (`.NAME.compact-PID`),
    /// given the store's file modes, and renamed into place once complete, so a failure (a full
    /// disk) or a kill never leaves a half-written store at `directory`; a failed copy's temporary
    /// directory is removed, and one left by a killed copy is removed by the next.
    @_spi(Tools) public func compactCopy(to directory: String) throws {
        try lifecycle.compactCopy(to: directory)
    }

    /// Moves every session of the store at `path` into this store, exactly once, keeping each
    /// session's id, label, app name and version, creation time, events and runs: an app's
    /// extension records into a small store of its own in the App Group container, and the app
    /// calls this at launch and when it returns to the foreground.
    ///
    /// The other store is opened with ``Options/oneProcessAtATime``, so never while its extension
    /// has it open (then nothing happens and ``MovedSessions/busy`` is set), and the extension's
    /// own journals are recovered first, as any read-write open does. A session is written into
    /// this store in transactions of at most 500 events (created with its own id when absent, else
    /// continued after the events this store already has), and deleted from the other store only
    /// once this store committed all of them: a move killed at any point leaves each event in one
    /// store or the other, and the next move continues it. The move never keeps the extension out:
    /// before each transaction it checks whether an extension's open waits for the store, and if
    /// so it lets go of the store at once and sets ``MovedSessions/busy`` (the sessions moved whole
    /// so far are listed; the next move goes on from there). An extension's open therefore waits
    /// for one transaction at most, never for the whole move. Nothing happens when there is no
    /// store at `path`.
    ///
    /// - Throws: ``LMDBEventLogError`` when this store cannot be written, or the other cannot be
    ///   read.
    public func moveSessions(fromStoreAt path: String) throws -> MovedSessions {
        try lifecycle.moveSessions(fromStoreAt: path)
    }
}
