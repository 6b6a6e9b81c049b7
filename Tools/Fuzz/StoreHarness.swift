// The store's record decoder: event records, session rows and snapshots as they sit in LMDB.
//
// The first byte picks the record type; the rest is the record. Rows and snapshots end with a
// checksum of everything before it, which random bytes never match, so the harness seals the
// input itself and the decoder's checks after the seal are reached.

func fuzzRecord(_ buffer: UnsafeRawBufferPointer) {
    guard let selector = buffer.first else { return }
    let body = UnsafeRawBufferPointer(rebasing: buffer.dropFirst())
    switch selector % 3 {
    case 0: fuzzEventRecord(body)
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

/// The bytes followed by their checksum, as the store seals rows and snapshots.
func sealed(_ body: UnsafeRawBufferPointer) -> [UInt8] {
    var sink = ByteSink(capacity: body.count + 16)
    sink.raw(Array(body))
    sink.seal()
    return sink.bytes
}

/// An event record: the fast parser and the field-by-field one agree on every input, a record's
/// checksum is computed over what precedes it, and a decodable payload re-encodes exactly.
func fuzzEventRecord(_ bytes: UnsafeRawBufferPointer) {
    let fast = Result { () throws(ByteSourceError) in try RecordCodec.parse(bytes) }
    let slow = Result { () throws(ByteSourceError) in try RecordCodec.parseChecked(bytes) }
    switch (fast, slow) {
    case (.success(let a), .success(let b)):
        check(a.kind == b.kind && a.outcome == b.outcome && a.previousHash == b.previousHash && a.digest == b.digest
              && a.storedChecksum == b.storedChecksum && a.computedChecksum == b.computedChecksum
              && a.payload.elementsEqual(b.payload), "the two record parsers disagree")
        if let event = try? PayloadCodec.decodeEvent(a.payload) {
            check(PayloadCodec.encode(event).elementsEqual(a.payload), "a record's payload re-encodes to different bytes")
        }
    case (.failure(let a), .failure(let b)):
        check(a.message == b.message, "the two record parsers give different errors: \(a.message) / \(b.message)")
        checkOneLine(a.message, "record")
    default:
        fatalError("one record parser accepts what the other refuses: \(fast) / \(slow)")
    }
}
