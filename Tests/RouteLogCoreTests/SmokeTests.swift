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
