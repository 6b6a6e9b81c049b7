// The `EventLog` protocol every store (in memory, LMDB) implements, and the errors every store
// reports the same way.

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
    /// The log's journals and runs, when it keeps them: a navigator asks once, when it starts
    /// recording, and journals its calls through it. `nil` by default; a log that conforms to
    /// ``JournalingEventLog`` is its own. A subclass that adds that conformance to a class that
    /// conforms to ``EventLog`` alone overrides the property (its superclass declares it) and
    /// returns itself.
    var journaling: (any JournalingEventLog)? { get }
    /// The log's screen records, when it keeps them (``ScreenRecordingEventLog``): `nil` by
    /// default; such a log is its own. Asked once, as ``journaling`` is.
    @_spi(Tools) var screenRecording: (any ScreenRecordingEventLog)? { get }
    /// The log's appends of batches its caller folded, when it takes them
    /// (``FoldedAppendingEventLog``): `nil` by default; such a log is its own.
    @_spi(Tools) var foldedAppending: (any FoldedAppendingEventLog)? { get }
}

extension EventLog {
    /// `nil`: the log keeps no journals and records no runs.
    public var journaling: (any JournalingEventLog)? { nil }

    /// `nil`: the log keeps no screen records.
    @_spi(Tools) public var screenRecording: (any ScreenRecordingEventLog)? { nil }

    /// `nil`: the log folds every event it appends.
    @_spi(Tools) public var foldedAppending: (any FoldedAppendingEventLog)? { nil }

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
