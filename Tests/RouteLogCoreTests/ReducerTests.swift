import CustomDump
import RouteLogCore
import Testing

// One test per reducer rule of ReducerRules.md (the RouteLogCore catalog) and per precedence rule, in the style of TCA's
// reducer tests: build the state, apply one event, and assert the outcome and the WHOLE expected
// state (a failure prints a diff). `assertApply` also checks that a rejected event leaves the
// state unchanged and that the incremental digest equals the from-scratch one.

// MARK: - Builders

private func r(_ id: String) -> RouteRef { RouteRef(id: id) }

private func frame(_ path: [String] = [], _ presented: Presentation? = nil) -> Frame {
    Frame(path: path.map(r), presented: presented)
}

private func sheet(_ token: UInt64, _ id: String, _ path: [String] = [], _ presented: Presentation? = nil,
                   style: PresentationStyle = .sheet, dismissible: Bool = true) -> Presentation {
    Presentation(token: token, route: r(id), style: style, dismissible: dismissible, content: frame(path, presented))
}

private func cover(_ token: UInt64, _ id: String, _ path: [String] = [], _ presented: Presentation? = nil, dismissible: Bool = true) -> Presentation {
    sheet(token, id, path, presented, style: .fullScreenCover, dismissible: dismissible)
}

private func alert(_ token: UInt64, _ id: String, style: PresentationStyle = .alert, dismissible: Bool = true) -> Presentation {
    Presentation(token: token, route: r(id), style: style, dismissible: dismissible)
}

private func state(_ path: [String] = [], _ presented: Presentation? = nil) -> NavigationState {
    NavigationState(root: frame(path, presented))
}

private func tabs(_ tabs: [(String, Frame)], selected: String) -> NavigationState {
    NavigationState(tabs: tabs.map { Tab(id: $0.0, root: $0.1) }, selectedTab: selected)
}

/// Applies `event` at `seq` to `given` and asserts the outcome and the whole resulting state.
/// For a rejection, `expected` defaults to `given` (a rejected event changes nothing).
private func assertApply(
    _ given: NavigationState, _ event: Event, seq: UInt64 = 100,
    _ outcome: Outcome, _ expected: NavigationState? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    var s = given
    let actual = s.apply(event, seq: seq)
    #expect(actual == outcome, "\(event.canonicalJSON)", sourceLocation: location)
    let want = expected ?? given
    if !outcome.isApplied {
        #expect(expected == nil || expected == given, "a rejection's expected state must be the given state", sourceLocation: location)
    }
    expectNoDifference(s, want, "\(event.canonicalJSON)", fileID: fileID, filePath: filePath, line: line, column: column)
    // `want` was built from scratch, so its digest is the from-scratch digest.
    #expect(s.digest == want.digest, "incremental digest", sourceLocation: location)
    #expect(s.digest == s.computeDigest(), "incremental digest", sourceLocation: location)
    #expect(s.validate().isEmpty, "\(s.validate())", sourceLocation: location)
}

// MARK: - push

@Suite("Reducer: push")
struct PushRuleTests {
    @Test func appendsToTheRootWhenNothingIsPresented() {
        assertApply(state(["inbox"]), .push(r("thread")), .applied(), state(["inbox", "thread"]))
    }

    @Test func appendsToTheTopSheetsContent() {
        assertApply(state(["inbox"], sheet(1, "composer", ["to"])), .push(r("cc")), .applied(),
                    state(["inbox"], sheet(1, "composer", ["to", "cc"])))
    }

    @Test func appendsToANamedFrameBelowTheTop() {
        let given = state(["inbox"], sheet(1, "a", ["a1"], sheet(2, "b")))
        assertApply(given, .push(r("x"), frame: .root), .applied(), state(["inbox", "x"], sheet(1, "a", ["a1"], sheet(2, "b"))))
        assertApply(given, .push(r("x"), frame: .presentation(1)), .applied(), state(["inbox"], sheet(1, "a", ["a1", "x"], sheet(2, "b"))))
    }

