@_spi(Tools) import RouteLogCore
import Testing

// The reducer rules of tabs and resets, and the precedence of rejection reasons (see
// ReducerTests.swift; the builders are in ReducerTestSupport.swift).

// MARK: - setTabs and selectTab

@Suite("Reducer: setTabs, selectTab")
struct TabRuleTests {
    @Test func setTabsWithoutTabsMovesTheRootIntoTheSelectedTab() {
        let given = state(["a"], sheet(1, "s", ["x"]))
        assertApply(given, .setTabs(["feed", "inbox"], selected: "inbox"), .applied(),
                    tabs([("feed", frame()), ("inbox", frame(["a"], sheet(1, "s", ["x"])))], selected: "inbox"))
        assertApply(given, .setTabs(["feed", "inbox"]), .applied(),
                    tabs([("feed", frame(["a"], sheet(1, "s", ["x"]))), ("inbox", frame())], selected: "feed"))
    }

    @Test func setTabsKeepsFramesByIDAndDropsRemovedTabs() {
        let given = tabs([("a", frame(["a1"])), ("b", frame(["b1"], sheet(5, "s"))), ("c", frame(["c1"]))], selected: "a")
        assertApply(given, .setTabs(["c", "a", "d"]), .applied(), tabs([("c", frame(["c1"])), ("a", frame(["a1"])), ("d", frame())], selected: "a"))
        assertApply(given, .setTabs(["c", "a"], selected: "c"), .applied(), tabs([("c", frame(["c1"])), ("a", frame(["a1"]))], selected: "c"))
    }

    @Test func setTabsRemovingTheSelectedTabSelectsTheFirst() {
        let given = tabs([("a", frame(["a1"])), ("b", frame(["b1"]))], selected: "b")
        assertApply(given, .setTabs(["c", "a"]), .applied(), tabs([("c", frame()), ("a", frame(["a1"]))], selected: "c"))
    }

    @Test func setTabsWithNoEmptyOrDuplicateIDsIsInvalid() {
        assertApply(state(["a"]), .setTabs([]), .rejected(.invalidTabs))
        assertApply(state(["a"]), .setTabs(["a", ""]), .rejected(.invalidTabs))
        assertApply(state(["a"]), .setTabs(["a", "a"]), .rejected(.invalidTabs))
    }

    @Test func setTabsSelectingAnUnknownTabIsRejected() {
        assertApply(state(["a"]), .setTabs(["a", "b"], selected: "c"), .rejected(.unknownTab))
    }

    @Test func selectTabSwitchesTheActiveChain() {
        let given = tabs([("a", frame(["a1"])), ("b", frame([], sheet(2, "s")))], selected: "a")
        assertApply(given, .selectTab("b"), .applied(), tabs([("a", frame(["a1"])), ("b", frame([], sheet(2, "s")))], selected: "b"))
        var after = given
        after.apply(.selectTab("b"), seq: 3)
        assertApply(after, .push(r("x")), .applied(), tabs([("a", frame(["a1"])), ("b", frame([], sheet(2, "s", ["x"])))], selected: "b"))
    }

    @Test func selectTabOfTheSelectedTabChangesNothing() {
        let given = tabs([("a", frame(["a1"])), ("b", frame())], selected: "a")
        assertApply(given, .selectTab("a"), .applied(), given)
    }

    @Test func selectTabOfAnUnknownTabIsRejected() {
        assertApply(tabs([("a", frame())], selected: "a"), .selectTab("z"), .rejected(.unknownTab))
        assertApply(state(["a"]), .selectTab("a"), .rejected(.unknownTab))
    }

    @Test func selectTabOfAnEmptyIDIsInvalid() {
        assertApply(tabs([("a", frame())], selected: "a"), .selectTab(""), .rejected(.invalidTabs))
    }
}

// MARK: - reset

@Suite("Reducer: reset")
struct ResetRuleTests {
    @Test func resetReplacesTheWholeState() {
        let target = tabs([("inbox", frame(["thread"], sheet(3, "reply"))), ("settings", frame())], selected: "inbox")
        assertApply(state(["a"], sheet(1, "s", ["x"])), .reset(target), seq: 5, .applied(), target)
        assertApply(target, .reset(NavigationState()), seq: 6, .applied(), NavigationState())
    }

