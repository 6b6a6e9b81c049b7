import Testing
@_spi(Tools) import RouteLogCore

/// Folds `events` from the empty state (seqs from 1).
private func fold(_ events: [Event]) -> NavigationState {
    replay(events).state
}

/// The changes of a diff as `(path, kind, old, new)` with canonical JSON text, for exact comparison.
private func rows(_ a: NavigationState, _ b: NavigationState) -> [String] {
    StateDiff.between(a, b).changes.map { c in
        "\(c.path) \(c.kind.rawValue) \(c.old?.canonicalText ?? "-") \(c.new?.canonicalText ?? "-")"
    }
}

@Suite struct StateDiffTests {
    @Test func equalStatesHaveNoChanges() {
        let s = fold([.push(r("a")), .show(r("s"), style: .sheet), .push(r("in"))])
        let d = StateDiff.between(s, s)
        #expect(d.isEmpty)
        #expect(d.changes.isEmpty)
        #expect(d.text() == "")
        #expect(d.json.canonicalText == #"{"changes":[]}"#)
    }

    @Test func pushIsOneAddedPathElement() {
        let a = fold([.push(r("a"))])
        let b = fold([.push(r("a")), .push(RouteRef(id: "b", type: "AppRoute", payload: RawJSON(.object(["n": .int(1)]))))])
        #expect(rows(a, b) == [#"root.path[1] added - {"id":"b","payload":{"n":1},"type":"AppRoute"}"#])
        #expect(StateDiff.between(a, b).changes.first?.kind == .added)
    }

