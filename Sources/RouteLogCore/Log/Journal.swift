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
    /// The run ended with every event it recorded in the log: it closed, or flushed before it
    /// exited, or a later run started without anything to recover.
    case clean
    /// The process died with events only in its journal: `recovered` events, the last `lastSeq`,
    /// were moved into the log by the next read-write open (or, before that, are shown by readers).
    case crashed(recovered: UInt64, lastSeq: UInt64)
    /// The store does not say (sessions recorded before runs were recorded).
    case unknown

    /// `open`, `clean`, `crashed`, `unknown`.
    public var name: String {
        switch self {
        case .open: "open"
        case .clean: "clean"
        case .crashed: "crashed"
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
    /// Writes event `seq` with the digest of the state after it. Called on the writer's thread,
    /// in seq order, before the call returns.
    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest)
    /// The log holds every event through `seq` (called by the recorder after each commit, from
    /// another thread).
    func committed(through seq: UInt64)
    /// The writer is done. With everything committed the journal is removed (a clean end);
    /// otherwise it stays for the next read-write open to recover.
    func close(allCommitted: Bool)
}

/// An ``EventLog`` that keeps journals for its writers and records runs.
public protocol JournalingEventLog: EventLog {
    /// Starts a run of `session` whose next event is `head + 1`, and opens its journal.
    func beginRun(of session: SessionID, head: UInt64, _ run: RunStart) throws -> any EventJournal
    /// The session's runs, oldest first (empty when the log never recorded one).
    func runs(of session: SessionID) throws -> [RunInfo]
}
