import RouteLogCore

/// How event payloads and snapshot states are encoded inside records: the core's
/// `BinaryCodec` (which starts each encoding with its own format version).
enum PayloadCodec {
    static func encode(_ event: RecordedEvent) -> [UInt8] {
        BinaryCodec.encode(event)
    }

    static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> RecordedEvent {
        do {
            return try BinaryCodec.decodeRecordedEvent(bytes)
        } catch {
            throw ByteSourceError(message: "undecodable event payload: \(error)")
        }
    }

    static func encode(_ state: NavigationState) -> [UInt8] {
        BinaryCodec.encode(state)
    }

    static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> NavigationState {
        do {
            return try BinaryCodec.decodeState(bytes)
        } catch {
            throw ByteSourceError(message: "undecodable state: \(error)")
        }
    }
}
