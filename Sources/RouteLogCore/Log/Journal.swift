// The crash-safe journal a navigator writes each event to before its call returns, and the runs
// of a session (one per launch that wrote it), as optional capabilities of an `EventLog`.

/// What a launch of the app tells a log about itself when it starts writing a session: the
/// version and build that run.
public struct RunStart: Hashable, Sendable {
    public var appVersion: String?
    public var build: String?
    public init(appVersion: String? = nil, build: String? = nil) {
        self.appVersion = appVersion
        self.build = build
    }
}

/// How a run of a session ended.
public enum RunEnd: Hashable, Sendable, CustomStringConvertible {
    /// The run is the session's last and nothing says it ended (the app may still be running).
    case open
    /// The run ended normally: its navigator was released, or its process exited (`exit`, a
    /// return from `main`). Events it had not written yet, if any, were moved into the log from
    /// its journal.
    case clean
    /// The process died while the run was active (not suspended): a crash, a trap, `abort()`, a
    /// SIGKILL, the launch watchdog. `recovered` events, the last `lastSeq`, were only in its
    /// journal and were moved into the log by the next read-write open (or, before that, are shown
    /// by readers); often 0, when the recorder had caught up. `lastSeq` is then the session's head
    /// when the run died.
    case crashed(recovered: UInt64, lastSeq: UInt64)
    /// The run was suspended (the app in the background, after `Navigator.suspend()`) when it was
    /// last seen: the system ended the process while it was suspended, as iOS ends most runs, or
    /// it is suspended now. Not a crash.
    case suspended
    /// The store does not say (sessions recorded before runs were recorded, or a run that kept no
    /// journal).
    case unknown

    /// `open`, `clean`, `crashed`, `suspended`, `unknown`.
    public var name: String {
        switch self {
        case .open: "open"
        case .clean: "clean"
        case .crashed: "crashed"
        case .suspended: "suspended"
        case .unknown: "unknown"
        }
    }

    /// `clean`, `crashed (3 events recovered, last #42)`.
    public var description: String {
        if case .crashed(let n, let last) = self { return "crashed (\(n) event\(n == 1 ? "" : "s") recovered, last #\(last))" }
        return name
    }
}

/// One run of a session: the events one launch of the app wrote.
public struct RunInfo: Hashable, Sendable {
    /// 1 for the session's first run.
    public var number: Int
    /// The seq of the run's first event (the session's head + 1 when it started).
    public var firstSeq: UInt64
    /// When the run started, in milliseconds since 1970.
    public var startedAt: Int64
    public var appVersion: String?
    public var build: String?
    /// How the run ended.
    public var end: RunEnd

    public init(number: Int, firstSeq: UInt64, startedAt: Int64, appVersion: String? = nil, build: String? = nil, end: RunEnd = .open) {
        self.number = number
        self.firstSeq = firstSeq
        self.startedAt = startedAt
        self.appVersion = appVersion
        self.build = build
        self.end = end
    }
}

extension Array where Element == RunInfo {
    /// The run that wrote event `seq`: the last run starting at or before it.
    public func run(of seq: UInt64) -> RunInfo? { last { $0.firstSeq <= seq } }
}

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
    /// `session` now: ``Navigator/restoringLatest`` never resumes such a session, so that a second
    /// window of an app gets a session of its own.
    func isBeingWritten(_ session: SessionID) -> Bool
}
