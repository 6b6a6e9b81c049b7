import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

@MainActor
@Suite struct NavigatorTests {
    /// A scripted session touching every call; returns the results in call order.
    @discardableResult
    static func script(_ nav: Navigator<PodRoute>) -> [CallResult] {
        var r: [CallResult] = []
        r.append(nav.setTabs(["library", "search"], selected: "library"))
        r.append(nav.push(.show(name: "Swift Talk")))
        r.append(nav.push(.episode(id: 1)))
        r.append(nav.show(.player(episode: 1), as: .sheet))
        r.append(nav.push(.episode(id: 2)))                    // inside the player sheet
        r.append(nav.present(.upsell(feature: "chapters"), dismissible: false))
        r.append(nav.interactiveDismiss())                    // rejected: not dismissible
        r.append(nav.dismiss())
        r.append(nav.show(.alert(message: "Offline"), as: .alert))  // replaces the player sheet
        r.append(nav.push(.episode(id: 3)))                    // rejected: blocked by the alert
        r.append(nav.dismissAll())
        r.append(nav.pop(5))                                   // rejected: stack too short
        r.append(nav.selectTab("search"))
        r.append(nav.push(.settings))
        r.append(nav.selectTab("nowhere"))                     // rejected: unknown tab
        r.append(nav.selectTab("library"))
        r.append(nav.popToRoot())
        return r
    }