    @Test func findsAFrameByTokenInAnotherTab() {
        let given = tabs([("home", frame()), ("search", frame([], sheet(2, "filters")))], selected: "home")
        assertApply(given, .push(r("detail"), frame: .presentation(2)), .applied(),
                    tabs([("home", frame()), ("search", frame([], sheet(2, "filters", ["detail"])))], selected: "home"))
    }

    @Test func emptyRouteIDIsRejected() {
        assertApply(state(["a"]), .push(r("")), .rejected(.emptyRouteID))
    }

    @Test func unknownFrameIsRejected() {
        let given = state([], sheet(1, "s", [], alert(2, "warn")))
        assertApply(given, .push(r("x"), frame: .presentation(7)), .rejected(.unknownFrame))
        // An alert has no content, so its token names no frame.
        assertApply(given, .push(r("x"), frame: .presentation(2)), .rejected(.unknownFrame))
    }

    @Test func aFramePresentingAnAlertOrDialogIsBlocked() {
        assertApply(state(["a"], alert(1, "error")), .push(r("b")), .rejected(.blockedByAlert))
        assertApply(state(["a"], alert(1, "error")), .push(r("b"), frame: .root), .rejected(.blockedByAlert))
        let dialog = state([], sheet(1, "s", [], alert(2, "actions", style: .confirmationDialog)))
        assertApply(dialog, .push(r("b")), .rejected(.blockedByAlert))
        assertApply(dialog, .push(r("b"), frame: .presentation(1)), .rejected(.blockedByAlert))
        // The root under the sheet presents a sheet, not an alert: not blocked.
        assertApply(dialog, .push(r("b"), frame: .root), .applied(), state(["b"], sheet(1, "s", [], alert(2, "actions", style: .confirmationDialog))))
    }
}

// MARK: - pop and popToRoot

@Suite("Reducer: pop, popToRoot")
struct PopRuleTests {
    @Test func popRemovesTheLastCountRoutes() {
        assertApply(state(["a", "b", "c"]), .pop(), .applied(), state(["a", "b"]))
        assertApply(state(["a", "b", "c"]), .pop(count: 3), .applied(), state())
        assertApply(state(["a"], sheet(1, "s", ["x", "y"])), .pop(count: 2), .applied(), state(["a"], sheet(1, "s")))
        assertApply(state(["a"], sheet(1, "s", ["x", "y"])), .pop(frame: .root), .applied(), state([], sheet(1, "s", ["x", "y"])))
    }

    @Test func popCountBelowOneIsInvalid() {
        assertApply(state(["a"]), .pop(count: 0), .rejected(.invalidCount))
        assertApply(state(["a"]), .pop(count: -3), .rejected(.invalidCount))
    }

    @Test func popMoreThanThePathIsStackTooShort() {
        assertApply(state(["a", "b"]), .pop(count: 3), .rejected(.stackTooShort))
        assertApply(state(), .pop(), .rejected(.stackTooShort))
        assertApply(state(["a", "b"], sheet(1, "s")), .pop(), .rejected(.stackTooShort))
    }

    @Test func popOnAFramePresentingAnAlertIsBlocked() {
        assertApply(state(["a"], alert(1, "e")), .pop(), .rejected(.blockedByAlert))
        assertApply(state([], sheet(1, "s", ["x"], alert(2, "e"))), .pop(frame: .presentation(1)), .rejected(.blockedByAlert))
    }

    @Test func popOnAnUnknownFrameIsRejected() {
        assertApply(state(["a"]), .pop(frame: .presentation(3)), .rejected(.unknownFrame))
    }

