// libFuzzer harness for the binary decoder. Built by run.sh together with RouteLogCore's sources
// as one module (so it can reach internal API). Checks, on any input:
// - decoding never traps (a trap or sanitizer report is a finding);
// - whatever decodes re-encodes to exactly the same bytes (one encoding per value);
// - a decoded state is valid, and a decoded event folds with a consistent digest.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    if let e = try? BinaryCodec.decodeRecordedEvent(buffer) {
        if !BinaryCodec.encode(e).elementsEqual(buffer) { fatalError("a decoded event re-encodes to different bytes") }
        var s = NavigationState()
        _ = s.apply(e.event, seq: 1_000_000)
        if s.computeDigest() != s.digest { fatalError("digest mismatch after \(e.event.canonicalJSON)") }
        _ = e.canonicalJSON
    }
    if let s = try? BinaryCodec.decodeState(buffer) {
        if !BinaryCodec.encode(s).elementsEqual(buffer) { fatalError("a decoded state re-encodes to different bytes") }
        if !s.validate().isEmpty { fatalError("decodeState returned an invalid state") }
        _ = s.canonicalJSON
    }
    return 0
}