    @Test func stateEventsAndOutcomesAgreeWithTheLog() async throws {
        let log = InMemoryEventLog(snapshotInterval: 4, clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        let results = Self.script(nav)
        await nav.flush()

        #expect(results.map(\.description) == [
            "#1 applied", "#2 applied", "#3 applied", "#4 applied", "#5 applied", "#6 applied",
            "#7 rejected:notDismissible", "#8 applied", "#9 applied", "#10 rejected:blockedByAlert", "#11 applied",
            "#12 rejected:stackTooShort", "#13 applied", "#14 applied", "#15 rejected:unknownTab", "#16 applied", "#17 applied",
        ])
        let stored = try log.events(nav.session)
        #expect(stored.map(\.seq) == Array(1...17))
        #expect(stored.map(\.outcome) == results.compactMap(\.outcome))
        #expect(nav.headSeq == 17 && nav.recordingStatus.writtenSeq == 17 && nav.recordingStatus.pendingCount == 0)
        // The log's fold and the navigator's state agree, digest included.
        let replayed = replay(stored.map(\.event))
        #expect(replayed.state == nav.state)
        #expect(stored.last?.digest == nav.state.digest)
        #expect(try log.session(nav.session).headDigest == nav.state.digest)
        // Metadata: call site of the caller, origin, timestamp.
        #expect(stored[1].meta.callSite?.file == "RouteLogTests/NavigatorTests.swift")
        #expect(stored[1].meta.origin == .app && stored[1].meta.timestamp == fixedClock())
        #expect(stored[6].meta.origin == .user)
        // The typed reads.
        #expect(nav.tabs == ["library", "search"] && nav.selectedTab == "library")
        #expect(nav.path == [])
        #expect(nav.top == nil)
        #expect(try nav.snapshot().tabs?.first { $0.id == "search" }?.screen.path == [.settings])
    }

    @Test func reopenedNavigatorRestoresTheSameStateAndContinuesTheSession() async throws {
        let log = InMemoryEventLog(snapshotInterval: 3, clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        nav.push(.show(name: "ATP"))
        nav.show(.player(episode: 7))
        nav.push(.episode(id: 7))
        nav.present(.alert(message: "Download?"), as: .alert)
        await nav.flush()

        let reopened = try Navigator<PodRoute>(log: log, restoring: nav.session, clock: fixedClock)
        #expect(reopened.state == nav.state)
        #expect(reopened.headSeq == 4)
        #expect(reopened.path == [.show(name: "ATP")])
        #expect(reopened.top?.route == .alert(message: "Download?"))
        #expect(reopened.presented()?.content?.path == [.episode(id: 7)])
        #expect(try reopened.snapshot() == nav.snapshot())
        // New calls continue the session with the next seq.
        #expect(reopened.dismiss() == .recorded(seq: 5, outcome: .applied()))
        await reopened.flush()
        #expect(try log.session(nav.session).eventCount == 5)
        #expect(try log.sessions().count == 1)
        let latest = try Navigator<PodRoute>.restoringLatest(log: log, clock: fixedClock)
        #expect(latest.session == nav.session && latest.state == reopened.state)
    }

    @Test func aPayloadThatNoLongerDecodesIsDroppedAndNamedWithItsSeq() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let old = try Navigator<OldRoute>(log: log, clock: fixedClock)
        old.setTabs(["library"])
        old.push(.episode(legacyKey: "abc"))
        await old.flush()
        // Restoring does not throw: the route is dropped and the report names the seq.
        let nav = try Navigator<PodRoute>(log: log, restoring: old.session, clock: fixedClock)
        #expect(nav.tabs == ["library"] && nav.path == [])
        let dropped = try #require(nav.restoreReport?.dropped.first)
        #expect(dropped.seq == 2 && dropped.route.id == "episode-1")
        #expect(dropped.description.hasPrefix("seq 2: route \"episode-1\" (stored as OldRoute) no longer decodes"))
    }

    @Test func anUnencodableRouteIsRefusedAndNothingIsRecorded() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        let r = nav.push(.ratio(.nan))
        guard case .refused(.unencodableRoute(let e)) = r else { Issue.record("expected a refusal, got \(r)"); return }
        #expect(e.routeID == "ratio")
        #expect(nav.headSeq == 0 && nav.lastResult == r)
        await nav.flush()
        #expect(try log.session(nav.session).eventCount == 0)
    }

    @Test func facadesProduceTheSameEventsAsTheCoreAPI() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let a = try Navigator<PodRoute>(log: log, clock: fixedClock)
        a.present(.player(episode: 1))
        a.present(.upsell(feature: "x"), dismissible: false)
        a.dismiss()
        a.show(.settings, as: .fullScreenCover)
        a.dismiss()
        a.push(.episode(id: 1), in: .root)
        a.show(.alert(message: "m"), as: .alert, in: .root)

        let b = try Navigator<PodRoute>(log: log, clock: fixedClock)
        let stack = b.sheetStack
        stack.push(.player(episode: 1))
        stack.push(.upsell(feature: "x"), dismissible: false)
        #expect(stack.count == 2 && stack.top == .upsell(feature: "x"))
        stack.pop()
        let router = b.router
        router.show(.settings, as: .fullScreenCover)
        #expect(router.item(as: .fullScreenCover) == .settings && router.item(as: .sheet) == nil)
        router.dismiss()
        let root = b.scope()
        root.push(.episode(id: 1))
        root.show(.alert(message: "m"), as: .alert)
        await a.flush()
        await b.flush()
        #expect(try log.events(a.session).map(\.event) == log.events(b.session).map(\.event))
        #expect(a.state == b.state)
    }

    @Test func aScopedRouterActsOnItsOwnFrameWhateverIsAbove() async throws {
        let nav = try inMemoryNavigator()
        nav.show(.player(episode: 1))                             // token 1
        let player = try #require(nav.scope().child)
        #expect(player.frame == .presentation(1))
        #expect(player.push(.episode(id: 2)).isApplied)
        nav.present(.settings)                                    // token 3, above the player
        // The player's router still pushes onto the player's own stack, not the settings sheet.
        #expect(player.push(.episode(id: 3)).isApplied)
        #expect(player.path == [.episode(id: 2), .episode(id: 3)])
        #expect(nav.path(in: .presentation(3)) == [])
        #expect(player.presented?.route == .settings)
        // The player dismisses itself, and the settings above it go too.
        #expect(player.dismiss() == .recorded(seq: 5, outcome: .applied()))
        #expect(!player.isPresented && nav.top == nil)
        #expect(player.push(.episode(id: 4)) == .recorded(seq: 6, outcome: .rejected(.unknownFrame)))
    }

    @Test func deepLinkResetRenumbersTokensAndIsRecordedAsDeepLink() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        nav.push(.settings)
        var target = NavigationSnapshot<PodRoute>(tabs: [TabScreen(id: "library"), TabScreen(id: "search")], selectedTab: "library")
        target.selectedScreen.path = [.show(name: "ATP"), .episode(id: 9)]
        target.selectedScreen.presented = Presented(token: 999, route: .player(episode: 9), style: .sheet)
        let r = nav.reset(to: target)
        #expect(r == .recorded(seq: 2, outcome: .applied()))
        var expected = target
        expected.selectedScreen.presented?.token = 2
        #expect(try nav.snapshot() == expected)
        await nav.flush()
        #expect(try log.events(nav.session).last?.meta.origin == .deepLink)
        // A token far past the reset's seq (100,000) is renumbered too: the typed API always applies.
        target.selectedScreen.presented?.token = 100_000
        #expect(nav.reset(to: target, origin: .system) == .recorded(seq: 3, outcome: .applied()))
        #expect(nav.top?.token == 3)
        await nav.flush()
        let recorded = try #require(try log.events(nav.session).last)
        #expect(recorded.meta.origin == .system)
        guard case .reset(let state) = recorded.event else { Issue.record("expected a reset"); return }
        #expect(state.allTokens() == [3], "the log holds the renumbered token")
        // A core state is recorded as given: the reducer's rule rejects a token past the seq.
        var core = try target.coreState()
        #expect(core.allTokens() == [100_000])
        #expect(nav.reset(to: core) == .recorded(seq: 4, outcome: .rejected(.invalidState)))
        core = try nav.snapshot().coreState()
        #expect(nav.reset(to: core) == .recorded(seq: 5, outcome: .applied()))
        // A core state holding a foreign route is refused.
        let foreign = NavigationState(root: Frame(path: [RouteRef(id: "x", payload: try RawJSON(parsing: "{\"nope\":1}"))]))
        guard case .refused(.undecodableRoute) = nav.reset(to: foreign) else { Issue.record("expected a refusal"); return }
        #expect(nav.headSeq == 5)
    }

    @Test func anInMemoryNavigatorRecordsToItsOwnLog() async throws {
        let nav = Navigator<PodRoute>.inMemory(label: "preview", clock: fixedClock)
        nav.push(.settings)
        await nav.flush()
        #expect(try nav.log.session(nav.session).label == "preview")
        #expect(try nav.log.events(nav.session).map(\.event) == [.push(try RouteRef(PodRoute.settings))])
        #expect(nav.recordingError == nil)
    }
}
