// The event log: sessions, stored events, snapshots, and the `EventLog` protocol every store
// (in memory, LMDB) implements.

/// A session's identity: a UUIDv7 string (time-ordered, so sorting ids sorts by creation).
public struct SessionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// A UUIDv7 from a Unix time in milliseconds and 74 random bits.
    public static func v7(milliseconds: Int64, random: (UInt64, UInt64)) -> SessionID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let ms = UInt64(max(0, milliseconds))
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (8 * UInt64(5 - i))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: random.0 >> (8 * UInt64(i))) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: random.1 >> (8 * UInt64(i - 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b -> String in let s = String(b, radix: 16); return s.count == 1 ? "0" + s : s }.joined()
        let h = Array(hex)
        return SessionID("\(String(h[0..<8]))-\(String(h[8..<12]))-\(String(h[12..<16]))-\(String(h[16..<20]))-\(String(h[20..<32]))")
    }

    /// A new UUIDv7 for now.
    public static func generate(milliseconds: Int64) -> SessionID {
        var g = SystemRandomNumberGenerator()
        return v7(milliseconds: milliseconds, random: (g.next(), g.next()))
    }
}

/// What the caller tells a log about a new session.
public struct NewSession: Hashable, Sendable {
    public var label: String
    public var appName: String?
    public var appVersion: String?
    /// The app's build; recorded with the run (see ``RunStart``), not with the session.
    public var build: String?
    public init(label: String = "", appName: String? = nil, appVersion: String? = nil, build: String? = nil) {
        self.label = label
        self.appName = appName
        self.appVersion = appVersion
        self.build = build
    }
}

/// A session as a log lists it.
public struct SessionInfo: Hashable, Sendable {
    public var id: SessionID
    public var label: String
    public var appName: String?
    public var appVersion: String?
    /// When the app created the session, in milliseconds since 1970 (an import keeps the
    /// exported time).
    public var createdAt: Int64
    /// The number of events (the last seq).
    public var eventCount: UInt64
    /// Timestamp of the last event, if any.
    public var lastEventAt: Int64?
    /// The digest of the state after the last event (the empty state's digest when there are none).
    public var headDigest: Digest
    /// The session's place in the order sessions entered this log, by creation or import: 1 for
    /// the first. ``EventLog/sessions()`` lists sessions in this order, so the last one is the
    /// newest in the log whatever its ``createdAt``. 0 for a session stored before the log counted.
    public var entryOrder: UInt64
    /// When the session entered this log (the log's clock at creation or import), in milliseconds
    /// since 1970; `nil` when the log did not record it.
    public var enteredAt: Int64?
    /// Whether the session entered this log by import (`routelog import`), not by an app writing it.
    public var imported: Bool

    public init(id: SessionID, label: String, appName: String? = nil, appVersion: String? = nil, createdAt: Int64,
                eventCount: UInt64 = 0, lastEventAt: Int64? = nil, headDigest: Digest = NavigationState().digest,
                entryOrder: UInt64 = 0, enteredAt: Int64? = nil, imported: Bool = false) {
        self.id = id
        self.label = label
        self.appName = appName
        self.appVersion = appVersion
        self.createdAt = createdAt
        self.eventCount = eventCount
        self.lastEventAt = lastEventAt
        self.headDigest = headDigest
        self.entryOrder = entryOrder
        self.enteredAt = enteredAt
        self.imported = imported
    }
}

/// An event as a log stores it: numbered, with the reducer's outcome and the digest after it.
public struct StoredEvent: Hashable, Sendable {
    public var seq: UInt64
    public var recorded: RecordedEvent
    public var outcome: Outcome
    /// The digest of the state after this event.
    public var digest: Digest

    public init(seq: UInt64, recorded: RecordedEvent, outcome: Outcome, digest: Digest) {
        self.seq = seq
        self.recorded = recorded
        self.outcome = outcome
        self.digest = digest
    }

    public var event: Event { recorded.event }
    public var meta: EventMetadata { recorded.meta }
}

