@_spi(Tools) import RouteLogCore

/// The byte layout of a block of events, the value of an `events` entry in a format-4 store (see
/// StoreFormat.swift): written whole by every append that adds to it, parsed by every read.
///
///     u8 format (4) | u8 count (1...255) | 16 digest of the state after the block's last event
///     | count × (u8 outcome | payload) | 16 checksum
///
/// A payload is format 3's (``StoredPayload``), and delimits itself; the time base of a block's
/// first event is the session's creation time. The checksum is ``chainedChecksum(previous:_:)``
/// of the previous block's checksum (zero for the session's first block) and every byte before it.
enum BlockCodec {
    static let format: UInt8 = 4
    /// The fixed part before the entries: format, count and digest.
    static let headerSize = 2 + 16
    static let checksumSize = 16
    /// The most bytes a block grows to: one 4 KiB page of LMDB's (4,096 bytes less the 16-byte
    /// header of an overflow page). A block closes before an event that would take it past this,
    /// so that each full block fills one page; an event too large for an empty block gets a block
    /// of its own.
    static let capacity = 4080
    /// The most events in a block: its count is one byte.
    static let maxEvents = 255

    static func size(body: Int) -> Int { headerSize + body + checksumSize }

    /// Writes a block into `out` (exactly ``size(body:)`` bytes) and returns its checksum,
    /// chained to `previous`.
    static func write(into out: UnsafeMutableRawBufferPointer, count: Int, digest: Digest,
                      body: [UInt8], previous: Digest) -> Digest {
        precondition((1...maxEvents).contains(count), "a block holds 1 to \(maxEvents) events")
        out[0] = format
        out[1] = UInt8(count)
        out.storeBytes(of: digest.hi.bigEndian, toByteOffset: 2, as: UInt64.self)
        out.storeBytes(of: digest.lo.bigEndian, toByteOffset: 10, as: UInt64.self)
        let end = headerSize + body.count
        body.withUnsafeBytes { b in
            UnsafeMutableRawBufferPointer(rebasing: out[headerSize..<end]).copyMemory(from: b)
        }
        let sum = chainedChecksum(previous: previous, UnsafeRawBufferPointer(rebasing: out[0..<end]))
        out.storeBytes(of: sum.hi.bigEndian, toByteOffset: end, as: UInt64.self)
        out.storeBytes(of: sum.lo.bigEndian, toByteOffset: end + 8, as: UInt64.self)
        return sum
    }

    /// A block as one array, and its checksum.
    static func encode(count: Int, digest: Digest, body: [UInt8], previous: Digest) -> (bytes: [UInt8], checksum: Digest) {
        var sum = Digest.zero
        let bytes = [UInt8](unsafeUninitializedCapacity: size(body: body.count)) { buf, n in
            sum = write(into: UnsafeMutableRawBufferPointer(buf), count: count, digest: digest, body: body, previous: previous)
            n = buf.count
        }
        return (bytes, sum)
    }

    /// Parses the fixed part of a block and computes its checksum chained to `previous`; the
    /// entries are read with ``entries(of:)``.
    static func parse(_ bytes: UnsafeRawBufferPointer, previous: Digest) throws(BinaryDecodingError) -> RawBlock {
        guard bytes.count >= headerSize + checksumSize + 2, let base = bytes.baseAddress else {
            throw BinaryDecodingError(offset: 0, message: "truncated: \(bytes.count) bytes, shorter than a block of one event")
        }
        guard bytes[0] == format else {
            throw BinaryDecodingError(offset: 0, message: "block format \(bytes[0]) is \(bytes[0] > format ? "newer" : "older") than \(format)")
        }
        let count = Int(bytes[1])
        guard count >= 1 else { throw BinaryDecodingError(offset: 1, message: "a block of 0 events") }
        func u64(_ at: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        let end = bytes.count - checksumSize
        return RawBlock(count: count, digest: Digest(hi: u64(2), lo: u64(10)),
                        body: UnsafeRawBufferPointer(start: base + headerSize, count: end - headerSize),
                        storedChecksum: Digest(hi: u64(end), lo: u64(end + 8)),
                        computedChecksum: chainedChecksum(previous: previous, UnsafeRawBufferPointer(start: base, count: end)))
    }

    /// The checksum a block stores (its last 16 bytes), or `nil` if it is too short to be one.
    static func storedChecksum(_ bytes: UnsafeRawBufferPointer) -> Digest? {
        guard bytes.count >= headerSize + checksumSize + 2 else { return nil }
        let end = bytes.count - checksumSize
        return Digest(hi: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)),
                      lo: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end + 8, as: UInt64.self)))
    }
}

/// A block as stored, parsed but with its entries still encoded.
struct RawBlock {
    var count: Int
    /// The digest of the state after the block's last event.
    var digest: Digest
    /// The entries: per event its outcome code and its payload.
    var body: UnsafeRawBufferPointer
    var storedChecksum: Digest
    /// The checksum recomputed from the bytes and the previous block's checksum.
    var computedChecksum: Digest
}

/// The block a session's next events go into, as its writer keeps it (see
/// ``SessionHead/open``): the last block of the session, rewritten whole by each append that adds
/// to it.
struct OpenBlock {
    /// The seq of its first event (its key).
    var first: UInt64
    var count: Int
    /// The entries, as the block stores them.
    var body: [UInt8]
    /// The checksum of the block before it (zero for the session's first).
    var previous: Digest

    /// Writes an entry at the end of the body, in place (`entry` writes it: its outcome byte, then
    /// its payload), and returns where it starts; the count is unchanged. When the block closes
    /// before it (it holds ``BlockCodec/maxEvents`` events, or the entry takes it past
    /// ``BlockCodec/capacity``; an empty block takes any), the entry is taken off again and the
    /// result is `nil`.
    mutating func appendEntry(_ entry: (inout BinaryWriter) -> Void) -> Int? {
        let at = body.count
        BinaryWriter.appending(to: &body, entry)
        guard count > 0 && (count == BlockCodec.maxEvents || BlockCodec.size(body: body.count) > BlockCodec.capacity) else { return at }
        body.removeLast(body.count - at)
        return nil
    }
}