    @Test func resetToAStateThatBreaksAnInvariantIsInvalid() {
        let given = state(["a"], sheet(1, "s"))
        let broken: [(String, NavigationState)] = [
            ("duplicate tokens", state([], sheet(1, "x", [], sheet(1, "y")))),
            ("a leaf with content", state([], Presentation(token: 1, route: r("e"), style: .alert, content: frame(["x"])))),
            ("an empty route id in a path", state([""])),
            ("an empty presented route id", state([], sheet(1, ""))),
            ("a missing selected tab", tabs([("a", frame())], selected: "b")),
            ("duplicate tab ids", tabs([("a", frame()), ("a", frame())], selected: "a")),
            ("an empty tab id", tabs([("", frame())], selected: "")),
            ("no tabs", tabs([], selected: "")),
        ]
        for (what, b) in broken {
            #expect(!b.validate().isEmpty, "\(what)")
            assertApply(given, .reset(b), seq: 10, .rejected(.invalidState))
        }
    }

    @Test func resetWithATokenBeyondItsSeqIsInvalid() {
        assertApply(state(["a"]), .reset(state([], sheet(9, "restored"))), seq: 2, .rejected(.invalidState))
        assertApply(state(["a"]), .reset(state([], sheet(2, "restored"))), seq: 2, .applied(), state([], sheet(2, "restored")))
    }
}

// MARK: - Precedence and edge cases

@Suite("Reducer: precedence")
struct PrecedenceTests {
    @Test func malformedEventsComeFirst() {
        let alertOnRoot = state([], alert(1, "e"))
        assertApply(alertOnRoot, .push(r(""), frame: .presentation(42)), .rejected(.emptyRouteID))
        assertApply(alertOnRoot, .show(r(""), style: .sheet, placement: .in(.presentation(42))), .rejected(.emptyRouteID))
        assertApply(alertOnRoot, .show(r(""), style: .sheet, placement: .onTop), .rejected(.emptyRouteID))
        assertApply(alertOnRoot, .pop(count: 0, frame: .presentation(42)), .rejected(.invalidCount))
        assertApply(alertOnRoot, .pop(count: 0), .rejected(.invalidCount))
        assertApply(state(), .setTabs(["a", "a"], selected: "z"), .rejected(.invalidTabs))
        assertApply(state([], sheet(1, "s", [], sheet(2, "t"))), .reset(state([], sheet(7, "x"))), seq: 3, .rejected(.invalidState))
    }

    @Test func unresolvableTargetsComeBeforeBlockedByAlertAndStateChecks() {
        let alertOnRoot = state([], alert(1, "e"))
        assertApply(alertOnRoot, .pop(count: 5, frame: .presentation(42)), .rejected(.unknownFrame))
        assertApply(alertOnRoot, .popToRoot(frame: .presentation(1)), .rejected(.unknownFrame))
        assertApply(state(), .selectTab("z"), .rejected(.unknownTab))
    }

    @Test func blockedByAlertComesBeforeStackTooShortAndAlreadyAtRoot() {
        let alertOnRoot = state(["a"], alert(1, "e"))
        assertApply(alertOnRoot, .pop(count: 5), .rejected(.blockedByAlert))
        assertApply(state([], alert(1, "e")), .popToRoot(), .rejected(.blockedByAlert))
    }

    @Test func inPlaceWinsOverBlockedByAlert() {
        let given = state([], sheet(1, "editor", [], alert(2, "saveFailed")))
        let retried = RouteRef(id: "saveFailed", payload: RawJSON(.object(["attempt": .int(2)])))
        assertApply(given, .show(retried, style: .alert, placement: .onTop), seq: 3, .applied(.updatedInPlace),
                    state([], sheet(1, "editor", [], Presentation(token: 2, route: retried, style: .alert))))
        // Same id, other style: not in place, so blocked.
        assertApply(given, .show(r("saveFailed"), style: .confirmationDialog, placement: .onTop), .rejected(.blockedByAlert))
    }

    @Test func interactiveDismissWithNothingPresentedIsStale() {
        assertApply(state(["a"]), .interactiveDismiss(), .rejected(.stale))
        assertApply(state(["a"]), .interactiveDismiss(token: 1), .rejected(.stale))
    }

    @Test func dismissOfATokenNotInTheChainIsUnknownTokenEvenWithNothingPresented() {
        assertApply(state(["a"]), .dismiss(.token(1)), .rejected(.unknownToken))
    }

    @Test func staleComesBeforeNotInteractiveAndNotDismissible() {
        assertApply(state([], cover(1, "locked", dismissible: false)), .interactiveDismiss(token: 5), .rejected(.stale))
    }

    @Test func notInteractiveComesBeforeNotDismissible() {
        assertApply(state([], cover(1, "locked", dismissible: false)), .interactiveDismiss(), .rejected(.notInteractive))
    }
}
