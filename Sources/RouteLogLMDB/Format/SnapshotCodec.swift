@_spi(Tools) import RouteLogCore

/// The byte layout of a snapshot in the `snapshots` database: a state with its digest, sealed.
enum SnapshotCodec {
    static func encode(_ state: NavigationState) -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.write(state.digest)
        w.writeBytes(BinaryCodec.encode(state))
        w.seal()
        return w.bytes
    }

    /// Decodes a snapshot and checks its checksum and that the state's digest is the stored one.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> NavigationState {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("snapshot")
        let digest = try r.readDigest()
        let payload = try r.readBytes()
        let at = r.offset - payload.count
        try r.expectEnd()
        let state: NavigationState
        do { state = try BinaryCodec.decodeState(payload) } catch {
            throw BinaryDecodingError(offset: at + error.offset, message: "state: \(error.message)")
        }
        guard state.digest == digest else {
            throw r.error("state digest \(state.digest.short) differs from the stored \(digest.short)", at: 1)
        }
        return state
    }
}
