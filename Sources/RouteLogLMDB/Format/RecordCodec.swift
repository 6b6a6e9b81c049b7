@_spi(Tools) import RouteLogCore

/// The byte layout of an event record (see StoreFormat.swift): written in place by appends, parsed
/// in place by every read.
enum RecordCodec {
    static let headerSize = 3 + 16
    static let checksumSize = 16

    static func size(payload: Int) -> Int { headerSize + payload + checksumSize }

    /// Writes a record into `out` (exactly ``size(payload:)`` bytes, LMDB's reserved space for the
    /// value) and returns its checksum, chained to `previous` (the previous record's checksum). The fixed fields are stored in place rather than through a
    /// `BinaryWriter`: appending goes through here once per event, and the copy a writer's array
    /// needs cost a quarter of the append rate.
    static func write(into out: UnsafeMutableRawBufferPointer, kind: Event.Kind, outcome: Outcome,
                      previous: Digest, digest: Digest, payload: [UInt8]) -> Digest {
        out[0] = recordFormat
        out[1] = kind.wireCode
        out[2] = outcome.wireCode
        store(digest, at: 3, in: out)
        let end = headerSize + payload.count
        payload.withUnsafeBytes { p in
            UnsafeMutableRawBufferPointer(rebasing: out[headerSize..<end]).copyMemory(from: p)
        }
        let sum = chainedChecksum(previous: previous, UnsafeRawBufferPointer(rebasing: out[0..<end]))
        store(sum, at: end, in: out)
        return sum
    }

    /// Stores a digest as `BinaryWriter.write(_:)` writes one: 16 big-endian bytes.
    private static func store(_ d: Digest, at offset: Int, in out: UnsafeMutableRawBufferPointer) {
        out.storeBytes(of: d.hi.bigEndian, toByteOffset: offset, as: UInt64.self)
        out.storeBytes(of: d.lo.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }

    /// A record as one array, and its checksum.
    static func encode(kind: Event.Kind, outcome: Outcome, previous: Digest, digest: Digest, payload: [UInt8]) -> (bytes: [UInt8], checksum: Digest) {
        var sum = Digest.zero
        let bytes = [UInt8](unsafeUninitializedCapacity: size(payload: payload.count)) { buf, count in
            sum = write(into: UnsafeMutableRawBufferPointer(buf), kind: kind, outcome: outcome, previous: previous, digest: digest, payload: payload)
            count = buf.count
        }
        return (bytes, sum)
    }

    /// Parses the structure of a record (not its checksum: see ``RawRecord/computedChecksum``,
    /// computed with `previous`, the checksum stored by the record before it).
    /// Every replay reads each record through here, so the fixed part is read in place once its
    /// size is checked, with the codec's `BinaryReader` only for the variable fields.
    static func parse(_ bytes: UnsafeRawBufferPointer, previous: Digest) throws(BinaryDecodingError) -> RawRecord {
        guard bytes.count >= headerSize + checksumSize, let base = bytes.baseAddress else {
            throw BinaryDecodingError(offset: 0, message: "truncated: \(bytes.count) bytes, shorter than the \(headerSize + checksumSize) bytes of a record without payload")
        }
        var r = BinaryReader(bytes)
        try r.readRecordFormat("record")
        let code = bytes[1]
        guard let kind = Event.Kind(wireCode: code) else { throw r.error("unknown event kind \(code)", at: 1) }
        guard let outcome = Outcome(wireCode: bytes[2]) else { throw r.error("unknown outcome \(bytes[2])", at: 2) }
        func u64(_ at: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        // The payload is what lies between the fixed header and the checksum.
        let n = bytes.count - headerSize - checksumSize
        let end = headerSize + n
        return RawRecord(kind: kind, outcome: outcome, digest: Digest(hi: u64(3), lo: u64(11)),
                         payload: UnsafeRawBufferPointer(start: base + headerSize, count: n),
                         storedChecksum: Digest(hi: u64(end), lo: u64(end + 8)),
                         computedChecksum: chainedChecksum(previous: previous, UnsafeRawBufferPointer(start: base, count: end)))
    }

    /// The checksum a record stores (its last 16 bytes), or `nil` if it is too short to be a
    /// record: the `previous` of the record after it.
    static func storedChecksum(_ bytes: UnsafeRawBufferPointer) -> Digest? {
        guard bytes.count >= headerSize + checksumSize else { return nil }
        let end = bytes.count - checksumSize
        return Digest(hi: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)),
                      lo: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end + 8, as: UInt64.self)))
    }
}
