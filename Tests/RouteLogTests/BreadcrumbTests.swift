import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// Navigation breadcrumbs: what `onNavigation` observers receive after each recorded call.
@MainActor
@Suite struct BreadcrumbTests {
    /// Collects the breadcrumbs an observer receives.
    final class Crumbs {
        var all: [NavigationBreadcrumb] = []
        var seqs: [UInt64] { all.map(\.seq) }
        /// `kind from→to outcome #seq`, one per breadcrumb, to compare a whole script at once.
        var lines: [String] { all.map { "\($0.kind) \($0.from ?? "nil")→\($0.to ?? "nil") \($0.outcome) #\($0.seq) \($0.origin)" } }
    }

    func observed(_ nav: Navigator<PodRoute>) -> (Crumbs, NavigationObservation) {
        let crumbs = Crumbs()
        let observation = nav.onNavigation { crumbs.all.append($0) }
        return (crumbs, observation)
    }

    @Test func everyRecordedCallHasItsTopScreenBeforeAndAfterItsOutcomeAndSeq() throws {
        let nav = try inMemoryNavigator()
        let (crumbs, _) = observed(nav)
        nav.push(.episode(id: 1))
        nav.push(.show(name: "a"))
        nav.pop()
        nav.show(.player(episode: 1), dismissible: false)               // a sheet: its route is the top screen
        nav.interactiveDismiss(token: 4)                                 // the user's swipe: rejected
        nav.push(.settings)                                              // onto the sheet's own stack
        nav.dismiss()
        nav.pathBinding().set([.episode(id: 1), .show(name: "b")])       // SwiftUI's NavigationLink write
        nav.pathBinding().set([.episode(id: 1)])                         // SwiftUI's back swipe
        nav.show(.alert(message: "gone"), as: .alert)
        nav.presentationBinding(style: .alert).set(nil)                  // SwiftUI dismisses the alert
        nav.reset(to: NavigationState())                                 // a deep link to an empty root
        #expect(crumbs.lines == [
            "push nil→episode-1 applied #1 app",
            "push episode-1→show-a applied #2 app",
            "pop show-a→episode-1 applied #3 app",
            "show episode-1→player applied #4 app",
            "interactiveDismiss player→player rejected:notDismissible #5 user",
            "push player→settings applied #6 app",
            "dismiss settings→episode-1 applied #7 app",
            "push episode-1→show-b applied #8 user",
            "pop show-b→episode-1 applied #9 user",
            "show episode-1→alert applied #10 app",
            "interactiveDismiss alert→episode-1 applied #11 user",
            "reset episode-1→nil applied #12 deepLink",
        ])
        #expect(crumbs.all.allSatisfy { $0.session == nav.session && $0.run == nil && $0.timestamp == fixedClock() })
        #expect(nav.runNumber == nil)
        #expect(crumbs.all[0].callSite?.file == "RouteLogTests/BreadcrumbTests.swift")
        #expect(crumbs.all[0].event == .push(try RouteRef(PodRoute.episode(id: 1))))
        #expect(crumbs.all[4].description == "interactiveDismiss #4: player → player (rejected:notDismissible, #5)")
        #expect(crumbs.all[11].description == "reset: episode-1 → none (applied, #12)")
    }

    @Test func theObserverRunsAfterTheStateAndTheCallsResultAreUpdated() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        var seen: [String] = []
        nav.onNavigation { crumb in
            seen.append("\(nav.headSeq) \(nav.lastResult?.description ?? "nil") \(nav.path.last.map(\.id) ?? "nil") \(crumb.isApplied)")
        }
        nav.push(.episode(id: 7))
        nav.interactiveDismiss()
        #expect(seen == [
            "1 #1 applied episode-7 true",
            "2 #2 rejected:stale episode-7 false",
        ])
    }

    @Test func aRefusedCallAndReturningToThePresentHaveNoBreadcrumb() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        let (crumbs, _) = observed(nav)
        nav.push(.episode(id: 1))
        nav.push(.episode(id: 2))
        try nav.travel(to: 1)
        #expect(nav.push(.settings) == .refused(.timeTravelling(at: 1)))
        nav.returnToPresent()
        nav.pop()
        #expect(crumbs.seqs == [1, 2, 3])
        #expect(crumbs.all.last?.from == "episode-2" && crumbs.all.last?.to == "episode-1")
    }

    @Test func cancellingAnObservationStopsItAndLeavesTheOthers() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        let (first, firstObservation) = observed(nav)
        let (second, _) = observed(nav)
        nav.push(.episode(id: 1))
        firstObservation.cancel()
        nav.push(.episode(id: 2))
        firstObservation.cancel()                                        // twice: nothing
        #expect(first.seqs == [1])
        #expect(second.seqs == [1, 2])
    }

    @Test func anObserverAddedAfterUnobservedCallsSeesTheTopScreenTheyLeft() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        let (first, observation) = observed(nav)
        nav.push(.episode(id: 1))
        observation.cancel()
        nav.push(.episode(id: 2))                                        // no observer: nothing traced
        nav.show(.player(episode: 2))
        let (second, _) = observed(nav)
        nav.dismiss()
        #expect(first.lines == ["push nil→episode-1 applied #1 app"])
        #expect(second.lines == ["dismiss player→episode-2 applied #4 app"])
    }

    @Test func anObserverCancelledByAnotherDuringADeliveryMissesThatBreadcrumb() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        var later: NavigationObservation?
        nav.onNavigation { crumb in if crumb.seq == 2 { later?.cancel() } }
        let (crumbs, observation) = observed(nav)
        later = observation
        nav.push(.episode(id: 1))
        nav.push(.episode(id: 2))
        nav.push(.episode(id: 3))
        #expect(crumbs.seqs == [1])
    }

    @Test func aCallFromInsideAnObserverAppliesAtOnceAndItsBreadcrumbFollowsInOrder() throws {
        let nav = Navigator<PodRoute>.inMemory(clock: fixedClock)
        var inner: [CallResult] = []
        var seenInside: [UInt64] = []
        // Redirects an upsell to the settings screen, from inside the observer.
        nav.onNavigation { crumb in
            seenInside.append(crumb.seq)
            if crumb.to == "upsell" { inner.append(nav.show(.settings)) }
        }
        let (crumbs, _) = observed(nav)
        nav.push(.episode(id: 1))
        let outer = nav.show(.upsell(feature: "chapters"))
        #expect(outer == .recorded(seq: 2, outcome: .applied()))
        #expect(inner == [.recorded(seq: 3, outcome: .applied())])
        #expect(nav.top?.route == .settings && nav.headSeq == 3)
        // Each observer sees every seq once, in order; seq 3 after both heard of seq 2.
        #expect(seenInside == [1, 2, 3])
        #expect(crumbs.lines == ["push nil→episode-1 applied #1 app", "show episode-1→upsell applied #2 app", "show upsell→settings applied #3 app"])
    }

    @Test func anObserverThatNavigatesOnEveryBreadcrumbIsStoppedAndLogged() async throws {
        let handler = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: InMemoryEventLog(clock: fixedClock), logger: handler.logger, clock: fixedClock)
        let (crumbs, _) = observed(nav)
        nav.onNavigation { crumb in nav.push(.episode(id: Int(crumb.seq) + 1)) }
        nav.push(.episode(id: 1))
        let limit = Navigator<PodRoute>.maxBreadcrumbsFromObservers
        // The outer call, `limit` calls whose breadcrumbs were delivered, and one more whose
        // breadcrumb was dropped, which stopped the chain.
        #expect(nav.headSeq == UInt64(limit) + 2)
        #expect(crumbs.seqs == Array(1...UInt64(limit) + 1))
        #expect(handler.messages.filter { $0.0 == .error }.map(\.1) == [
            "navigation observers called the navigator in answer to every breadcrumb: 1 breadcrumbs after #1 were dropped (the calls were recorded)",
        ])
        // The navigator goes on: the next call is delivered again.
        crumbs.all = []
        nav.popToRoot()
        #expect(crumbs.seqs.first == UInt64(limit) + 3)
        await nav.flush()
        #expect(nav.recordingError == nil)
    }

    @Test func onAStoreWithJournalsTheBreadcrumbNamesTheRunOfThisLaunch() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-crumbs-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(durability: .none, clock: fixedClock))
        let first = try Navigator<PodRoute>(log: store, clock: fixedClock)
        let (firstCrumbs, _) = observed(first)
        first.push(.episode(id: 42))
        await first.flush()
        // The next launch restores the session: its second run.
        let second = try Navigator<PodRoute>(log: store, restoring: first.session, clock: fixedClock)
        let (secondCrumbs, _) = observed(second)
        second.push(.settings)
        await second.flush()
        let runs = try store.runs(of: first.session).map(\.number)
        #expect(runs == [1, 2])
        #expect(first.runNumber == 1 && second.runNumber == 2)
        #expect(firstCrumbs.all.map(\.run) == [1] && firstCrumbs.all.map(\.session) == [first.session])
        let crumb = try #require(secondCrumbs.all.last)
        #expect(crumb.run == 2 && crumb.session == first.session && crumb.seq == second.headSeq)
        #expect(crumb.description == "push settings: episode-42 → settings (applied, #\(second.headSeq), run 2)")
        #expect(crumb.data == ["action": "push settings", "kind": "push", "outcome": "applied", "seq": "\(second.headSeq)",
                               "session": first.session.rawValue, "origin": "app", "from": "episode-42", "to": "settings", "run": "2",
                               "callSite": "RouteLogTests/BreadcrumbTests.swift:\(crumb.callSite?.line ?? 0)"])
    }
}
