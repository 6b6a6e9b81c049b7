@_spi(Tools) import RouteLogCore

extension LMDBEventLog {
    /// Which sessions a store keeps: any combination of a session count, an age and a byte
    /// budget. Sessions go oldest first (in the order they entered the store), each in one write
    /// transaction with its events and snapshots, and never one that is being written (see
    /// ``LMDBEventLog/finishWriting(_:)``).
    ///
    /// A policy is applied when a read-write log opens the store and after each session it
    /// creates. ``app`` is the default of ``Options``; the `routelog` CLI uses ``none``.
    public struct Retention: Hashable, Sendable {
        /// Keep at most this many sessions.
        public var maxSessions: Int?
        /// Drop sessions whose last event (or, without events, whose entry into the store) is
        /// older than this, by the log's clock.
        public var maxAge: Duration?
        /// Keep the store's live data (the pages its databases use) under this many bytes.
        public var maxBytes: Int?

        public init(maxSessions: Int? = nil, maxAge: Duration? = nil, maxBytes: Int? = nil) {
            self.maxSessions = maxSessions
            self.maxAge = maxAge
            self.maxBytes = maxBytes
        }

        /// Keep everything.
        public static let none = Retention()
        /// The default for an app: the 50 newest sessions, none older than 30 days.
        public static let app = Retention(maxSessions: 50, maxAge: .seconds(30 * 24 * 3600))

        /// Whether the policy can delete anything.
        public var isNone: Bool { maxSessions == nil && maxAge == nil && maxBytes == nil }
    }
}
