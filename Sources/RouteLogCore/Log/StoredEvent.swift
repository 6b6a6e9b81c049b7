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
