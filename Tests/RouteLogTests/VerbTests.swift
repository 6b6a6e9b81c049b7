@_spi(Tools) import RouteLog
import RouteLogTesting
import Testing

/// The navigator's vocabulary: reads named for what they read, `pop(to:)`, tabs by id, the
/// active frame's path binding, and the labels shared with the core's events.
@MainActor
@Suite struct VerbTests {
    @Test func activePathIsWherePushGoesAndRootPathIsUnderEverything() throws {
        let nav = try inMemoryNavigator()
        nav.push(.show(name: "atp"))
        nav.push(.episode(id: 9))
        nav.show(.player(episode: 9))
        nav.push(.episode(id: 7))                      // onto the player sheet's stack
        #expect(nav.rootPath == [.show(name: "atp"), .episode(id: 9)])
        #expect(nav.path == nav.rootPath)
        #expect(nav.activePath == [.episode(id: 7)])
        nav.present(.alert(message: "gone"), as: .alert)   // on top; an alert has no stack: the sheet stays active
        #expect(nav.activePath == [.episode(id: 7)])
        nav.dismissAll()
        #expect(nav.activePath == nav.rootPath)
    }

    @Test func popToARouteLeavesItOnTop() throws {
        let nav = try inMemoryNavigator()
        for r: PodRoute in [.show(name: "a"), .episode(id: 1), .episode(id: 2), .episode(id: 3)] { nav.push(r) }
        let r = try #require(nav.pop(to: .episode(id: 1)))
        #expect(r.outcome == .applied() && nav.activePath == [.show(name: "a"), .episode(id: 1)])
        #expect(nav.pop(to: .episode(id: 1)) == nil, "already on top: nothing recorded")
        #expect(nav.pop(to: .settings) == nil, "not on the stack: nothing recorded")
        #expect(nav.seq == 5, "four pushes and one pop")
        // In a sheet, pop(to:) works on the sheet's own stack (the active frame).
        nav.show(.player(episode: 1))
        nav.push(.episode(id: 10))
        nav.push(.episode(id: 11))
        nav.push(.episode(id: 12))
        #expect(nav.pop(to: .episode(id: 10))?.isApplied == true)
        #expect(nav.activePath == [.episode(id: 10)] && nav.rootPath == [.show(name: "a"), .episode(id: 1)])
        // A scoped router pops its own frame.
        #expect(nav.scope().pop(to: .show(name: "a"))?.isApplied == true)
        #expect(nav.rootPath == [.show(name: "a")] && nav.activePath == [.episode(id: 10)])
    }

    @Test func scopedShowPlacesInItsFrameAsTheNavigatorsShowInDoes() throws {
        let a = try inMemoryNavigator(), b = try inMemoryNavigator()
        for nav in [a, b] { nav.show(.player(episode: 1)); nav.push(.episode(id: 1)) }
        let sheet = a.activeScope
        sheet.show(.upsell(feature: "x"), as: .sheet, dismissible: false)
        b.show(.upsell(feature: "x"), as: .sheet, dismissible: false, in: b.activeFrame)
        #expect(a.state == b.state)
        #expect(a.presentations.map(\.route) == [.player(episode: 1), .upsell(feature: "x")])
    }

    @Test func interactiveDismissTakesTheCoresLabel() throws {
        let nav = try inMemoryNavigator()
        nav.show(.player(episode: 1))
        nav.show(.upsell(feature: "x"), as: .sheet, dismissible: false, in: nav.activeFrame)
        #expect(nav.interactiveDismiss(token: 1).outcome == .rejected(.stale))
        #expect(nav.interactiveDismiss().outcome == .rejected(.notDismissible))
        #expect(nav.interactiveDismiss(token: 2).outcome == .rejected(.notDismissible))
    }

    @Test func tabsByIdInSnapshotsAndExpectations() throws {
        let nav = try inMemoryNavigator()
        nav.setTabs(["library", "search"], selected: "library")
        expectNavigation(nav) {
            $0.push(.show(name: "atp"))
            $0.selectTab("search")
            $0.push(.settings)
        } changes: {
            $0[tab: "library"]?.path = [.show(name: "atp")]
            $0[tab: "search"]?.path = [.settings]
            $0.selectedTab = "search"
        }
        let snapshot = try nav.snapshot()
        #expect(snapshot[tab: "library"]?.path == [.show(name: "atp")])
        #expect(snapshot[tab: "nope"] == nil)
        var copy = snapshot
        copy[tab: "nope"] = Screen(path: [.settings])
        #expect(copy == snapshot, "setting a tab that does not exist changes nothing")
    }

    @Test func activePathBindingFollowsTheActiveFrame() throws {
        let nav = try inMemoryNavigator()
        nav.push(.show(name: "atp"))
        nav.show(.player(episode: 1))
        let binding = nav.activePathBinding()
        #expect(binding.frame == nav.activeFrame && binding.frame != .root)
        binding.set([.episode(id: 1), .episode(id: 2)])
        #expect(nav.activePath == [.episode(id: 1), .episode(id: 2)] && nav.rootPath == [.show(name: "atp")])
    }
}
