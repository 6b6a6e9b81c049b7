// The crash-safe journal a navigator writes each event to before its call returns, and the log
// that keeps journals and records runs, as optional capabilities of an `EventLog`.

/// A writer's journal: every event is written to it before the navigator call that made it
/// returns, so that it survives the death of the process (a trap, `abort()`, SIGKILL) however
/// far behind the log's commits are. Writes never block on another process, never sync and never
/// open a log transaction.
public protocol EventJournal: AnyObject, Sendable {
    /// The number of the run this journal belongs to (see ``RunInfo/number``).
    var runNumber: Int { get }
    /// Writes event `seq` with the digest of the state after it. Called on the writer's thread,
    /// in seq order, before the call returns.
    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest)
    /// The log holds every event through `seq` (called by the recorder after each commit, from
    /// another thread).
    func committed(through seq: UInt64)
    /// The writer is done. With everything committed the journal is removed (a clean end);
    /// otherwise it stays for the next read-write open to recover.
    func close(allCommitted: Bool)
    /// The writer is suspending: the journal marks itself suspended and releases its files and
    /// locks; it stays on disk (with any event the log does not hold yet), so that a process
    /// ended while suspended is told from one that crashed. ``write(_:seq:digest:)`` is not called
    /// until ``resume()``.
    func suspend()
    /// The writer resumes after ``suspend()``: the journal takes its files and locks again (or
    /// starts new ones, when another process recovered it meanwhile) and marks itself active.
    func resume() throws
    /// Whether ``events(from:through:)`` gives back the events written since the last commit
    /// (checked by the writer's thread after each ``write(_:seq:digest:)``).
    var canReadBack: Bool { get }
    /// The uncommitted events `seq`...`last`, with the digests written with them, oldest first;
    /// `nil` when one of them is not held. Called from the recorder's thread, while the writer's
    /// thread goes on writing after `last`.
    func events(from seq: UInt64, through last: UInt64) -> [(event: RecordedEvent, digest: Digest)]?
}

extension EventJournal {
    /// Whether the journal can give back the events it holds that the log has not committed
    /// (``events(from:through:)``): a writer whose log falls behind then keeps only a bounded
    /// backlog in memory and reads the rest back from the journal. `false` unless a journal says so.
    public var canReadBack: Bool { false }

    /// The events `seq`...`last` with the digests after them, oldest first, as written and not
    /// yet committed; `nil` when the journal cannot give back one of them.
    public func events(from seq: UInt64, through last: UInt64) -> [(event: RecordedEvent, digest: Digest)]? { nil }
}

/// An ``EventLog`` that keeps journals for its writers and records runs.
public protocol JournalingEventLog: EventLog {
    /// Starts a run of `session` whose next event is `head + 1`, and opens its journal.
    func beginRun(of session: SessionID, head: UInt64, _ run: RunStart) throws -> any EventJournal
    /// The session's runs, oldest first (empty when the log never recorded one).
    func runs(of session: SessionID) throws -> [RunInfo]
    /// The writer of `session` suspends (its journal is already suspended): the log lets go of
    /// what it holds for it (the session's writer lock) and, when no session of the store is
    /// being written in this process any more, of the store itself (its files and their locks).
    func suspendWriting(_ session: SessionID)
    /// The writer of `session` resumes run `run`: the log takes the session's writer lock again
    /// (and the store, on the next write); a run that another process's recovery ended while it
    /// was suspended is marked open again.
    func resumeWriting(_ session: SessionID, run: Int) throws
    /// Whether a live writer (a navigator of this process or another, not suspended) is writing
    /// `session` now: `Navigator.restoringLatest` never resumes such a session, so that a second
    /// window of an app gets a session of its own.
    func isBeingWritten(_ session: SessionID) -> Bool
    /// The log's early journals, when it keeps them (``EarlyJournalingEventLog``): `nil` by
    /// default; such a log is its own.
    var earlyJournaling: (any EarlyJournalingEventLog)? { get }
}

extension JournalingEventLog {
    /// The log itself.
    public var journaling: (any JournalingEventLog)? { self }

    /// `nil`: the log keeps no early journals.
    public var earlyJournaling: (any EarlyJournalingEventLog)? { nil }
}
