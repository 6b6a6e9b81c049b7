@_spi(Tools) import RouteLogCore

/// The first record of a session that failed verification.
@_spi(Tools) public struct VerificationFailure: Hashable, Sendable, CustomStringConvertible {
    /// Which check failed.
    public enum Check: String, Hashable, Sendable, CaseIterable {
        /// The record's bytes do not match its checksum (or it cannot be parsed at all).
        case checksum
        /// The record's previous-hash is not the hash of the record before it, or a record is
        /// missing, out of place or beyond the session's head.
        case chain
        /// The digest stored with the event differs from a fresh replay with the current reducer
        /// (whether or not the outcome differs too).
        case digest
        /// The outcome stored with the event differs from a fresh replay with the current reducer,
        /// and the digest does not.
        case outcome
        /// A snapshot is unreadable or its state differs from the replayed state at its seq.
        case snapshot
    }

    /// The seq of the failing record (or snapshot).
    public var seq: UInt64
    /// Which check failed.
    public var check: Check
    /// For ``Check/digest``, ``Check/outcome`` and ``Check/snapshot``: the digest stored in the log.
    public var storedDigest: Digest?
    /// For ``Check/digest``, ``Check/outcome`` and ``Check/snapshot``: the digest of the replayed state.
    public var replayedDigest: Digest?
    /// A one-line explanation.
    public var message: String
    /// For ``Check/digest`` and ``Check/outcome``: the event at ``seq``.
    public var event: RecordedEvent?
    /// For ``Check/digest`` and ``Check/outcome``: the outcome stored with the event.
    public var storedOutcome: Outcome?
    /// For ``Check/digest`` and ``Check/outcome``: the outcome the replay gives.
    public var replayedOutcome: Outcome?
    /// For ``Check/digest`` and ``Check/outcome``: the replayed state before the event at ``seq``
    /// (which is also the recorded state after it when the event was recorded as rejected).
    public var stateBefore: NavigationState?
    /// For ``Check/digest`` and ``Check/outcome``: the replayed state after the event at ``seq``.
    public var replayedState: NavigationState?

    public var description: String { "seq \(seq): \(check.rawValue) failed: \(message)" }
}
