@_spi(Tools) import RouteLogCore

/// A log that forwards every ``EventLog`` method to `inner`: a test log subclasses it and
/// overrides only what it changes (an append that fails, or waits).
open class ForwardingEventLog: EventLog, @unchecked Sendable {
    /// The log every call goes to.
    public let inner: any EventLog

    public init(_ inner: any EventLog) { self.inner = inner }

    open func createSession(_ session: NewSession) throws -> SessionInfo { try inner.createSession(session) }
    open func sessions() throws -> [SessionInfo] { try inner.sessions() }
    open func session(_ id: SessionID) throws -> SessionInfo { try inner.session(id) }
    @discardableResult
    open func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try inner.append(events, to: session, expectedSeq: expectedSeq)
    }
    open func read(_ session: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        try inner.read(session, from: from, through: through, body)
    }
    open func snapshot(_ session: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? { try inner.snapshot(session, atOrBefore: seq) }
    open func deleteSession(_ session: SessionID) throws { try inner.deleteSession(session) }
    /// `nil`, whatever `inner` keeps: a subclass that journals overrides it.
    open var journaling: (any JournalingEventLog)? { nil }
    /// `nil`, whatever `inner` keeps: a subclass that keeps screen records overrides it.
    @_spi(Tools) open var screenRecording: (any ScreenRecordingEventLog)? { nil }
    /// `nil`, whatever `inner` takes: a subclass that takes its caller's fold overrides it.
    @_spi(Tools) open var foldedAppending: (any FoldedAppendingEventLog)? { nil }
}
