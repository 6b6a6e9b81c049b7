import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// A clock the test moves by hand: milliseconds since 1970.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Int64 = 1_700_000_000_000
    var ms: Int64 { lock.withLock { now } }
    func advance(_ by: Int64) { lock.withLock { now += by } }
    var read: @Sendable () -> Int64 { { self.ms } }
}

/// A view layer on Linux: it reports to the navigator the screens a well-behaved container would
/// show for the navigator's (shown) state, and can be told to misbehave.
@MainActor
final class SimulatedScreens {
    let nav: Navigator<PodRoute>
    private(set) var on: Set<ScreenID> = []

    init(_ nav: Navigator<PodRoute>) { self.nav = nav }

    /// What a container shows for `state`: the selected tab's root; the top of the root stack and,
    /// for each sheet, cover or popover of the selected chain, the presentation and the top of its
    /// stack; nothing below a full-screen cover. (Written apart from the navigator's own rule.)
    static func expected(_ state: NavigationState) -> Set<ScreenID> {
        var out: [ScreenID] = []
        if let tab = state.selectedTab { out.append(.tabRoot(tab)) }
        if let top = state.root.path.last {
            out.append(.stackEntry(frame: .root, index: state.root.path.count - 1, routeID: top.id, tab: state.selectedTab))
        }
        for p in state.presentationChain where p.style != .alert && p.style != .confirmationDialog {
            if p.style == .fullScreenCover { out = [] }
            out.append(.presentation(token: p.token, routeID: p.route.id))
            if let path = p.content?.path, let top = path.last {
                out.append(.stackEntry(frame: .presentation(p.token), index: path.count - 1, routeID: top.id))
            }
        }
        return Set(out)
    }

    /// Makes the screen match the navigator's shown state, leaving `withholding` off screen:
    /// disappearances first, then appearances, each in a stable order.
    func sync(withholding: Set<ScreenID> = []) {
        let want = Self.expected(nav.state).subtracting(withholding)
        for id in on.subtracting(want).sorted(by: { $0.description < $1.description }) { disappear(id) }
        for id in want.subtracting(on).sorted(by: { $0.description < $1.description }) { appear(id) }
    }

    func appear(_ id: ScreenID) {
        on.insert(id)
        nav.screenAppeared(id)
    }

    func disappear(_ id: ScreenID) {
        on.remove(id)
        nav.screenDisappeared(id)
    }

    /// A screen the container shows on its own (a bug of its own, a view the app presents
    /// without the navigator): `sync` leaves it alone.
    func appearStray(_ id: ScreenID) { nav.screenAppeared(id) }
    func disappearStray(_ id: ScreenID) { nav.screenDisappeared(id) }
}

@MainActor
@Suite struct ScreenDivergenceTests {
    let clock = ManualClock()

    func navigator() -> (Navigator<PodRoute>, SimulatedScreens) {
        let nav = Navigator<PodRoute>.inMemory(clock: clock.read)
        nav.tracksScreens = true
        return (nav, SimulatedScreens(nav))
    }

    /// Moves the clock and checks.
    func wait(_ ms: Int64, _ nav: Navigator<PodRoute>) {
        clock.advance(ms)
        nav.checkScreens()
    }

    // MARK: Each failure mode, once, at its seq

    @Test func aScreenThatAppearsLateIsReportedOnceAtTheSeqThatShowedIt() {
        let (nav, sim) = navigator()
        sim.sync()
        nav.push(.episode(id: 1))
        let late = ScreenID.stackEntry(frame: .root, index: 0, routeID: "episode-1")
        sim.sync(withholding: [late])
        wait(999, nav)
        #expect(nav.divergences.isEmpty)
        wait(1, nav)
        #expect(nav.divergences.map(\.description) == ["#1 not on screen: episode-1 at root[0]"])
        #expect(nav.divergences.first?.kind == .notOnScreen && nav.divergences.first?.seq == 1)
        sim.sync()
        wait(5000, nav)
        #expect(nav.divergences.count == 1)
    }

