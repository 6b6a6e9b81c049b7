/// An event with its metadata, as it is stored and exported.
public struct RecordedEvent: Hashable, Sendable {
    public var event: Event
    public var meta: EventMetadata
    public init(_ event: Event, meta: EventMetadata = EventMetadata()) {
        self.event = event
        self.meta = meta
    }
}
