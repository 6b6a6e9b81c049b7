// The store's record decoder: event records (format 3), blocks of events (format 4), session rows
// and snapshots as they sit in LMDB.
//
// The first byte picks the record type; the rest is the record. Rows and snapshots end with a
// checksum of everything before it, which random bytes never match, so the harness seals the
// input itself and the decoder's checks after the seal are reached.

@_spi(Tools) @testable import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB

func fuzzRecord(_ buffer: UnsafeRawBufferPointer) {
    guard let selector = buffer.first else { return }
    let body = UnsafeRawBufferPointer(rebasing: buffer.dropFirst())
    switch selector % 4 {
    case 0: fuzzEventRecord(body, chained: selector & 0x80 != 0)
    case 3: fuzzBlock(body)
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

/// A block of events (format 4), sealed with its checksum chained to zero (a session's first
/// block) so that the decoder's checks after the checksum are reached: a block that parses keeps
/// its fields, its entries decode (outcome and payload, the call sites `fuzzSite(_:)`, the time
/// base 0) and re-encode to the same bytes, and a refusal is one line.
func fuzzBlock(_ body: UnsafeRawBufferPointer) {
    var sealed = Array(body)
    sealed += withUnsafeBytes(of: chainedChecksum(previous: .zero, body).hi.bigEndian) { Array($0) }
    sealed += withUnsafeBytes(of: chainedChecksum(previous: .zero, body).lo.bigEndian) { Array($0) }
    sealed.withUnsafeBytes { bytes in
        do throws(BinaryDecodingError) {
            let raw = try BlockCodec.parse(bytes, previous: .zero)
            check(raw.computedChecksum == raw.storedChecksum, "a sealed block fails its checksum")
            check(BlockCodec.storedChecksum(bytes) == raw.storedChecksum, "a block's stored checksum is not its last 16 bytes")
            var r = BinaryReader(raw.body)
            var again = BinaryWriter()
            var base: Int64 = 0
            for _ in 0..<raw.count {
                let code = try r.readByte()
                guard let outcome = Outcome(wireCode: code) else { return }
                let event = try StoredPayload.read(&r, base: base, site: fuzzSite)
                again.writeByte(outcome.wireCode)
                StoredPayload.write(event.meta, base: base, site: event.meta.callSite.map { UInt32($0.line) },
                                    event: StoredPayload.eventBody(event.event), into: &again)
                base = StoredPayload.advance(base, time: event.meta.timestamp)
            }
            guard r.isAtEnd else { return }
            check(again.bytes.elementsEqual(raw.body), "a block's entries re-encode to different bytes")
            let block = BlockCodec.encode(count: raw.count, digest: raw.digest, body: again.bytes, previous: .zero)
            check(block.bytes.elementsEqual(bytes), "a block re-encodes to different bytes")
        } catch {
            checkOneLine(error.message, "block")
        }
    }
}
