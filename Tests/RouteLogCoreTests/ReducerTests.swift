import CustomDump
@_spi(Tools) import RouteLogCore
import Testing

// One test per reducer rule of ReducerRules.md (the RouteLogCore catalog) and per precedence rule, in the style of TCA's
// reducer tests: build the state, apply one event, and assert the outcome and the WHOLE expected
// state (a failure prints a diff). `assertApply` also checks that a rejected event leaves the
// state unchanged and that the incremental digest equals the from-scratch one.

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