    @Test func aScreenThatNeverAppearsIsReportedOnceWhateverFollows() {
        let (nav, sim) = navigator()
        nav.show(.player(episode: 1), as: .sheet)                // #1
        let never = ScreenID.presentation(token: 1, routeID: "player")
        sim.sync(withholding: [never])
        for i in 0..<5 {
            wait(700, nav)
            nav.push(.episode(id: i))                             // into the sheet's stack
            sim.sync(withholding: [never])
        }
        let found = nav.divergences
        #expect(found.count == 1)
        #expect(found.first?.kind == .notOnScreen && found.first?.screen == never && found.first?.seq == 1)
        #expect(found.first?.cause == nil)
    }

    @Test func aSheetTheSystemRemovedWithoutItsBindingWriteIsNamed() {
        let (nav, sim) = navigator()
        nav.push(.episode(id: 1))                                 // #1
        nav.show(.player(episode: 1), as: .sheet)                 // #2
        sim.sync()
        wait(300, nav)
        nav.push(.settings, in: .root)                            // #3: under the sheet
        sim.sync()
        sim.disappear(.presentation(token: 2, routeID: "player")) // no interactiveDismiss
        wait(1000, nav)
        #expect(nav.divergences.map(\.description)
            == ["#3 not on screen: player (#2) (likely cause: removed without its binding write)"])
        #expect(nav.divergences.first?.cause == .removedWithoutWrite)
    }

    @Test func aPresentationRequestedWhileAnotherIsStillDismissingIsNamed() {
        let (nav, sim) = navigator()
        nav.show(.upsell(feature: "a"), as: .sheet)               // #1
        sim.sync()
        wait(2000, nav)
        nav.show(.player(episode: 1), as: .sheet)                 // #2 replaces #1; UIKit refuses it
        // #1 is still animating out: it leaves the screen only 400 ms later; #2 never appears.
        wait(400, nav)
        sim.disappear(.presentation(token: 1, routeID: "upsell"))
        wait(600, nav)
        #expect(nav.divergences.map(\.description)
            == ["#2 not on screen: player (#2) (likely cause: a presentation requested while another was still dismissing)"])
        wait(3000, nav)
        #expect(nav.divergences.count == 1)
    }

    @Test func aScreenStillOnScreenAfterTheStateRemovedItIsReportedAtTheRemovingSeq() {
        let (nav, sim) = navigator()
        nav.show(.player(episode: 1), as: .fullScreenCover)       // #1
        sim.sync()
        nav.dismiss()                                             // #2; the cover stays
        wait(1000, nav)
        #expect(nav.divergences.map(\.description) == ["#2 still on screen: player (#1)"])
        sim.sync()
        wait(2000, nav)
        #expect(nav.divergences.count == 1)
    }

    @Test func aStackShowingAnotherDepthThanItsPathIsOneReport() {
        let (nav, sim) = navigator()
        for i in 1...3 { nav.push(.episode(id: i)); sim.sync() }  // #1-#3
        nav.pop(2)                                                // #4: the state keeps episode-1
        // The stack pops only one screen: episode-2 is on top, episode-1 never comes back.
        sim.disappear(.stackEntry(frame: .root, index: 2, routeID: "episode-3"))
        sim.appear(.stackEntry(frame: .root, index: 1, routeID: "episode-2"))
        wait(1000, nav)
        #expect(nav.divergences.map(\.description) == ["#4 depth mismatch: episode-2 at root[1] (2 on screen, 1 in the state)"])
        #expect(nav.divergences.first?.visibleDepth == 2 && nav.divergences.first?.stateDepth == 1)
        wait(5000, nav)
        #expect(nav.divergences.count == 1)
    }

    /// Two screens on screen at a stack's top index (one of them stray): the report names the
    /// one whose description sorts first, whatever order they appeared in (it named whichever a
    /// dictionary's iteration met first, which changed from run to run).
    @Test func aStackWithTwoScreensAtItsTopIndexNamesOneWhateverTheirOrder() {
        for k in 0..<16 {                                             // other ids, other hashes
            let (nav, sim) = navigator()
            for i in 1...3 { nav.push(.episode(id: 10 * k + i)); sim.sync() }  // #1-#3
            nav.pop(2)                                                // #4
            sim.disappear(.stackEntry(frame: .root, index: 2, routeID: "episode-\(10 * k + 3)"))
            sim.appear(.stackEntry(frame: .root, index: 1, routeID: "episode-\(10 * k + 2)"))
            sim.appearStray(.stackEntry(frame: .root, index: 1, routeID: "a\(k)"))
            wait(1000, nav)
            #expect(nav.divergences.map(\.description) == ["#4 depth mismatch: a\(k) at root[1] (2 on screen, 1 in the state)"])
        }
    }

    @Test func aScreenTheStateNeverHadIsReportedAtTheHeadWhenItAppeared() {
        let (nav, sim) = navigator()
        nav.push(.episode(id: 1))                                 // #1
        nav.push(.episode(id: 2))                                 // #2
        sim.sync()
        sim.appearStray(.presentation(token: 99, routeID: "ghost"))
        wait(500, nav)
        nav.push(.episode(id: 3))                                 // #3
        sim.sync()
        wait(500, nav)
        #expect(nav.divergences.map(\.description) == ["#2 unknown screen: ghost (#99)"])
    }

    @Test func aPathWriteDuringATabSwitchIsNamed() {
        let (nav, sim) = navigator()
        nav.setTabs(["home", "library"], selected: "home")        // #1
        sim.sync()
        wait(3000, nav)
        nav.selectTab("library")                                  // #2
        sim.sync()
        wait(120, nav)
        nav.push(.show(name: "a"))                                // #3: the write SwiftUI drops
        sim.sync(withholding: [.stackEntry(frame: .root, index: 0, routeID: "show-a", tab: "library")])
        wait(1000, nav)
        #expect(nav.divergences.map(\.description)
            == ["#3 not on screen: show-a at root[0] of tab library (likely cause: a path write during a tab switch)"])
        // The same write long after the switch names no cause.
        wait(3000, nav)
        nav.push(.show(name: "b"))                                // #4
        sim.sync(withholding: [.stackEntry(frame: .root, index: 1, routeID: "show-b", tab: "library")])
        wait(1000, nav)
        #expect(nav.divergences.last?.description == "#4 not on screen: show-b at root[1] of tab library")
    }

    // MARK: Never while travelling or suspended

    @Test func nothingIsReportedWhileTravellingAndTheGraceRestartsOnReturn() throws {
        let (nav, sim) = navigator()
        for i in 1...3 { nav.push(.episode(id: i)); sim.sync() }
        try nav.travel(to: 1)
        sim.sync()                                                // the past state is on screen
        sim.appearStray(.presentation(token: 42, routeID: "ghost"))
        wait(10_000, nav)
        #expect(nav.divergences.isEmpty)
        nav.returnToPresent()
        sim.sync()
        wait(999, nav)
        #expect(nav.divergences.isEmpty)
        wait(1, nav)                                              // the ghost stayed: its grace began on return
        #expect(nav.divergences.map(\.description) == ["#3 unknown screen: ghost (#42)"])
    }

    @Test func nothingIsReportedWhileSuspended() async throws {
        let (nav, sim) = navigator()
        nav.show(.player(episode: 1), as: .sheet)
        sim.sync()
        await nav.suspend()
        sim.disappear(.presentation(token: 1, routeID: "player")) // the app went to the background
        wait(60_000, nav)
        #expect(nav.divergences.isEmpty)
        try nav.resume()
        sim.sync()
        wait(5000, nav)
        #expect(nav.divergences.isEmpty)
        // Resuming gives a full grace period: a screen still missing is reported only after it.
        await nav.suspend()
        sim.disappear(.presentation(token: 1, routeID: "player"))
        wait(60_000, nav)
        try nav.resume()
        wait(999, nav)
        #expect(nav.divergences.isEmpty)
        wait(1, nav)
        #expect(nav.divergences.map(\.kind) == [.notOnScreen])
    }

    // MARK: Delivery

    @Test func observersAndLaterBreadcrumbsCarryTheDivergence() {
        let (nav, sim) = navigator()
        var heard: [Divergence] = []
        nav.onDivergence { heard.append($0) }
        var crumbs: [NavigationBreadcrumb] = []
        nav.onNavigation { crumbs.append($0) }
        nav.push(.episode(id: 1))
        #expect(crumbs.last?.lastDivergence == nil && crumbs.last?.data["divergence"] == nil)
        wait(1000, nav)
        #expect(heard.map(\.description) == ["#1 not on screen: episode-1 at root[0]"])
        nav.push(.episode(id: 2))
        sim.sync()
        #expect(crumbs.last?.lastDivergence == heard.first)
        #expect(crumbs.last?.data["divergence"] == "#1 not on screen: episode-1 at root[0]")
        #expect(heard.count == 1)
    }

    @Test func theGracePeriodIsConfigurableAndTheListIsBounded() {
        let (nav, sim) = navigator()
        nav.divergenceGracePeriod = .milliseconds(250)
        for i in 0..<(Navigator<PodRoute>.maxDivergences + 20) {
            sim.appearStray(.presentation(token: UInt64(1000 + i), routeID: "ghost"))
            wait(250, nav)
        }
        #expect(nav.divergences.count == Navigator<PodRoute>.maxDivergences)
        #expect(nav.divergences.last?.screen == .presentation(token: UInt64(1000 + Navigator<PodRoute>.maxDivergences + 19), routeID: "ghost"))
    }

    // MARK: Generated sessions

    /// One navigator call chosen by `rng`.
    static func randomCall(_ nav: Navigator<PodRoute>, _ rng: inout SplitMix64) {
        let styles: [PresentationStyle] = [.sheet, .sheet, .fullScreenCover, .popover, .alert, .confirmationDialog]
        let n = Int.random(in: 0..<100, using: &rng)
        let route = PodRoute.episode(id: Int.random(in: 0..<6, using: &rng))
        switch n {
        case 0..<30: nav.push(route)
        case 30..<32: nav.push(route, in: .root)
        case 32..<44: nav.pop(Int.random(in: 1...2, using: &rng))
        case 44..<47: nav.popToRoot()
        case 47..<55: nav.show(.player(episode: n), as: styles.randomElement(using: &rng)!)
        case 55..<61: nav.present(.upsell(feature: "f\(n % 3)"), as: styles.randomElement(using: &rng)!)
        case 61..<68: nav.dismiss()
        case 68..<72: nav.interactiveDismiss(token: nav.state.topPresentation?.token)
        case 72..<74: nav.dismissAll()
        case 74..<76: nav.setTabs(["home", "library", "search"].shuffled(using: &rng), selected: "home")
        case 76..<78: nav.setTabs([])
        case 78..<86: nav.selectTab(["home", "library", "search"].randomElement(using: &rng)!)
        case 86..<90:
            let sheet = Bool.random(using: &rng) ? Presented<PodRoute>(token: 1, route: .settings, style: .sheet) : nil
            nav.reset(to: NavigationSnapshot(root: Screen(path: [.episode(id: 7), route], presented: sheet)))
        default: nav.dismiss(nav.state.presentationChain.first?.token ?? 0)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func aWellBehavedRunOf10000CallsReportsNothing(seed: UInt64) throws {
        let (nav, sim) = navigator()
        var rng = SplitMix64(seed: seed)
        sim.sync()
        for i in 0..<10_000 {
            Self.randomCall(nav, &rng)
            clock.advance(Int64.random(in: 0..<600, using: &rng))      // the transition, within the grace period
            sim.sync()
            wait(Int64.random(in: 0...3000, using: &rng), nav)
            if i % 500 == 250 {                                        // a look at the past, and back
                try nav.travel(to: nav.headSeq / 2)
                sim.sync()
                wait(5000, nav)
                nav.returnToPresent()
                sim.sync()
            }
        }
        #expect(nav.headSeq == 10_000)
        print("seed \(seed): \(nav.divergences.count) divergences in 10,000 calls reported on screen as the state says")
        #expect(nav.divergences.isEmpty, "\(nav.divergences.prefix(5).map(\.description))")
    }

    /// A generated session whose view layer misbehaves now and then: a screen the call shows
    /// appears only after the grace period, or a screen the state never had appears. Each is
    /// found once, at its seq; nothing else is.
    @Test(arguments: [UInt64(7), 8])
    func injectedFailuresInAGeneratedSessionAreEachFoundOnceAtTheirSeq(seed: UInt64) {
        let (nav, sim) = navigator()
        var rng = SplitMix64(seed: seed)
        var expected: [(Divergence.Kind, UInt64, ScreenID)] = []
        var all: [Divergence] = []                      // every one: `divergences` keeps the last 100
        nav.onDivergence { all.append($0) }
        sim.sync()
        for i in 0..<3000 {
            let before = SimulatedScreens.expected(nav.state)
            Self.randomCall(nav, &rng)
            let new = SimulatedScreens.expected(nav.state).subtracting(before).sorted { $0.description < $1.description }
            if i % 37 == 0, let late = new.first {
                sim.sync(withholding: [late])
                wait(1000, nav)
                expected.append((.notOnScreen, nav.headSeq, late))
                sim.sync()
            } else if i % 53 == 0 {
                let ghost = ScreenID.presentation(token: 1_000_000 + UInt64(i), routeID: "ghost")
                sim.sync()
                sim.appearStray(ghost)
                expected.append((.unknownScreen, nav.headSeq, ghost))
                wait(1500, nav)
                sim.disappearStray(ghost)
            } else {
                clock.advance(Int64.random(in: 0..<600, using: &rng))
                sim.sync()
            }
            wait(Int64.random(in: 0...2000, using: &rng), nav)
        }
        let found = all.map { ($0.kind, $0.seq, $0.screen) }
        #expect(expected.count > 50)
        print("seed \(seed): \(found.count) divergences found, \(expected.count) injected")
        #expect(found.count == expected.count)
        #expect(found.map(\.0) == expected.map(\.0) && found.map(\.1) == expected.map(\.1) && found.map(\.2) == expected.map(\.2))
    }

    // MARK: Nothing recorded

    @Test func screenReportsChangeNoStateNoDigestAndNoEvent() async throws {
        func run(reporting: Bool) async throws -> (NavigationState, [StoredEvent]) {
            let log = InMemoryEventLog(clock: fixedClock)
            let nav = try Navigator<PodRoute>(log: log, clock: clock.read)
            let sim = SimulatedScreens(nav)
            var rng = SplitMix64(seed: 5)
            var screens = SplitMix64(seed: 6)
            for _ in 0..<500 {
                Self.randomCall(nav, &rng)
                if reporting { sim.sync(); if Bool.random(using: &screens) { sim.appearStray(.tabRoot("ghost")) } }
                wait(700, nav)
            }
            await nav.flush()
            return (nav.state, try log.events(nav.session))
        }
        let plain = try await run(reporting: false)
        let reported = try await run(reporting: true)
        #expect(plain.0 == reported.0 && plain.0.digest == reported.0.digest)
        #expect(plain.1.map(\.event) == reported.1.map(\.event) && plain.1.map(\.digest) == reported.1.map(\.digest))
        #expect(plain.1.map(\.outcome) == reported.1.map(\.outcome))
    }
}
