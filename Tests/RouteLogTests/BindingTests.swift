@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Scripts the get/set/nil sequences SwiftUI performs on the bindings.
@MainActor
@Suite struct BindingTests {
    func navigator() throws -> (Navigator<PodRoute>, InMemoryEventLog) {
        let log = InMemoryEventLog(clock: fixedClock)
        return (try Navigator<PodRoute>(log: log, clock: fixedClock), log)
    }

    @Test func swipeDownOnASheetRecordsAUserInteractiveDismissOfItsToken() async throws {
        let (nav, log) = try navigator()
        var binding = nav.presentationBinding(style: .sheet)       // body evaluation 1: nothing shown
        #expect(binding.get() == nil && binding.token == nil)
        nav.show(.player(episode: 1))                               // app code, token 1
        binding = nav.presentationBinding(style: .sheet)            // body evaluation 2
        #expect(binding.token == 1)
        #expect(binding.get() == .player(episode: 1))               // SwiftUI reads the item to present
        #expect(binding.set(nil) == .recorded(seq: 2, outcome: .applied()))   // the user swiped down
        #expect(binding.get() == nil && nav.top == nil)
        await nav.flush()
        let last = try #require(try log.events(nav.session).last)
        #expect(last.event == .interactiveDismiss(token: 1) && last.meta.origin == .user)
    }

    @Test func aLateNilWriteForAReplacedSheetIsStaleAndKeepsTheNewOne() async throws {
        let (nav, log) = try navigator()
        nav.show(.player(episode: 1))                               // token 1
        let oldBinding = nav.presentationBinding(style: .sheet)     // SwiftUI holds this one
        nav.show(.settings)                                         // app replaces the sheet: token 2
        let newBinding = nav.presentationBinding(style: .sheet)
        #expect(newBinding.get() == .settings)
        // SwiftUI finishes dismissing the old sheet and writes nil through the old binding.
        #expect(oldBinding.set(nil) == .recorded(seq: 3, outcome: .rejected(.stale)))
        #expect(nav.top?.route == .settings && nav.top?.token == 2)
        #expect(newBinding.get() == .settings)
        // The current binding's nil write still works.
        #expect(newBinding.set(nil).isApplied)
        #expect(nav.top == nil)
        // Another late write after everything is gone is stale too.
        #expect(oldBinding.set(nil).outcome == .rejected(.stale))
        // Late writes are SwiftUI's, not the user's: origin system; the swipe on the current sheet is the user's.
        await nav.flush()
        let swipes = try log.events(nav.session).filter { if case .interactiveDismiss = $0.event { true } else { false } }
        #expect(swipes.map(\.meta.origin) == [.system, .user, .system])
        #expect(swipes.map(\.event) == [.interactiveDismiss(token: 1), .interactiveDismiss(token: 2), .interactiveDismiss(token: 1)])
    }

    @Test func anInPlaceUpdateKeepsTheTokenSoTheBindingStaysValid() async throws {
        let (nav, _) = try navigator()
        nav.show(.player(episode: 1))
        let binding = nav.presentationBinding(style: .sheet)
        #expect(nav.show(.player(episode: 2)) == .recorded(seq: 2, outcome: .applied(.updatedInPlace)))
        #expect(binding.get() == .player(episode: 2))               // same id: the same sheet, new data
        #expect(binding.set(nil).isApplied)
    }

    @Test func aNonDismissibleSheetRejectsTheSwipeAndReportsTheFlag() async throws {
        let (nav, _) = try navigator()
        nav.present(.upsell(feature: "chapters"), dismissible: false)
        let binding = nav.presentationBinding(style: .sheet)
        #expect(!binding.isDismissible)                             // drives interactiveDismissDisabled()
        #expect(binding.set(nil).outcome == .rejected(.notDismissible))
        #expect(binding.get() == .upsell(feature: "chapters"))
        #expect(nav.dismiss().isApplied)                            // programmatic dismissal ignores the flag
    }

    @Test func eachStyleBindingSeesOnlyItsOwnStyle() async throws {
        let (nav, _) = try navigator()
        nav.show(.alert(message: "Offline"), as: .alert)
        let sheet = nav.presentationBinding(style: .sheet)
        let cover = nav.presentationBinding(style: .fullScreenCover)
        let alert = nav.presentationBinding(style: .alert)
        #expect(sheet.get() == nil && cover.get() == nil)
        #expect(alert.isPresented() && alert.get() == .alert(message: "Offline"))
        #expect(alert.setPresented(true) == nil)                    // SwiftUI never writes true; nothing recorded
        #expect(nav.headSeq == 1)
        #expect(alert.setPresented(false)?.isApplied == true)       // an alert button
        #expect(!alert.isPresented())
    }

