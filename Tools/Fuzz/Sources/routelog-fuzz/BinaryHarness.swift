// The binary event and state decoders. On any input:
// - decoding never traps (a trap or sanitizer report is a finding);
// - whatever decodes re-encodes to exactly the same bytes (one encoding per value);
// - a decoded state is valid, and a decoded event folds with a consistent digest.

@_spi(Tools) @testable import RouteLogCore

func fuzzBinary(_ buffer: UnsafeRawBufferPointer) {
    if let e = try? BinaryCodec.decodeRecordedEvent(buffer) {
        check(BinaryCodec.encode(e).elementsEqual(buffer), "a decoded event re-encodes to different bytes")
        var s = NavigationState()
        _ = s.apply(e.event, seq: 1_000_000)
        check(s.computeDigest() == s.digest, "digest mismatch after \(e.event.canonicalJSON)")
        check(s.validate().isEmpty, "an event made an invalid state: \(e.event.canonicalJSON)")
        _ = e.canonicalJSON
    }
    if let e = try? BinaryCodec.decodeEvent(buffer) {
        check(BinaryCodec.encode(e).elementsEqual(buffer), "a decoded bare event re-encodes to different bytes")
    }
    if let s = try? BinaryCodec.decodeState(buffer) {
        check(BinaryCodec.encode(s).elementsEqual(buffer), "a decoded state re-encodes to different bytes")
        check(s.validate().isEmpty, "decodeState returned an invalid state")
        check(s.computeDigest() == s.digest, "a decoded state's digest is not its computed digest")
        _ = s.canonicalJSON
    }
    if let o = try? BinaryCodec.decodeOutcome(buffer) {
        check(BinaryCodec.encode(o).elementsEqual(buffer), "a decoded outcome re-encodes to different bytes")
    }
}
