@_spi(Tools) import RouteLogCore

/// What the journals held when a log opened: for a read-write log, what it recovered; for a
/// read-only one, what it shows beside the store (see ``LMDBEventLog/journaled(_:)``).
@_spi(Tools) public struct JournalRecovery: Hashable, Sendable {
    /// A journal whose events were moved into its session (or, read-only, are shown).
    public struct Recovered: Hashable, Sendable {
        public var session: SessionID
        public var run: Int
        /// The events moved, and the seqs they took.
        public var count: UInt64
        public var firstSeq: UInt64
        public var lastSeq: UInt64
        /// The bytes the journal's entries took (all of its entries, recovered or not).
        public var journalBytes: Int
        /// The journal's entries, recovered or already in the store.
        public var journalEntries: Int
    }

    public var recovered: [Recovered] = []
    /// One line per journal that could not be (fully) recovered: a damaged entry with entries
    /// after it (what comes before it is recovered, nothing after it), events that do not fold to
    /// their journaled digests, or a failed write (say, a full disk: the journal stays and the
    /// next read-write open tries again).
    public var problems: [String] = []
    /// Journals of live writers (in this process or another), left alone.
    public var skippedLive = 0
}
