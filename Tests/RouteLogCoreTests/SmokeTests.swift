import Testing
import RouteLogCore

@Test func pushShowDismissSmoke() throws {
    var s = NavigationState()
    #expect(s.apply(.push(RouteRef(id: "a")), seq: 1) == .applied())
    #expect(s.apply(.show(RouteRef(id: "sheet"), style: .sheet), seq: 2) == .applied())
    #expect(s.apply(.push(RouteRef(id: "inner")), seq: 3) == .applied())
    #expect(s.root.presented?.content?.path.map(\.id) == ["inner"])
    #expect(s.digest == s.computeDigest())
    #expect(s.apply(.interactiveDismiss(token: 7), seq: 4) == .rejected(.stale))
    #expect(s.apply(.interactiveDismiss(token: 2), seq: 5) == .applied())
    #expect(s.digest == s.computeDigest())
    #expect(s.digest == { var t = NavigationState(); t.apply(.push(RouteRef(id: "a")), seq: 1); return t.digest }())
    let text = s.canonicalJSON
    #expect(text == #"{"root":{"path":[{"id":"a"}],"presented":null}}"#)
    #expect(try NavigationState(jsonText: text) == s)
}

/// The deepest chain the binary codec accepts also survives canonical JSON, so any stored state can be exported.
@Test func deepestBinaryChainRoundTripsThroughJSON() throws {
    var s = NavigationState()
    for seq in 1...UInt64(BinaryCodec.maxNesting - 1) {
        #expect(s.apply(.show(RouteRef(id: "sheet\(seq)"), style: .sheet, placement: .onTop), seq: seq) == .applied())
    }
    let viaBinary = try BinaryCodec.decodeState(BinaryCodec.encode(s))
    #expect(viaBinary == s)
    let viaJSON = try NavigationState(jsonText: s.canonicalJSON)
    #expect(viaJSON == s && viaJSON.digest == s.digest)
}
