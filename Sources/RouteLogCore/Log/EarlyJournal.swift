// A journal for a session whose store cannot be opened yet, and the log that can recover it.

/// A ``JournalingEventLog`` that can journal a new session before its store opens: the guarded
/// launch path (`Navigator.restoringLatest(store:orStarting:…open:)`) writes every call into such
/// a journal from the first one, while the store cannot be opened (before the first unlock after a
/// reboot, a busy store, a full disk that clears). The next read-write open of the store, in this
/// process or the next launch, recovers it: the session is created with the journal's id, label,
/// app name, app version and creation time when the store does not hold it yet, its events are
/// appended after the ones it holds, and its run is recorded with how it ended.
public protocol EarlyJournalingEventLog: JournalingEventLog {
    /// Where an early journal goes when the store's own journal folder cannot be written (`nil`:
    /// nowhere else).
    static var defaultEarlyJournalDirectory: String? { get }

    /// Opens a journal of run 1 of `session` (a new session, not in the store at `store`),
    /// without opening the store: in the store's journal folder, else in `fallbackDirectory`.
    /// Its events are written with seqs from 1.
    static func beginEarlyRun(store: String, session: SessionInfo, _ run: RunStart, fallbackDirectory: String?) throws -> any EventJournal

    /// Creates the session `info` describes with its own id (and label, app name, app version and
    /// creation time), or returns the one this log already holds with that id (a recovered early
    /// journal created it).
    func createSession(withID info: SessionInfo) throws -> SessionInfo
}

extension EarlyJournalingEventLog {
    /// The log itself.
    public var earlyJournaling: (any EarlyJournalingEventLog)? { self }
}