    @Test func popToRootEmptiesThePath() {
        assertApply(state(["a", "b"]), .popToRoot(), .applied(), state())
        assertApply(state(["a"], sheet(1, "s", ["x", "y"])), .popToRoot(), .applied(), state(["a"], sheet(1, "s")))
        assertApply(state(["a"], sheet(1, "s", ["x", "y"])), .popToRoot(frame: .root), .applied(), state([], sheet(1, "s", ["x", "y"])))
    }

    @Test func popToRootOnAnEmptyPathIsAlreadyAtRoot() {
        assertApply(state(), .popToRoot(), .rejected(.alreadyAtRoot))
        assertApply(state(["a"], sheet(1, "s")), .popToRoot(), .rejected(.alreadyAtRoot))
    }

    @Test func popToRootOnAFramePresentingAnAlertIsBlocked() {
        assertApply(state(["a"], alert(1, "e")), .popToRoot(), .rejected(.blockedByAlert))
    }

    @Test func popToRootOnAnUnknownFrameIsRejected() {
        assertApply(state(["a"]), .popToRoot(frame: .presentation(9)), .rejected(.unknownFrame))
    }
}

// MARK: - show

@Suite("Reducer: show")
struct ShowRuleTests {
    @Test func replacingTopWithNothingPresentedPresentsOnTheRoot() {
        assertApply(state(["a"]), .show(r("s"), style: .sheet), seq: 5, .applied(), state(["a"], sheet(5, "s")))
    }

    @Test func replacingTopDismissesTheTopMostWithAllItContains() {
        let given = state(["a"], sheet(1, "first", ["f1"], sheet(2, "second", ["s1", "s2"])))
        assertApply(given, .show(r("third"), style: .fullScreenCover), seq: 3, .applied(),
                    state(["a"], sheet(1, "first", ["f1"], cover(3, "third"))))
    }

    @Test func replacingTopReplacesAnAlert() {
        assertApply(state([], alert(1, "rate")), .show(r("login"), style: .sheet), seq: 2, .applied(), state([], sheet(2, "login")))
        assertApply(state([], sheet(1, "s", ["x"], alert(2, "e"))), .show(r("help"), style: .popover), seq: 3, .applied(),
                    state([], sheet(1, "s", ["x"], sheet(3, "help", style: .popover))))
    }

    @Test func onTopPresentsOnTheActiveFrame() {
        assertApply(state(), .show(r("a"), style: .sheet, placement: .onTop), seq: 1, .applied(), state([], sheet(1, "a")))
        assertApply(state([], sheet(1, "a", ["x"])), .show(r("b"), style: .sheet, dismissible: false, placement: .onTop), seq: 2, .applied(),
                    state([], sheet(1, "a", ["x"], sheet(2, "b", dismissible: false))))
        assertApply(state([], sheet(1, "a")), .show(r("e"), style: .alert, placement: .onTop), seq: 2, .applied(),
                    state([], sheet(1, "a", [], alert(2, "e"))))
    }

    @Test func onTopOfAnAlertOrDialogIsBlocked() {
        assertApply(state([], alert(1, "e")), .show(r("s"), style: .sheet, placement: .onTop), .rejected(.blockedByAlert))
        assertApply(state([], sheet(1, "s", [], alert(2, "d", style: .confirmationDialog))), .show(r("e"), style: .alert, placement: .onTop),
                    .rejected(.blockedByAlert))
    }

    @Test func inAFrameReplacesWhatThatFramePresents() {
        let given = state([], sheet(1, "b", ["b1"], cover(2, "c", ["c1"], sheet(3, "d"))))
        assertApply(given, .show(r("e"), style: .sheet, placement: .in(.presentation(1))), seq: 4, .applied(),
                    state([], sheet(1, "b", ["b1"], sheet(4, "e"))))
        assertApply(given, .show(r("e"), style: .sheet, placement: .in(.root)), seq: 4, .applied(), state([], sheet(4, "e")))
        // Below the top: the frame need not be the active one.
        assertApply(given, .show(r("e"), style: .sheet, placement: .in(.presentation(3))), seq: 4, .applied(),
                    state([], sheet(1, "b", ["b1"], cover(2, "c", ["c1"], sheet(3, "d", [], sheet(4, "e"))))))
    }