/// A state saved at a seq, so `state(at:)` need not fold from the start.
public struct Snapshot: Hashable, Sendable {
    public var seq: UInt64
    public var state: NavigationState
    public init(seq: UInt64, state: NavigationState) {
        self.seq = seq
        self.state = state
    }
}

/// Errors every ``EventLog`` reports the same way.
public enum EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No session has this id.
    case sessionNotFound(SessionID)
    /// `append(_:to:expectedSeq:)` was given an `expectedSeq` that is not the session's last seq.
    /// Nothing was written.
    case conflict(session: SessionID, expected: UInt64, actual: UInt64)
    /// A read named a seq the session does not have.
    case seqOutOfRange(session: SessionID, seq: UInt64, count: UInt64)

    public var description: String {
        switch self {
        case .sessionNotFound(let id): "no session \(id)"
        case .conflict(let id, let expected, let actual): "append conflict on session \(id): expected last seq \(expected), but it is \(actual)"
        case .seqOutOfRange(let id, let seq, let count): "seq \(seq) is out of range for session \(id) (it has \(count) events)"
        }
    }
}

/// An append-only log of sessions of events. ``InMemoryEventLog`` is the in-memory
/// implementation; `RouteLogLMDB` provides the durable one.
///
/// Appends fold the events with the reducer: the log stores each event's outcome and the digest
/// of the state after it.
public protocol EventLog: AnyObject, Sendable {
    /// Creates an empty session.
    func createSession(_ session: NewSession) throws -> SessionInfo
    /// Every session, in the order they entered the log (``SessionInfo/entryOrder``): the last is
    /// the newest in the log, whatever the app's recorded ``SessionInfo/createdAt``.
    func sessions() throws -> [SessionInfo]
    /// One session. Throws ``EventLogError/sessionNotFound(_:)``.
    func session(_ id: SessionID) throws -> SessionInfo
    /// Appends a batch atomically. `expectedSeq` is the caller's idea of the session's last seq
    /// (0 for an empty session); a mismatch throws ``EventLogError/conflict(session:expected:actual:)``
    /// and writes nothing.
    @discardableResult
    func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent]
    /// Calls `body` for the events with `from ... through` seqs, in order, without loading them all.
    /// Return `false` from `body` to stop early.
    func read(_ session: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws
    /// The latest snapshot at or before `seq`, if the log keeps one.
    func snapshot(_ session: SessionID, atOrBefore seq: UInt64) throws -> Snapshot?
    /// Deletes a session with its events and snapshots, atomically: a reader sees the whole
    /// session or none of it. Throws ``EventLogError/sessionNotFound(_:)``.
    func deleteSession(_ session: SessionID) throws
}

extension EventLog {
    /// Appends one event.
    @discardableResult
    public func append(_ event: RecordedEvent, to session: SessionID, expectedSeq: UInt64) throws -> StoredEvent {
        try append([event], to: session, expectedSeq: expectedSeq)[0]
    }

    /// The events with `from ... through` seqs, as an array.
    public func events(_ session: SessionID, from: UInt64 = 1, through: UInt64 = .max) throws -> [StoredEvent] {
        var out: [StoredEvent] = []
        try read(session, from: from, through: through) { out.append($0); return true }
        return out
    }

    /// Time travel: the state after event `seq` (0 = before any event): the latest snapshot at or
    /// before it plus a fold of the events since.
    public func state(of session: SessionID, at seq: UInt64) throws -> NavigationState {
        let info = try self.session(session)
        guard seq <= info.eventCount else { throw EventLogError.seqOutOfRange(session: session, seq: seq, count: info.eventCount) }
        let start = try snapshot(session, atOrBefore: seq) ?? Snapshot(seq: 0, state: NavigationState())
        var r = Replayer(state: start.state, seq: start.seq)
        if seq > start.seq {
            try read(session, from: start.seq + 1, through: seq) { e in r.apply(e.event); return true }
        }
        return r.state
    }
}
