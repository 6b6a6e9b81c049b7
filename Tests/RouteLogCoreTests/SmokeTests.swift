import Testing
@_spi(Tools) import RouteLogCore

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

/// The deepest chain the reducer allows survives the binary codec and canonical JSON, so any state can be stored and exported.
@Test func deepestChainRoundTripsThroughBinaryAndJSON() throws {
    var s = NavigationState()
    for seq in 1...UInt64(NavigationState.maxChainDepth) {
        #expect(s.apply(.show(RouteRef(id: "sheet\(seq)"), style: .sheet, placement: .onTop), seq: seq) == .applied())
    }
    let viaBinary = try BinaryCodec.decodeState(BinaryCodec.encode(s))
    #expect(viaBinary == s)
    let viaJSON = try NavigationState(jsonText: s.canonicalJSON)
    #expect(viaJSON == s && viaJSON.digest == s.digest)
}

/// A chain stops at maxChainDepth presentations: one more is `chainTooDeep`, state unchanged; an
/// in-place update at the limit still applies, and a state deeper than the limit is invalid.
@Test func chainDepthIsCapped() throws {
    var s = NavigationState()
    let limit = UInt64(NavigationState.maxChainDepth)
    for seq in 1...limit {
        #expect(s.apply(.show(RouteRef(id: "sheet\(seq)"), style: .sheet, placement: .onTop), seq: seq) == .applied())
    }
    let full = s
    #expect(s.apply(.show(RouteRef(id: "one-more"), style: .sheet, placement: .onTop), seq: limit + 1) == .rejected(.chainTooDeep))
    #expect(s.apply(.show(RouteRef(id: "one-more"), style: .alert, placement: .onTop), seq: limit + 2) == .rejected(.chainTooDeep))
    #expect(s == full && s.digest == full.digest)
    #expect(s.apply(.show(RouteRef(id: "sheet\(limit)"), style: .sheet, placement: .onTop), seq: limit + 3) == .applied(.updatedInPlace))
    #expect(s.apply(.show(RouteRef(id: "replacement"), style: .sheet), seq: limit + 4) == .applied())
    #expect(s.validate().isEmpty)
    #expect(s.apply(.push(RouteRef(id: "deepest")), seq: limit + 5) == .applied())

    // One level more, built by hand, breaks the invariant; a reset to it is rejected.
    var deep = Frame()
    for token in stride(from: limit + 1, through: 1, by: -1) {
        deep = Frame(presented: Presentation(token: token, route: RouteRef(id: "s\(token)"), style: .sheet, content: deep))
    }
    let tooDeep = NavigationState(root: deep)
    #expect(tooDeep.validate().map(\.path) == ["root"])
    var t = NavigationState()
    #expect(t.apply(.reset(tooDeep), seq: limit + 10) == .rejected(.invalidState))
}
