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

@Test(arguments: [SessionGenerator.Mix.realistic, .adversarial])
func generatedSessionsKeepInvariantsAndDigest(mix: SessionGenerator.Mix) throws {
    for seed in UInt64(1)...20 {
        var g = SessionGenerator(seed: seed, mix: mix)
        var r = Replayer()
        var outcomes: [String: Int] = [:]
        for i in 0..<2000 {
            let before = r.state
            let e = g.next()
            let step = r.apply(e)
            outcomes[step.outcome.description, default: 0] += 1
            if !step.outcome.isApplied { #expect(r.state == before, "seed \(seed) event \(i)") }
            #expect(r.state.validate().isEmpty, "seed \(seed) event \(i): \(r.state.validate())")
            #expect(r.state.digest == r.state.computeDigest(), "seed \(seed) event \(i) \(e)")
            let json = try NavigationState(jsonText: r.state.canonicalJSON)
            #expect(json == r.state && json.digest == r.state.digest, "seed \(seed) event \(i)")
            let ev = try Event(jsonText: e.canonicalJSON)
            #expect(ev == e, "seed \(seed) event \(i): \(e.canonicalJSON)")
        }
        if seed == 1 { print(mix, outcomes.sorted { $0.key < $1.key }) }
    }
}
