// The runs of a session: one per launch of the app that wrote it, how it started and how it ended.

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

extension RunInfo {
    /// The run as JSON, one object with the keys every tool uses for it (a session's `runList` in
    /// `routelog sessions --json`, the server's API, the timeline page's `runs`): `run`, `firstSeq`,
    /// `started`, `appVersion` and `build` (`null` when unknown), `end`, and for a crashed run
    /// `recovered` and `lastSeq`.
    @_spi(Tools) public var json: JSONValue {
        var o: [String: JSONValue] = [
            "run": .int(Int64(number)), "firstSeq": .int(Int64(clamping: firstSeq)), "end": .string(end.name),
            "started": .string(ISO8601.format(milliseconds: startedAt)),
            "appVersion": appVersion.map(JSONValue.string) ?? .null, "build": build.map(JSONValue.string) ?? .null,
        ]
        if case .crashed(let n, let last) = end {
            o["recovered"] = .int(Int64(n))
            o["lastSeq"] = .int(Int64(clamping: last))
        }
        return .object(o)
    }
}
