@_spi(Tools) import RouteLogCore

/// What ``LMDBEventLog/moveSessions(fromStoreAt:)`` did.
public struct MovedSessions: Hashable, Sendable {
    /// One session moved.
    public struct Moved: Hashable, Sendable {
        public var session: SessionID
        /// The events this move wrote (0 when an earlier, interrupted move had written them all).
        public var events: Int
    }
    /// The sessions now in this store and gone from the other.
    public var sessions: [Moved] = []
    /// The other store was open in another process (its extension handling a request), or an
    /// extension began waiting for it during the move, which then let go: what is not listed in
    /// ``sessions`` stays there (or partly moved) for the next move.
    public var busy = false

    public init() {}
}