    @Test func theBlankSheetRaceCannotHappen() async throws {
        let (nav, _) = try navigator()
        let before = nav.presentationBinding(style: .sheet)
        // One call sets the item: there is no moment when the sheet is "on" without its data.
        nav.show(.player(episode: 5))
        #expect(before.get() == .player(episode: 5))
        let after = nav.presentationBinding(style: .sheet)
        #expect(after.presented?.route == .player(episode: 5) && after.presented?.token == 1)
    }

    @Test func aFullScreenCoverCannotBeSwipedAway() async throws {
        let (nav, _) = try navigator()
        nav.show(.settings, as: .fullScreenCover)
        let cover = nav.presentationBinding(style: .fullScreenCover)
        #expect(cover.set(nil).outcome == .rejected(.notInteractive))
        #expect(cover.get() == .settings)
    }

    @Test func nestedFrameBindingsDriveTheSheetInsideASheet() async throws {
        let (nav, _) = try navigator()
        nav.show(.player(episode: 1))                               // token 1
        let inner = nav.presentationBinding(in: .presentation(1), style: .popover)
        #expect(inner.set(.alert(message: "x")) == .recorded(seq: 2, outcome: .applied()))  // a non-nil write presents
        #expect(nav.presented(in: .presentation(1))?.style == .popover)
        let innerNow = nav.presentationBinding(in: .presentation(1), style: .popover)
        #expect(innerNow.token == 2 && innerNow.set(nil).isApplied)
        #expect(nav.top?.token == 1)
    }

    @Test func backButtonPopsWithOriginUserAndLinksPush() async throws {
        let (nav, log) = try navigator()
        let path = nav.pathBinding()
        #expect(path.set([.show(name: "ATP"), .episode(id: 1), .episode(id: 2)]).count == 3)   // NavigationLink(value:) ×3
        #expect(nav.path == [.show(name: "ATP"), .episode(id: 1), .episode(id: 2)])
        #expect(path.set([.show(name: "ATP")]) == [.recorded(seq: 4, outcome: .applied())])      // long-press back, two levels
        #expect(path.set([.show(name: "ATP")]).isEmpty)                                          // no change, nothing recorded
        #expect(path.set([.settings]).map(\.description) == ["#5 applied", "#6 applied"])         // diverging: pop then push
        await nav.flush()
        let events = try log.events(nav.session)
        #expect(events[3].event == .pop(count: 2, frame: .root) && events[3].meta.origin == .user)
        #expect(events[4].event == .pop(count: 1, frame: .root) && events[5].event.kind == .push)
        #expect(events.allSatisfy { $0.meta.origin == .user })
    }

    @Test func tabBindingSelectsWithOriginUser() async throws {
        let (nav, log) = try navigator()
        nav.setTabs(["library", "search"])
        let tab = nav.tabBinding
        #expect(tab.get() == "library")
        #expect(tab.set("search").isApplied && tab.get() == "search")
        #expect(tab.set("").outcome == .rejected(.invalidTabs))
        await nav.flush()
        #expect(try log.events(nav.session)[1].meta.origin == .user)
    }

    /// A tab's own stack (what `RouteStack(navigator, tab:)` binds): read whether or not the tab is
    /// selected, written only while it is; the root binding follows the selected tab instead.
    @Test func tabStackBindingReadsItsTabAndWritesOnlyWhenSelected() async throws {
        let (nav, log) = try navigator()
        nav.setTabs(["library", "search"], selected: "library")
        nav.push(.episode(id: 1))
        nav.selectTab("search")
        nav.push(.settings)
        let library = nav.pathBinding(inTab: "library"), search = nav.pathBinding(inTab: "search")
        #expect(library.get() == [.episode(id: 1)] && search.get() == [.settings])
        #expect(nav.pathBinding().get() == [.settings])               // the selected tab's root
        #expect(nav.pathBinding(inTab: "nowhere").get() == [])
        // Not selected: a write from the library's stack records nothing and changes nothing.
        let before = nav.seq
        #expect(library.set([]).isEmpty && nav.seq == before && library.get() == [.episode(id: 1)])
        // Selected: the same write is the user's pop on that tab.
        nav.selectTab("library")
        #expect(library.set([.episode(id: 1), .episode(id: 2)]).map(\.isApplied) == [true])
        #expect(library.get() == [.episode(id: 1), .episode(id: 2)] && search.get() == [.settings])
        await nav.flush()
        let last = try #require(try log.events(nav.session).last)
        #expect(last.event.kind == .push && last.meta.origin == .user)
    }
}
