@_spi(Tools) import RouteLogCore

/// What ``LMDBEventLog/verify(session:reducer:)`` found.
@_spi(Tools) public struct VerificationReport: Hashable, Sendable, CustomStringConvertible {
    /// The session checked.
    public var session: SessionID
    /// How many records were checked before stopping (all of them when there is no failure).
    public var eventsChecked: UInt64
    /// How many snapshots were compared with the replay.
    public var snapshotsChecked: Int
    /// The first failure, in seq order, or `nil` when the session verifies.
    public var failure: VerificationFailure?

    /// Whether every check passed.
    public var isValid: Bool { failure == nil }

    public var description: String {
        if let failure { return "session \(session): \(failure)" }
        return "session \(session): \(eventsChecked) events and \(snapshotsChecked) snapshots verified"
    }
}