    @Test func inAFrameReplacesAnAlert() {
        assertApply(state([], sheet(1, "s", [], alert(2, "e"))), .show(r("t"), style: .sheet, placement: .in(.presentation(1))), seq: 3, .applied(),
                    state([], sheet(1, "s", [], sheet(3, "t"))))
    }

    @Test func inAnUnknownFrameIsRejected() {
        let given = state([], sheet(1, "s", [], alert(2, "e")))
        assertApply(given, .show(r("t"), style: .sheet, placement: .in(.presentation(9))), .rejected(.unknownFrame))
        assertApply(given, .show(r("t"), style: .sheet, placement: .in(.presentation(2))), .rejected(.unknownFrame))
    }

    @Test func sameIDAndStyleUpdatesInPlace() {
        let composer = RouteRef(id: "editor", type: "SheetDestination", payload: RawJSON(.object(["case": .string("composer")])))
        let editProfile = RouteRef(id: "editor", type: "SheetDestination", payload: RawJSON(.object(["case": .string("editProfile")])))
        let given = state([], Presentation(token: 1, route: composer, style: .sheet, content: frame(["mediaPicker"])))
        // Token and content kept; route and dismissible taken from the event.
        assertApply(given, .show(editProfile, style: .sheet, dismissible: false), seq: 3, .applied(.updatedInPlace),
                    state([], Presentation(token: 1, route: editProfile, style: .sheet, dismissible: false, content: frame(["mediaPicker"]))))
        // In a frame, the whole content is kept, including what it presents.
        let nested = state([], Presentation(token: 1, route: composer, style: .sheet, content: frame(["mediaPicker"], sheet(2, "picker"))))
        assertApply(nested, .show(editProfile, style: .sheet, placement: .in(.root)), seq: 3, .applied(.updatedInPlace),
                    state([], Presentation(token: 1, route: editProfile, style: .sheet, content: frame(["mediaPicker"], sheet(2, "picker")))))
    }

    @Test func sameIDOtherStyleReplaces() {
        assertApply(state([], sheet(1, "checkout", ["shipping"])), .show(r("checkout"), style: .fullScreenCover), seq: 2, .applied(),
                    state([], cover(2, "checkout")))
    }

    @Test func inPlaceAppliesToEveryPlacement() {
        let given = state([], sheet(1, "a", ["x"], sheet(2, "b", ["y"])))
        assertApply(given, .show(r("b"), style: .sheet, placement: .onTop), seq: 3, .applied(.updatedInPlace), given)
        assertApply(given, .show(r("a"), style: .sheet, placement: .in(.root)), seq: 3, .applied(.updatedInPlace), given)
        // replacingTop compares with the top-most only: "a" is not the top-most, so it replaces "b".
        assertApply(given, .show(r("a"), style: .sheet), seq: 3, .applied(), state([], sheet(1, "a", ["x"], sheet(3, "a"))))
    }

    @Test func emptyRouteIDIsRejected() {
        assertApply(state(), .show(r(""), style: .sheet), .rejected(.emptyRouteID))
    }
}

// MARK: - dismiss

@Suite("Reducer: dismiss")
struct DismissRuleTests {
    static let chain = state(["home"], sheet(1, "a", ["a1"], sheet(2, "b", ["b1"], cover(3, "c", [], alert(4, "d")))))

    @Test func topRemovesOnlyTheTopMost() {
        assertApply(Self.chain, .dismiss(), .applied(), state(["home"], sheet(1, "a", ["a1"], sheet(2, "b", ["b1"], cover(3, "c")))))
    }

    @Test func tokenRemovesThatPresentationAndEverythingAbove() {
        assertApply(Self.chain, .dismiss(.token(2)), .applied(), state(["home"], sheet(1, "a", ["a1"])))
        assertApply(Self.chain, .dismiss(.token(1)), .applied(), state(["home"]))
    }

