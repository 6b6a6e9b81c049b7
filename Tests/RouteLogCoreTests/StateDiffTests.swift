import Testing
import RouteLogCore

/// Folds `events` from the empty state (seqs from 1).
private func fold(_ events: [Event]) -> NavigationState {
    replay(events).state
}

private func r(_ id: String) -> RouteRef { RouteRef(id: id) }

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
}
