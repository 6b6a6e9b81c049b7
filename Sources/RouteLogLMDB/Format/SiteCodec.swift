@_spi(Tools) import RouteLogCore

/// The entries of the `sites` database: the call sites of a session's events, by index.
enum SiteCodec {
    /// The key of a session's call site: the session's prefix and the big-endian index.
    static func key(_ prefix: [UInt8], _ index: UInt32) -> [UInt8] { prefix + StoreKey.number(index) }

    /// The index of a call-site key, if it belongs to the session with `prefix`.
    static func index(_ key: UnsafeRawBufferPointer, session prefix: [UInt8]) -> UInt32? {
        guard key.count == prefix.count + 4, key.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        return UInt32(bigEndian: key.loadUnaligned(fromByteOffset: prefix.count, as: UInt32.self))
    }

    static func encode(_ site: CallSite, key: [UInt8]) -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.writeString(site.file)
        w.writeZigZag(Int64(site.line))
        w.write(checksum(key + w.bytes))
        return w.bytes
    }

    /// Decodes an entry stored under `key`, checking its checksum.
    static func decode(_ bytes: UnsafeRawBufferPointer, key: [UInt8]) throws(BinaryDecodingError) -> CallSite {
        guard bytes.count >= 17 else {
            throw BinaryDecodingError(offset: 0, message: "\(bytes.count) bytes, too short for a call site")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var seal = BinaryReader(bytes, offset: body.count)
        guard checksum(key + Array(body)) == (try seal.readDigest()) else {
            throw BinaryDecodingError(offset: body.count, message: "checksum mismatch")
        }
        var r = BinaryReader(body)
        try r.readRecordFormat("call site")
        let file = try r.readString()
        let l = r.offset
        guard let line = Int(exactly: try r.readZigZag()) else { throw r.error("call-site line out of range", at: l) }
        try r.expectEnd()
        return CallSite(file: file, line: line)
    }
}