    @Test func tokenIsFoundInAnotherTab() {
        let given = tabs([("home", frame(["h"], sheet(1, "x"))), ("search", frame([], sheet(2, "filters", ["f"])))], selected: "home")
        assertApply(given, .dismiss(.token(2)), .applied(), tabs([("home", frame(["h"], sheet(1, "x"))), ("search", frame())], selected: "home"))
    }

    @Test func allEmptiesTheSelectedChain() {
        assertApply(Self.chain, .dismiss(.all), .applied(), state(["home"]))
        let given = tabs([("home", frame(["h"], sheet(1, "x"))), ("search", frame([], sheet(2, "filters")))], selected: "home")
        assertApply(given, .dismiss(.all), .applied(), tabs([("home", frame(["h"])), ("search", frame([], sheet(2, "filters")))], selected: "home"))
    }

    @Test func nothingPresentedIsNothingToDismiss() {
        assertApply(state(["a"]), .dismiss(), .rejected(.nothingToDismiss))
        assertApply(state(["a"]), .dismiss(.all), .rejected(.nothingToDismiss))
    }

    @Test func unknownTokenIsRejected() {
        assertApply(Self.chain, .dismiss(.token(9)), .rejected(.unknownToken))
    }

    @Test func programmaticDismissalIgnoresDismissible() {
        assertApply(state([], cover(1, "paywall", [], sheet(2, "upsell", dismissible: false), dismissible: false)), .dismiss(), .applied(),
                    state([], cover(1, "paywall", dismissible: false)))
        assertApply(state([], cover(1, "paywall", dismissible: false)), .dismiss(.token(1)), .applied(), state())
    }
}

// MARK: - interactiveDismiss

@Suite("Reducer: interactiveDismiss")
struct InteractiveDismissRuleTests {
    @Test func removesTheTopMostWithItsContent() {
        let given = state(["a"], sheet(1, "s", ["x"], sheet(2, "t", ["y"])))
        assertApply(given, .interactiveDismiss(), .applied(), state(["a"], sheet(1, "s", ["x"])))
        assertApply(given, .interactiveDismiss(token: 2), .applied(), state(["a"], sheet(1, "s", ["x"])))
    }

    @Test func anAlertButtonOrATapOutsideDismisses() {
        assertApply(state([], sheet(1, "s", [], alert(2, "e"))), .interactiveDismiss(token: 2), .applied(), state([], sheet(1, "s")))
        assertApply(state([], sheet(1, "p", style: .popover)), .interactiveDismiss(), .applied(), state())
        assertApply(state([], alert(1, "d", style: .confirmationDialog)), .interactiveDismiss(), .applied(), state())
    }

    @Test func aTokenThatIsNotTheTopMostIsStale() {
        let given = state([], sheet(1, "s", [], sheet(2, "t")))
        assertApply(given, .interactiveDismiss(token: 1), .rejected(.stale))
        assertApply(given, .interactiveDismiss(token: 7), .rejected(.stale))
        // The top-most of another tab is not the top-most of the selected chain.
        let other = tabs([("home", frame()), ("search", frame([], sheet(2, "filters")))], selected: "home")
        assertApply(other, .interactiveDismiss(token: 2), .rejected(.stale))
    }

    @Test func notDismissibleIsRejected() {
        assertApply(state([], sheet(1, "s", [], sheet(2, "upsell", dismissible: false))), .interactiveDismiss(), .rejected(.notDismissible))
    }

    @Test func aFullScreenCoverIsNotInteractive() {
        assertApply(state([], cover(1, "player")), .interactiveDismiss(), .rejected(.notInteractive))
        assertApply(state([], cover(1, "player")), .interactiveDismiss(token: 1), .rejected(.notInteractive))
    }
}

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
