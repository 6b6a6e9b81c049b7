import RouteLogCore

/// How the baselines encode an event's bytes.
///
/// Canonical JSON text until the core's binary codec is available on this branch.
public enum EventBytes {
    public static let encodingName = "canonical JSON"

    public static func encode(_ event: RecordedEvent) -> [UInt8] { Array(event.canonicalJSON.utf8) }

    public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> RecordedEvent {
        let value = try JSONValue(parsing: Array(bytes))
        return try RecordedEvent(json: value)
    }
}
