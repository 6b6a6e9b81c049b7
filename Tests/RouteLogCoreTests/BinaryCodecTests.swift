import Testing
@testable import RouteLogCore

@Suite struct BinaryCodecTests {
    @Test func recordedEventRoundTrip() throws {
        let e = RecordedEvent(.push(RouteRef(id: "inbox", type: "AppRoute", payload: RawJSON(.object(["id": .int(3)])))),
                              meta: EventMetadata(timestamp: 1_763_000_000_000, origin: .user, callSite: CallSite(file: "A.swift", line: 12), note: "é"))
        let bytes = BinaryCodec.encode(e)
        #expect(bytes.first == BinaryCodec.formatVersion)
        #expect(try BinaryCodec.decodeRecordedEvent(bytes) == e)
    }
}
