// The store's record decoder: event records, session rows and snapshots as they sit in LMDB.
//
// The first byte picks the record type; the rest is the record. Rows and snapshots end with a
// checksum of everything before it, which random bytes never match, so the harness seals the
// input itself and the decoder's checks after the seal are reached.

@_spi(Tools) @testable import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB

func fuzzRecord(_ buffer: UnsafeRawBufferPointer) {
    guard let selector = buffer.first else { return }
    let body = UnsafeRawBufferPointer(rebasing: buffer.dropFirst())
    switch selector % 3 {
    case 0: fuzzEventRecord(body, chained: selector & 0x80 != 0)
    case 1:
        let sealed = sealed(body)
        sealed.withUnsafeBytes { bytes in
            guard let row = try? SessionRow.decode(bytes, id: SessionID("00000000000000000000000000000000")) else { return }
            check(row.encode().elementsEqual(bytes), "a decoded session row re-encodes to different bytes")
        }
    default:
        let sealed = sealed(body)
        sealed.withUnsafeBytes { bytes in
            guard let state = try? SnapshotCodec.decode(bytes) else { return }
            check(state.validate().isEmpty, "a snapshot decodes to an invalid state")
            check(SnapshotCodec.encode(state).elementsEqual(bytes), "a decoded snapshot re-encodes to different bytes")
        }
    }
}

/// The call sites of the harness's session: 0 … 3 (an unknown index is a one-line error).
func fuzzSite(_ index: UInt32) throws(BinaryDecodingError) -> CallSite {
    guard index < 4 else { throw BinaryDecodingError(offset: 0, message: "call site \(index) is missing") }
    return CallSite(file: "Site\(index).swift", line: Int(index))
}

/// The bytes followed by their checksum, as the store seals rows and snapshots.
func sealed(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    var w = BinaryWriter()
    w.writeRaw(body)
    w.seal()
    return w.bytes
}

/// An event record: a parsed record's checksum is computed over the previous record's checksum
/// and what precedes it, a record that parses re-encodes to the same bytes, a decodable payload
/// re-encodes exactly, and a refusal is one line. The previous checksum is zero (a session's first
/// record) or, when `chained`, the input's first 16 bytes. The payload's time base is 0, or when
/// chained the low half of the previous checksum; the session's call sites are `fuzzSite(_:)`.
func fuzzEventRecord(_ bytes: UnsafeRawBufferPointer, chained: Bool) {
    var previous = Digest.zero
    var bytes = bytes
    if chained, bytes.count >= 16 {
        previous = Digest(hi: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                          lo: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        bytes = UnsafeRawBufferPointer(rebasing: bytes[16...])
    }
    do throws(BinaryDecodingError) {
        let r = try RecordCodec.parse(bytes, previous: previous)
        let checksumStart = bytes.count - RecordCodec.checksumSize
        check(r.computedChecksum == chainedChecksum(previous: previous, UnsafeRawBufferPointer(rebasing: bytes[0..<checksumStart])),
              "a record's checksum is not computed over the previous checksum and the bytes before it")
        check(RecordCodec.storedChecksum(bytes) == r.storedChecksum, "a record's stored checksum is not its last 16 bytes")
        if r.storedChecksum == r.computedChecksum {
            let again = RecordCodec.encode(kind: r.kind, outcome: r.outcome, previous: previous,
                                           digest: r.digest, payload: Array(r.payload))
            check(again.bytes.elementsEqual(bytes), "a sealed record re-encodes to different bytes")
        }
        let base = Int64(bitPattern: previous.lo)
        if let event = try? StoredPayload.decode(r.payload, base: base, site: fuzzSite) {
            var w = BinaryWriter()
            StoredPayload.write(event.meta, base: base, site: event.meta.callSite.map { UInt32($0.line) },
                                event: StoredPayload.eventBody(event.event), into: &w)
            check(w.bytes.elementsEqual(r.payload), "a record's payload re-encodes to different bytes")
            check((try? StoredPayload.time(r.payload, base: base)) == event.meta.timestamp, "a payload's time differs when read alone")
        }
    } catch {
        checkOneLine(error.message, "record")
    }
}
