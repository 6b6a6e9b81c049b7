@_spi(Tools) import RouteLogCore

// Runs and journals (`JournalingEventLog`): forwarded to ``SessionRuns`` and ``StoreJournals``.

extension LMDBEventLog: JournalingEventLog {
    /// What this log found in the store's journals when it opened: what it recovered (read-write)
    /// or shows beside the stored events (read-only), and what it could not.
    @_spi(Tools) public var journalRecovery: JournalRecovery { journals.recovery }

    /// The folder of the store's journals.
    @_spi(Tools) public var journalDirectory: String { journals.directory }

    /// The seqs of `id` that a read-only log shows from a crashed writer's journal, not yet in the
    /// store (`nil` when there are none): `routelog` marks them as recovered.
    @_spi(Tools) public func journaled(_ id: SessionID) -> ClosedRange<UInt64>? {
        journals.overlay?.journaled(id, in: records)
    }

    /// Starts a run of `id` (see ``/RouteLogCore/RunInfo``) and opens its journal: a navigator on this log calls
    /// it when it opens, so that each of its calls survives the death of the process.
    ///
    /// How the session's previous run ended is never guessed here: the journal of a writer that
    /// is gone is recovered first (its state says crashed, suspended or exited); a previous run
    /// still `open` after that, with no live writer and no journal, ends `unknown`. A session from
    /// before runs were recorded gets a first run of unknown end for its events.
    public func beginRun(of id: SessionID, head: UInt64, _ start: RunStart) throws -> any EventJournal {
        try journals.beginRun(of: id, head: head, start)
    }

    /// Whether a navigator writes `id`: one of this process, active or suspended (a suspended
    /// navigator holds no lock, but its session stays its own within the process), or an active
    /// one of another process (its writer lock is held). A suspended navigator of another process
    /// holds nothing, so its session counts as free there (see "The app's own scenes" in
    /// <doc:SharingAStore>).
    public func isBeingWritten(_ id: SessionID) -> Bool {
        if ProcessSessions.shared.contains(store: environment.path, id) { return true }
        return context.locks?.isHeld(id) ?? SessionLocks(storePath: path).isHeld(id)
    }

    /// The navigator of `id` suspends (its journal is suspended and holds everything the log does
    /// not): the session's writer lock goes, and when no navigator of this store is active in the
    /// process any more, the LMDB environment is released, with its files and their locks.
    public func suspendWriting(_ id: SessionID) {
        runs.suspendWriting(id)
    }

    /// The navigator of `id` resumes run `run`: it holds the session's writer lock again, and a
    /// run that a recovery in another process ended while it was suspended is open again. The
    /// environment opens again with this transaction.
    public func resumeWriting(_ id: SessionID, run: Int) throws {
        try runs.resumeWriting(id, run: run)
    }

    /// The runs of a session, oldest first. A reader of a store whose app crashed sees the crashed
    /// run's end before the next read-write open recovers it.
    public func runs(of id: SessionID) throws -> [RunInfo] {
        let stored = try runs.runs(of: id)
        return journals.overlay?.runs(stored, of: id) ?? stored
    }
}
