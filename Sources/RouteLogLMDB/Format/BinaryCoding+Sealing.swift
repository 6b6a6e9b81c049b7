@_spi(Tools) import RouteLogCore

// The coding shared by the store's sealed values (session rows, run rows, snapshots): a checksum
// after the body, optional strings, and the format byte.

extension BinaryWriter {
    /// Appends the checksum of everything written so far.
    mutating func seal() { write(checksum(bytes)) }

    mutating func writeOptionalString(_ s: String?) {
        if let s { writeByte(1); writeString(s) } else { writeByte(0) }
    }
}

extension BinaryReader {
    /// A reader over the body of a sealed value, after checking that its last 16 bytes are the
    /// checksum of the bytes before them.
    static func unsealing(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> BinaryReader {
        guard bytes.count >= 16 else {
            throw BinaryDecodingError(offset: 0, message: "\(bytes.count) bytes, too short for a checksum")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var seal = BinaryReader(bytes, offset: body.count)
        guard checksum(body) == (try seal.readDigest()) else {
            throw BinaryDecodingError(offset: body.count, message: "checksum mismatch")
        }
        return BinaryReader(body)
    }

    mutating func readOptionalString(_ what: String) throws(BinaryDecodingError) -> String? {
        let at = offset
        switch try readByte() {
        case 0: return nil
        case 1: return try readString()
        case let f: throw error("\(what) flag is \(f), expected 0 or 1", at: at)
        }
    }

    /// Reads a format byte that must be ``recordFormat``.
    mutating func readRecordFormat(_ what: String) throws(BinaryDecodingError) {
        let at = offset
        let format = try readByte()
        guard format == recordFormat else {
            throw error("\(what) format \(format) is \(format > recordFormat ? "newer" : "older") than \(recordFormat)", at: at)
        }
    }
}
