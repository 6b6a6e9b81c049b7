import RouteLogCore

/// How event payloads and snapshot states are encoded inside records: the one place that names
/// the codec.
enum PayloadCodec {
    static func encode(_ event: RecordedEvent) -> [UInt8] {
        Array(event.canonicalJSON.utf8)
    }

    static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> RecordedEvent {
        do {
            return try RecordedEvent(jsonText: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ByteSourceError(message: "undecodable event payload: \(error)")
        }
    }

    static func encode(_ state: NavigationState) -> [UInt8] {
        Array(state.canonicalJSON.utf8)
    }

    static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> NavigationState {
        do {
            return try NavigationState(jsonText: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw ByteSourceError(message: "undecodable state: \(error)")
        }
    }
}