    @Test func popOfTwoIsTwoRemovedElements() {
        let a = fold([.push(r("a")), .push(r("b")), .push(r("c"))])
        let b = fold([.push(r("a")), .push(r("b")), .push(r("c")), .pop(count: 2)])
        #expect(rows(a, b) == [
            #"root.path[1] removed {"id":"b"} -"#,
            #"root.path[2] removed {"id":"c"} -"#,
        ])
    }

    @Test func routeFieldsChangedAtTheSameIndex() {
        let a = NavigationState(root: Frame(path: [r("a"), RouteRef(id: "b", payload: RawJSON(.int(1)))]))
        let b = NavigationState(root: Frame(path: [r("a"), RouteRef(id: "c", type: "T", payload: RawJSON(.int(2)))]))
        #expect(rows(a, b) == [
            #"root.path[1].id changed "b" "c""#,
            #"root.path[1].type added - "T""#,
            #"root.path[1].payload changed 1 2"#,
        ])
    }

    @Test func showAddsThePresentationToItsFrame() {
        let a = fold([.push(r("a"))])
        let b = fold([.push(r("a")), .show(r("s"), style: .sheet)])
        #expect(rows(a, b) == [
            #"root.presented added - {"content":{"path":[],"presented":null},"dismissible":true,"route":{"id":"s"},"style":"sheet","token":2}"#,
        ])
    }

    @Test func pushInsideASheetIsAddressedByToken() {
        let base: [Event] = [.push(r("a")), .show(r("s"), style: .sheet)]
        #expect(rows(fold(base), fold(base + [.push(r("in"))])) == [#"presented#2.path[0] added - {"id":"in"}"#])
    }

    @Test func sheetOnSheetIsPresentedOfTheContentFrame() {
        let base: [Event] = [.show(r("s"), style: .sheet)]
        let b = fold(base + [.show(r("alert"), style: .alert, placement: .onTop)])
        #expect(rows(fold(base), b) == [
            #"presented#1.presented added - {"content":null,"dismissible":true,"route":{"id":"alert"},"style":"alert","token":2}"#,
        ])
    }

    @Test func inPlaceUpdateChangesFieldsUnderTheSameToken() {
        let base: [Event] = [.show(RouteRef(id: "editor", payload: RawJSON(.string("composer"))), style: .sheet), .push(r("in"))]
        let b = fold(base + [.show(RouteRef(id: "editor", payload: RawJSON(.string("profile"))), style: .sheet, dismissible: false)])
        #expect(rows(fold(base), b) == [
            #"presented#1.route.payload changed "composer" "profile""#,
            #"presented#1.dismissible changed true false"#,
        ])
    }

    @Test func replacingShowsTheWholeOldAndNewPresentation() {
        let base: [Event] = [.show(r("s"), style: .sheet)]
        let b = fold(base + [.show(r("t"), style: .popover)])
        let d = StateDiff.between(fold(base), b)
        #expect(d.changes.map(\.path) == ["root.presented"])
        #expect(d.changes.first?.kind == .changed)
        #expect(d.changes.first?.old?["token"] == .int(1))
        #expect(d.changes.first?.new?["token"] == .int(2))
        #expect(d.changes.first?.new?["style"] == .string("popover"))
    }

    @Test func dismissRemovesThePresentationWithItsContent() {
        let base: [Event] = [.push(r("a")), .show(r("s"), style: .sheet), .push(r("in"))]
        let d = StateDiff.between(fold(base), fold(base + [.dismiss()]))
        #expect(d.changes.count == 1)
        #expect(d.changes.first?.path == "root.presented")
        #expect(d.changes.first?.kind == .removed)
        #expect(d.changes.first?.old?["content"]?["path"] == .array([.object(["id": .string("in")])]))
        #expect(d.changes.first?.new == nil)
    }

    @Test func tabsAppearSelectAndDrop() {
        let noTabs: [Event] = [.push(r("a"))]
        let withTabs = noTabs + [.setTabs(["home", "search"])]
        #expect(rows(fold(noTabs), fold(withTabs)) == [
            #"tabs added - ["home","search"]"#,
            #"selectedTab added - "home""#,
            #"root removed {"path":[{"id":"a"}],"presented":null} -"#,
            #"tabs[home] added - {"path":[{"id":"a"}],"presented":null}"#,
            #"tabs[search] added - {"path":[],"presented":null}"#,
        ])
        let selected = withTabs + [.selectTab("search")]
        #expect(rows(fold(withTabs), fold(selected)) == [#"selectedTab changed "home" "search""#])
        let pushed = selected + [.push(r("q")), .show(r("f"), style: .sheet)]
        #expect(rows(fold(selected), fold(pushed)) == [
            #"tabs[search].path[0] added - {"id":"q"}"#,
            #"tabs[search].presented added - {"content":{"path":[],"presented":null},"dismissible":true,"route":{"id":"f"},"style":"sheet","token":5}"#,
        ])
        let dropped = pushed + [.setTabs(["home"])]
        #expect(rows(fold(pushed), fold(dropped)) == [
            #"tabs changed ["home","search"] ["home"]"#,
            #"selectedTab changed "search" "home""#,
            #"tabs[search] removed {"path":[{"id":"q"}],"presented":{"content":{"path":[],"presented":null},"dismissible":true,"route":{"id":"f"},"style":"sheet","token":5}} -"#,
        ])
    }

    /// The example in the DiffBisectMinimize article.
    @Test func articleExample() {
        var r = Replayer()
        r.apply(.push(RouteRef(id: "inbox")))
        let before = r.state
        r.apply(.push(RouteRef(id: "thread")))
        r.apply(.show(RouteRef(id: "composer"), style: .sheet))
        let diff = StateDiff.between(before, r.state)
        #expect(diff.summary == """
            root.path[1]: added {"id":"thread"}
            root.presented: added {"content":{"path":[],"presented":null},"dismissible":true,"route":{"id":"composer"},"style":"sheet","token":3}
            """)
    }

    @Test func jsonForm() {
        let a = fold([.push(r("a"))])
        let b = fold([.push(r("a")), .pop(), .push(r("b"))])
        #expect(StateDiff.between(a, b).json.canonicalText
            == #"{"changes":[{"kind":"changed","new":"b","old":"a","path":"root.path[0].id"}]}"#)
        let c = fold([])
        #expect(StateDiff.between(a, c).json.canonicalText
            == #"{"changes":[{"kind":"removed","old":{"id":"a"},"path":"root.path[0]"}]}"#)
        #expect(StateDiff.between(a, c).summary == #"root.path[0]: removed {"id":"a"}"#)
    }

    @Test func textRenderingOfAPush() {
        let a = fold([.push(r("a"))])
        let b = fold([.push(r("a")), .push(r("b"))])
        let expected = """
              … (3 unchanged)
                    {
                      "id": "a"
            +       },
            +       {
            +         "id": "b"
                    }
                  ],
                  … (3 unchanged)
            """
        #expect(StateDiff.between(a, b).text() == expected)
    }

    @Test func textRenderingOfADismissWithSmallContext() {
        let base: [Event] = [.push(r("a")), .show(r("s"), style: .sheet)]
        let expected = """
              … (5 unchanged)
                    }
                  ],
            -     "presented": {
            -       "content": {
            -         "path": [],
            -         "presented": null
            -       },
            -       "dismissible": true,
            -       "route": {
            -         "id": "s"
            -       },
            -       "style": "sheet",
            -       "token": 2
            -     }
            +     "presented": null
                }
              }
            """
        #expect(StateDiff.between(fold(base), fold(base + [.dismiss()])).text(context: 2) == expected)
        // Context 0 keeps only the edited lines; a single hidden line is shown rather than collapsed.
        let zero = StateDiff.between(fold(base), fold(base + [.dismiss()])).text(context: 0)
        #expect(zero.hasPrefix("  … (7 unchanged)\n-     \"presented\": {"))
        #expect(zero.hasSuffix("+     \"presented\": null\n    … (2 unchanged)"))
    }

    /// Every change applies: patching the old state's JSON with the changes' new values at
    /// their paths is checked indirectly: equal states give no changes, and a random pair of
    /// states always yields changes whose paths are unique and whose old/new values differ.
    @Test func randomPairsGiveWellFormedChanges() {
        for seed in UInt64(1)...12 {
            var g = SessionGenerator(seed: seed, mix: .realistic)
            let events = g.events(300)
            var states: [NavigationState] = [NavigationState()]
            var rp = Replayer()
            for e in events { rp.apply(e); states.append(rp.state) }
            for i in stride(from: 0, to: states.count - 1, by: 7) {
                let a = states[i], b = states[i + 1]
                let d = StateDiff.between(a, b)
                #expect(d.isEmpty == (a == b), "seed \(seed) seq \(i + 1)")
                #expect(Set(d.changes.map(\.path)).count == d.changes.count, "seed \(seed) seq \(i + 1): \(d.summary)")
                for c in d.changes { #expect(c.old != c.new, "seed \(seed) seq \(i + 1) \(c)") }
                let text = d.text()
                #expect(d.isEmpty == text.isEmpty, "seed \(seed) seq \(i + 1)")
                // The text's unchanged and removed lines rebuild the old JSON, unchanged and added the new,
                // apart from collapsed runs; with a huge context nothing collapses.
                let full = d.text(context: 1_000_000)
                let lines = full.split(separator: "\n", omittingEmptySubsequences: false)
                let old = lines.filter { !$0.hasPrefix("+") }.map { String($0.dropFirst(2)) }.joined(separator: "\n")
                let new = lines.filter { !$0.hasPrefix("-") }.map { String($0.dropFirst(2)) }.joined(separator: "\n")
                if !d.isEmpty {
                    #expect(old == a.json.prettyText, "seed \(seed) seq \(i + 1)")
                    #expect(new == b.json.prettyText, "seed \(seed) seq \(i + 1)")
                }
            }
        }
    }

    /// Soundness and completeness: applying the changes, path by path, to the old state's JSON
    /// gives exactly the new state's JSON. Random pairs of states (adjacent and far apart) from
    /// realistic and adversarial sessions.
    @Test func changesPatchTheOldStateIntoTheNewOne() throws {
        var checked = 0
        for seed in UInt64(1)...24 {
            let mix: SessionGenerator.Mix = seed % 2 == 0 ? .adversarial : .realistic
            var g = SessionGenerator(seed: seed, mix: mix)
            var rp = Replayer()
            var states: [NavigationState] = [rp.state]
            for e in g.events(250) { rp.apply(e); states.append(rp.state) }
            var rng = SplitMix64(seed: seed)
            for k in 0..<120 {
                let i = Int(rng.next() % UInt64(states.count))
                let j = k % 2 == 0 ? min(i + 1, states.count - 1) : Int(rng.next() % UInt64(states.count))
                let d = StateDiff.between(states[i], states[j])
                var patched = states[i].json
                for c in d.changes {
                    do {
                        try JSONPatcher.apply(c, to: &patched)
                    } catch {
                        Issue.record("seed \(seed) states \(i)→\(j): \(c): \(error)")
                    }
                }
                #expect(patched == states[j].json, "seed \(seed) states \(i)→\(j):\n\(d.summary)")
                checked += 1
            }
        }
        #expect(checked == 24 * 120)
    }
}

/// Applies one ``StateDiff/Change`` to a state's JSON by interpreting its path; a test oracle.
private enum JSONPatcher {
    struct Failure: Error, CustomStringConvertible { var description: String }

    enum Step: Equatable { case key(String), index(Int) }

    static func apply(_ change: StateDiff.Change, to state: inout JSONValue) throws {
        var rest = change.path[...]
        // The first segment names a frame, a presentation, or a top-level field.
        let head: [Step]
        if rest.hasPrefix("presented#") {
            let digits = rest.dropFirst("presented#".count).prefix { $0.isNumber }
            guard let token = Int64(digits) else { throw Failure(description: "bad token") }
            guard let at = find(token: token, in: state, at: []) else { throw Failure(description: "no presentation \(token)") }
            rest = rest.dropFirst("presented#".count + digits.count)
            // Fields of the presentation itself, or its content frame.
            if rest.hasPrefix(".route") || rest.hasPrefix(".style") || rest.hasPrefix(".dismissible") || rest.hasPrefix(".content") {
                let field = try fields(rest.dropFirst())
                return try set(&state, at + field, change.new, allowCreate: true)
            }
            head = at + [.key("content")]
        } else if rest.hasPrefix("tabs[") {
            let id = rest.dropFirst(5).prefix { $0 != "]" }
            rest = rest.dropFirst(5 + id.count + 1)
            // A whole tab frame removed: the `tabs` change already dropped it.
            if rest.isEmpty, change.new == nil {
                if state["tabs"]?.arrayValue?.contains(where: { $0["id"]?.stringValue == String(id) }) == true {
                    throw Failure(description: "tab \(id) removed but still listed")
                }
                return
            }
            guard let tabs = state["tabs"]?.arrayValue, let n = tabs.firstIndex(where: { $0["id"]?.stringValue == String(id) }) else {
                throw Failure(description: "no tab \(id)")
            }
            head = [.key("tabs"), .index(n), .key("root")]
            if rest.isEmpty { return try set(&state, head, change.new, allowCreate: true) }
        } else if rest == "tabs" {
            guard case .object(var o) = state else { throw Failure(description: "state is not an object") }
            if let ids = change.new?.arrayValue {
                let old = o["tabs"]?.arrayValue ?? []
                o["tabs"] = .array(ids.map { id in old.first { $0["id"] == id } ?? .object(["id": id, "root": .null]) })
            } else {
                o["tabs"] = nil
            }
            state = .object(o)
            return
        } else if rest == "selectedTab" || rest == "root" {
            guard case .object(var o) = state else { throw Failure(description: "state is not an object") }
            o[String(rest)] = change.new
            state = .object(o)
            return
        } else if rest.hasPrefix("root") {
            rest = rest.dropFirst(4)
            head = [.key("root")]
        } else {
            throw Failure(description: "unknown path head")
        }
        // Frame-level: `.path[i]`, `.path[i].field`, `.presented`.
        if rest == ".presented" {
            return try set(&state, head + [.key("presented")], change.new ?? .null, allowCreate: false)
        }
        guard rest.hasPrefix(".path[") else { throw Failure(description: "unknown frame field \(rest)") }
        let digits = rest.dropFirst(6).prefix { $0.isNumber }
        guard let i = Int(digits) else { throw Failure(description: "bad index") }
        rest = rest.dropFirst(6 + digits.count + 1)
        var path = try get(state, head + [.key("path")]).arrayValue ?? []
        if rest.isEmpty {
            if let new = change.new {
                guard path.count == i else { throw Failure(description: "append at \(i) to \(path.count)") }
                path.append(new)
            } else {
                path = Array(path.prefix(i))
            }
            return try set(&state, head + [.key("path")], .array(path), allowCreate: false)
        }
        let field = try fields(rest.dropFirst())
        try set(&state, head + [.key("path"), .index(i)] + field, change.new, allowCreate: true)
    }

    static func fields(_ s: Substring) throws -> [Step] {
        s.split(separator: ".").map { .key(String($0)) }
    }

    static func find(token: Int64, in v: JSONValue, at: [Step]) -> [Step]? {
        switch v {
        case .object(let o):
            if o["token"] == .int(token), o["style"] != nil { return at }
            for k in JSONValue.sortedKeys(o.keys) {
                if let found = find(token: token, in: o[k]!, at: at + [.key(k)]) { return found }
            }
        case .array(let a):
            for (n, x) in a.enumerated() {
                if let found = find(token: token, in: x, at: at + [.index(n)]) { return found }
            }
        default: break
        }
        return nil
    }

    static func get(_ v: JSONValue, _ path: [Step]) throws -> JSONValue {
        var v = v
        for step in path {
            switch step {
            case .key(let k): guard let next = v[k] else { throw Failure(description: "no key \(k)") }; v = next
            case .index(let n): guard let a = v.arrayValue, a.indices.contains(n) else { throw Failure(description: "no index \(n)") }; v = a[n]
            }
        }
        return v
    }

    /// Sets (or, with `nil`, removes) the value at `path`.
    static func set(_ v: inout JSONValue, _ path: [Step], _ new: JSONValue?, allowCreate: Bool) throws {
        guard let first = path.first else {
            guard let new else { throw Failure(description: "cannot remove the root") }
            v = new
            return
        }
        switch (first, v) {
        case (.key(let k), .object(var o)):
            if path.count == 1 {
                guard allowCreate || o[k] != nil else { throw Failure(description: "no key \(k)") }
                o[k] = new
            } else {
                guard var child = o[k] else { throw Failure(description: "no key \(k)") }
                try set(&child, Array(path.dropFirst()), new, allowCreate: allowCreate)
                o[k] = child
            }
            v = .object(o)
        case (.index(let n), .array(var a)):
            guard a.indices.contains(n) else { throw Failure(description: "no index \(n)") }
            if path.count == 1, new == nil { throw Failure(description: "cannot remove an array element") }
            try set(&a[n], Array(path.dropFirst()), new, allowCreate: allowCreate)
            v = .array(a)
        default:
            throw Failure(description: "path \(path) does not fit \(v.kindName)")
        }
    }
}
