@_spi(Tools) import RouteLogCore

/// How the baselines encode an event's bytes: the core's ``BinaryCodec`` (what the store keeps).
public enum EventBytes {
    public static let encodingName = "BinaryCodec"

    public static func encode(_ event: RecordedEvent) -> [UInt8] { BinaryCodec.encode(event) }

    public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> RecordedEvent {
        try BinaryCodec.decodeRecordedEvent(bytes)
    }
}
