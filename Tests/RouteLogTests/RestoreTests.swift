import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import RouteLogTesting
import Testing

@MainActor
@Suite struct RestoreTests {
    /// Where `fixtureFile` writes; removed with the suite's instance.
    let fixtures: TempDir

    init() throws { fixtures = try TempDir() }

    /// Records `script` with version 1, then restores the session with version 2.
    func recordThenRestore(snapshotInterval: UInt64 = 1024, appVersion: String = "1.0",
                           migrate: ((RecordedRoute) throws -> RouteV2?)?,
                           _ script: (Navigator<RouteV1>) -> Void) async throws -> (InMemoryEventLog, Navigator<RouteV2>, recordedHead: UInt64) {
        let log = InMemoryEventLog(snapshotInterval: snapshotInterval, clock: fixedClock)
        let old = try Navigator<RouteV1>(log: log, session: NewSession(label: "main", appVersion: appVersion), clock: fixedClock)
        script(old)
        await old.flush()
        let restored = try Navigator<RouteV2>(log: log, restoring: old.session, migrate: migrate, clock: fixedClock)
        await restored.flush()
        return (log, restored, old.headSeq)
    }

    /// The log ends with the restore's one `reset` (origin `system`, the reason as its note, no
    /// call site), agrees with the navigator, and a second restore changes nothing.
    func expectOneRestoreEvent(_ log: InMemoryEventLog, _ nav: Navigator<RouteV2>, recordedHead: UInt64, reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try #require(nav.restoreReport, sourceLocation: sourceLocation)
        #expect(report.reason == reason, sourceLocation: sourceLocation)
        #expect(report.resetSeq == recordedHead + 1 && nav.headSeq == recordedHead + 1, sourceLocation: sourceLocation)
        let events = try log.events(nav.session)
        #expect(events.count == Int(recordedHead) + 1, sourceLocation: sourceLocation)
        let last = try #require(events.last, sourceLocation: sourceLocation)
        #expect(last.event == .reset(nav.state) && last.outcome == .applied(), sourceLocation: sourceLocation)
        #expect(last.meta.origin == .system && last.meta.note == reason && last.meta.callSite == nil, sourceLocation: sourceLocation)
        #expect(last.digest == nav.state.digest, sourceLocation: sourceLocation)
        #expect(try log.state(of: nav.session, at: nav.headSeq) == nav.state, sourceLocation: sourceLocation)
        // Every route of the restored state decodes with today's type.
        #expect(throws: Never.self, sourceLocation: sourceLocation) { _ = try nav.snapshot() }
        // Restoring again resumes where the first restore left off, without another event.
        let again = try Navigator<RouteV2>(log: log, restoring: nav.session, migrate: RouteV2.asToday, clock: fixedClock)
        #expect(again.state == nav.state && again.headSeq == nav.headSeq, sourceLocation: sourceLocation)
        #expect(again.restoreReport?.resetSeq == nil && again.restoreReport?.isComplete == true, sourceLocation: sourceLocation)
    }

    // MARK: - Without migrations: a partial restore

    @Test func aRenamedCaseCutsTheStackAtIt() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.push(.settings)
            $0.push(.episode(id: 1))
            $0.push(.queue)
        }
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [.settings])))
        let report = try #require(nav.restoreReport)
        #expect(report.dropped == [
            DroppedRoute(route: try RouteRef(RouteV1.episode(id: 1)), seq: 2, reason: .undecodable(message: Msg.unknownCase("episode"))),
            DroppedRoute(route: try RouteRef(RouteV1.queue), seq: 3, reason: .above(routeID: "episode-1")),
        ])
        #expect(report.causes.count == 1 && !report.isComplete && report.migrated.isEmpty && report.source == .folded)
        #expect(report.appVersion == "1.0" && report.seq == 3)
        try expectOneRestoreEvent(log, nav, recordedHead: head,
                                  reason: "restore: dropped seq 2 episode-1 (RouteV1): \(Msg.unknownCase("episode")), with 1 route above it")
    }

    @Test func aRemovedCaseTakesItsPresentationAndEverythingAboveIt() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.push(.settings)
            $0.show(.upsell(feature: "chapters"))              // #2
            $0.push(.queue)                                     // inside the upsell sheet
            $0.present(.settings, as: .popover)                 // #4, on top
        }
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [.settings])))
        let report = try #require(nav.restoreReport)
        #expect(report.dropped.map(\.description) == [
            "seq 2: route \"upsell\" (stored as RouteV1) no longer decodes: \(Msg.unknownCase("upsell"))",
            "seq 3: route \"queue\" (stored as RouteV1) went with \"upsell\" below it",
            "seq 4: route \"settings\" (stored as RouteV1) went with \"upsell\" below it",
        ])
        try expectOneRestoreEvent(log, nav, recordedHead: head,
                                  reason: "restore: dropped seq 2 upsell (RouteV1): \(Msg.unknownCase("upsell")), with 2 routes above it")
    }

    @Test func aNewFieldWithoutAMigrationDropsThePresentation() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.push(.settings)
            $0.show(.player(episode: 3), as: .fullScreenCover)  // #2
        }
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [.settings])))
        try expectOneRestoreEvent(log, nav, recordedHead: head, reason: "restore: dropped seq 2 player (RouteV1): \(Msg.missingSpeed)")
    }

    @Test func aRetypedFieldCutsTheStack() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.push(.chapter(number: 3))
            $0.push(.settings)
        }
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [])))
        try expectOneRestoreEvent(log, nav, recordedHead: head,
                                  reason: "restore: dropped seq 1 chapter-3 (RouteV1): \(Msg.retyped), with 1 route above it")
    }

    @Test func aRemovedCaseInsideAPresentationsContentCutsThatStackOnly() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.show(.queue)                                     // #1
            $0.push(.settings)                                  // in the queue sheet
            $0.push(.upsell(feature: "offline"))
            $0.push(.chapter(number: 9))
            $0.present(.settings, as: .alert)                   // #5, on the queue sheet's frame
        }
        // The sheet stays, its stack is cut at the upsell; the alert it presents stays too.
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(presented: Presented(
            token: 1, route: .queue, style: .sheet,
            content: Screen(path: [.settings], presented: Presented(token: 5, route: .settings, style: .alert))))))
        try expectOneRestoreEvent(log, nav, recordedHead: head,
                                  reason: "restore: dropped seq 3 upsell (RouteV1): \(Msg.unknownCase("upsell")), with 1 route above it")
    }

    @Test func aRemovedCaseInAnotherTabKeepsThatTabsRoot() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.setTabs(["home", "library"])
            $0.push(.settings)                                  // home
            $0.selectTab("library")
            $0.push(.upsell(feature: "sync"))
            $0.push(.queue)
            $0.selectTab("home")
            $0.show(.queue)                                     // #7 in home
        }
        #expect(try nav.snapshot() == NavigationSnapshot(tabs: [
            TabScreen(id: "home", screen: Screen(path: [.settings], presented: Presented(token: 7, route: .queue, style: .sheet))),
            TabScreen(id: "library", screen: Screen()),
        ], selectedTab: "home"))
        #expect(nav.tabs == ["home", "library"] && nav.selectedTab == "home")
        try expectOneRestoreEvent(log, nav, recordedHead: head,
                                  reason: "restore: dropped seq 4 upsell (RouteV1): \(Msg.unknownCase("upsell")), with 1 route above it")
    }

    @Test func everyChangeAtOnceNamesEachDroppedRouteInWalkOrder() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.asToday) {
            $0.setTabs(["home", "library"])
            $0.push(.episode(id: 1))                            // home: renamed
            $0.show(.player(episode: 1))                        // #3: new field
            $0.selectTab("library")
            $0.push(.settings)
            $0.push(.chapter(number: 2))                        // retyped
        }
        #expect(try nav.snapshot() == NavigationSnapshot(tabs: [
            TabScreen(id: "home", screen: Screen()), TabScreen(id: "library", screen: Screen(path: [.settings])),
        ], selectedTab: "library"))
        #expect(nav.restoreReport?.causes.map(\.route.id) == ["episode-1", "player", "chapter-2"])
        try expectOneRestoreEvent(log, nav, recordedHead: head, reason: "restore: dropped seq 2 episode-1 (RouteV1): \(Msg.unknownCase("episode")); "
                                  + "dropped seq 3 player (RouteV1): \(Msg.missingSpeed); dropped seq 6 chapter-2 (RouteV1): \(Msg.retyped)")
    }

    @Test func aMigrationThatRemovesARouteSaysSo() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: RouteV2.removingUpsell) {
            $0.push(.settings)
            $0.present(.upsell(feature: "x"), dismissible: false)
        }
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [.settings])))
        #expect(nav.restoreReport?.dropped.map(\.reason) == [.removedByMigration])
        try expectOneRestoreEvent(log, nav, recordedHead: head, reason: "restore: dropped seq 2 upsell (RouteV1): removed by a migration")
    }

    // MARK: - With the migration

    @Test func withTheMigrationEveryChangedRouteComesBackInItsNewForm() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: nil) {   // RouteV2.migrate, the protocol requirement
            $0.setTabs(["home", "library"])
            $0.push(.episode(id: 1))                            // renamed
            $0.push(.chapter(number: 2))                        // retyped
            $0.show(.player(episode: 1))                        // #4: new field with a default
            $0.push(.settings)                                  // unchanged, inside the player
            $0.present(.upsell(feature: "offline"), dismissible: false)   // #6: removed, replaced by paywall
            $0.selectTab("library")
            $0.push(.upsell(feature: "sync"))                   // removed, in another tab
            $0.push(.queue)
        }
        #expect(try nav.snapshot() == NavigationSnapshot(tabs: [
            TabScreen(id: "home", screen: Screen(path: [.details(episode: 1), .chapter(number: "2")], presented: Presented(
                token: 4, route: .player(episode: 1, speed: 1), style: .sheet,
                content: Screen(path: [.settings], presented: Presented(token: 6, route: .paywall(feature: "offline"), style: .sheet, dismissible: false))))),
            TabScreen(id: "library", screen: Screen(path: [.paywall(feature: "sync"), .queue])),
        ], selectedTab: "library"))
        let report = try #require(nav.restoreReport)
        #expect(report.isComplete)
        #expect(report.migrated.map(\.from.id) == ["episode-1", "chapter-2", "player", "upsell", "upsell"])
        #expect(report.migrated.map(\.to.id) == ["episode-1", "chapter-2", "player", "paywall", "paywall"])
        #expect(report.migrated.allSatisfy { $0.from.type == "RouteV1" && $0.to.type == "RouteV2" })
        try expectOneRestoreEvent(log, nav, recordedHead: head, reason: "restore: migrated 5 routes")
    }

    @Test func aMigrationSeesTheAppVersionThatRecordedTheSession() async throws {
        final class Seen: @unchecked Sendable { var versions: [String?] = [] }
        let seen = Seen()
        let (_, nav, _) = try await recordThenRestore(appVersion: "1.4 (88)", migrate: { recorded in
            seen.versions.append(recorded.appVersion)
            return try RouteV2.migrate(recorded)
        }) {
            $0.push(.episode(id: 1))
            $0.push(.episode(id: 1))                            // the same route again: migrated once
            $0.push(.settings)
        }
        #expect(seen.versions == ["1.4 (88)", "1.4 (88)"])
        #expect(try nav.snapshot().root.path == [.details(episode: 1), .details(episode: 1), .settings])
        #expect(nav.restoreReport?.appVersion == "1.4 (88)")
    }

    @Test func aSessionThatStillDecodesContinuesWithoutAnEvent() async throws {
        let (log, nav, head) = try await recordThenRestore(migrate: nil) {
            $0.push(.settings)
            $0.show(.queue)
        }
        let report = try #require(nav.restoreReport)
        #expect(report.resetSeq == nil && report.reason == nil && report.isComplete && report.migrated.isEmpty)
        #expect(report.recordedDigest == report.foldedDigest && report.source == .folded)
        #expect(nav.headSeq == head)
        #expect(try log.events(nav.session).count == Int(head))
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(path: [.settings], presented: Presented(token: 2, route: .queue, style: .sheet))))
        // A navigator that starts a new session has no report.
        #expect(try Navigator<RouteV2>(log: log, clock: fixedClock).restoreReport == nil)
    }

    @Test func restoringLatestNeverThrowsForDecodingAndTakesTheMigration() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let old = try Navigator<RouteV1>(log: log, clock: fixedClock)
        old.push(.upsell(feature: "x"))
        old.push(.settings)
        await old.flush()
        let plain = try Navigator<RouteV2>.restoringLatest(log: log, migrate: RouteV2.asToday, clock: fixedClock)
        #expect(plain.path == [] && plain.restoreReport?.causes.map(\.route.id) == ["upsell"])
        await plain.flush()
        // The partial restore is now the session's head: the next launch restores it as is.
        let next = try Navigator<RouteV2>.restoringLatest(log: log, clock: fixedClock)
        #expect(next.path == [] && next.restoreReport?.resetSeq == nil)
        // The dropped routes are still in the log, for the CLI.
        #expect(try log.events(old.session).prefix(2).map(\.event) == [.push(try RouteRef(RouteV1.upsell(feature: "x"))), .push(try RouteRef(RouteV1.settings))])
    }

    @Test func anLMDBStoreRestoresAcrossTheUpdate() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-restore-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(durability: .none, snapshotInterval: 2, clock: fixedClock))
        do {
            let old = try Navigator<RouteV1>.restoringLatest(log: store, orStarting: NewSession(label: "main", appVersion: "1.0"), clock: fixedClock)
            old.push(.settings)
            old.push(.episode(id: 7))
            old.show(.upsell(feature: "x"))
            // The old version goes to the background and is replaced by the update (its process
            // ends: here, its navigator is released; a suspended one keeps its session).
            await old.suspend()
        }
        let nav = try Navigator<RouteV2>.restoringLatest(log: store, orStarting: NewSession(label: "main", appVersion: "2.0"), migrate: RouteV2.asToday, clock: fixedClock)
        await nav.flush()
        #expect(nav.path == [.settings] && nav.top == nil)
        let last = try #require(try store.events(nav.session).last)
        #expect(last.seq == 4 && last.meta.origin == .system && last.event == .reset(nav.state))
        #expect(last.meta.note == "restore: dropped seq 2 episode-7 (RouteV1): \(Msg.unknownCase("episode")); dropped seq 3 upsell (RouteV1): \(Msg.unknownCase("upsell"))")
        #expect(try store.session(nav.session).headDigest == nav.state.digest)
    }

    // MARK: - Recorded by an older reducer

    @Test func anOlderReducersRecordedStateIsRebuiltFromItsOutcomes() async throws {
        // The old reducer rejected pushing the route already on top; today's applies it.
        let log = SwappableReducerLog(snapshotInterval: 100, reducer: .rejectingRepeatedPush)
        let old = try Navigator<RouteV1>(log: log, clock: fixedClock)
        // The navigator folds with today's reducer, so write the old app's events to the log directly.
        _ = try log.append([.push(try RouteRef(RouteV1.settings)), .push(try RouteRef(RouteV1.settings)), .push(try RouteRef(RouteV1.queue))]
            .map { RecordedEvent($0) }, to: old.session, expectedSeq: 0)
        let recorded = try #require(try log.events(old.session).last)
        #expect(try log.events(old.session).map(\.outcome) == [.applied(), .rejected(.invalidCount), .applied()])
        log.reducer = .current                                  // the app update

        let nav = try Navigator<RouteV2>(log: log, restoring: old.session, clock: fixedClock)
        await nav.flush()
        // The user resumes where they were, not where today's rules would have taken them.
        #expect(nav.path == [.settings, .queue])
        #expect(try log.state(of: old.session, at: 3).root.path.map(\.id) == ["settings", "settings", "queue"])
        let report = try #require(nav.restoreReport)
        #expect(report.source == .followedRecordedOutcomes && report.recordedDigest == recorded.digest && report.foldedDigest != recorded.digest)
        #expect(nav.state.digest == recorded.digest && report.isComplete)
        let reset = try #require(try log.events(old.session).last)
        #expect(reset.seq == 4 && reset.event == .reset(nav.state) && reset.meta.origin == .system && reset.digest == recorded.digest)
        #expect(reset.meta.note == "restore: recorded by another reducer: rebuilt the recorded state of seq 3 (\(recorded.digest.hex.prefix(12))) from its outcomes")
    }

    @Test func anOlderReducersStateThatCannotBeRebuiltResumesFromTheClosestRebuild() async throws {
        // The old reducer let the user swipe away an undismissible sheet; today's rejects it.
        let log = SwappableReducerLog(snapshotInterval: 100, reducer: .interactiveDismissIgnoresDismissible)
        let old = try Navigator<RouteV1>(log: log, clock: fixedClock)
        _ = try log.append([.push(try RouteRef(RouteV1.settings)),
                        .show(try RouteRef(RouteV1.queue), style: .sheet, dismissible: false, placement: .onTop),
                        .interactiveDismiss(token: nil), .push(try RouteRef(RouteV1.settings))].map { RecordedEvent($0) },
                       to: old.session, expectedSeq: 0)
        #expect(try log.events(old.session).map(\.outcome)[2] == .applied())
        log.reducer = .current

        let nav = try Navigator<RouteV2>(log: log, restoring: old.session, clock: fixedClock)
        let report = try #require(nav.restoreReport)
        #expect(report.source == .approximated(lastMatchingSeq: 2))
        // Today's rules keep the sheet: the closest rebuild is today's fold, so no event is needed.
        #expect(nav.state == (try log.state(of: old.session, at: 4)) && report.resetSeq == nil)
        #expect(nav.presented()?.route == .queue && nav.path(in: .presentation(2)) == [.settings])
    }

    @Test func aSnapshotRecordedByTheOlderReducerAnchorsTheRebuild() async throws {
        let log = SwappableReducerLog(snapshotInterval: 2, reducer: .rejectingRepeatedPush)
        let old = try Navigator<RouteV1>(log: log, clock: fixedClock)
        let s = try RouteRef(RouteV1.settings), q = try RouteRef(RouteV1.queue)
        // The old rule rejects seqs 3 and 5; the snapshot at seq 4 holds the state it recorded.
        _ = try log.append([.push(s), .push(q), .push(q), .push(s), .push(s)].map { RecordedEvent($0) }, to: old.session, expectedSeq: 0)
        let recorded = try #require(try log.events(old.session).last)
        log.reducer = .current
        #expect(try log.state(of: old.session, at: 5).digest != recorded.digest)
        let nav = try Navigator<RouteV2>(log: log, restoring: old.session, clock: fixedClock)
        #expect(nav.path == [.settings, .queue, .settings] && nav.state.digest == recorded.digest)
        #expect(nav.restoreReport?.source == .followedRecordedOutcomes && nav.restoreReport?.resetSeq == 6)
    }

    // MARK: - Checking recorded sessions in tests

    func fixtureFile(_ name: String, _ script: (Navigator<RouteV1>) -> Void) async throws -> String {
        let log = InMemoryEventLog(clock: fixedClock)
        let old = try Navigator<RouteV1>(log: log, session: NewSession(label: name, appVersion: "1.0"), clock: fixedClock)
        script(old)
        await old.flush()
        let fixture = Fixture(name: name, session: Fixture.SessionHeader(label: name, appVersion: "1.0"),
                              events: try log.events(old.session).map(\.recorded)).recorded()
        let path = fixtures.path("\(name).json")
        try fixture.write(toFile: path)
        return path
    }

    @Test func expectReplayDecodingNamesEachRouteThatNeedsAMigration() async throws {
        let path = try await fixtureFile("needs-migration") {
            $0.push(.settings)
            $0.push(.episode(id: 1))
            $0.show(.upsell(feature: "x"))
            $0.dismiss()
            $0.show(.upsell(feature: "x"))                      // the same route again: named once
        }
        let problems = routeDecodingProblems(try Fixture(contentsOf: path).events.map(\.event), as: RouteV2.self)
        #expect(problems == [
            "seq 2: route \"episode-1\" (stored as RouteV1) no longer decodes: \(Msg.unknownCase("episode")); it needs a migration (RouteV2.migrate), or restoring a session that holds it drops it",
            "seq 3: route \"upsell\" (stored as RouteV1) no longer decodes: \(Msg.unknownCase("upsell")); it needs a migration (RouteV2.migrate), or restoring a session that holds it drops it",
        ])
        withKnownIssue { expectReplay(fixture: path, decoding: RouteV2.self, record: false) }
    }

    @Test func aRecordedFixtureRunsThroughTheMigrations() async throws {
        let path = try await fixtureFile("through-migrations") {
            $0.push(.settings)
            $0.push(.episode(id: 1))
            $0.push(.chapter(number: 4))
            $0.pop()                                            // recorded, then gone: still checked
            $0.show(.upsell(feature: "x"))
        }
        // With the migration, every recorded route restores.
        let restoration = try #require(expectRestore(fixture: path, as: RouteV2.self))
        #expect(restoration.isComplete && restoration.migrated.count == 2)
        #expect(try NavigationSnapshot<RouteV2>(restoration.state) == NavigationSnapshot(root: Screen(
            path: [.settings, .details(episode: 1)], presented: Presented(token: 5, route: .paywall(feature: "x"), style: .sheet))))
        // Without it, each route that would be dropped is a failure naming its seq, even one no
        // longer on screen at the end.
        let (problems, partial) = restoreProblems(fixture: path, as: RouteV2.self, migrate: RouteV2.asToday)
        #expect(problems.map { String($0.prefix(while: { $0 != ")" })) } == [
            "seq 2: route \"episode-1\" (stored as RouteV1", "seq 3: route \"chapter-4\" (stored as RouteV1", "seq 5: route \"upsell\" (stored as RouteV1",
        ])
        #expect(problems.allSatisfy { $0.hasSuffix("no migration restores it, so restoring a session that holds it drops it") })
        let partialRestoration = try #require(partial)
        #expect(partialRestoration.dropped.map(\.seq) == [2, 5])
        #expect(try NavigationSnapshot<RouteV2>(partialRestoration.state) == NavigationSnapshot(root: Screen(path: [.settings])))
        withKnownIssue { expectRestore(fixture: path, as: RouteV2.self, migrate: RouteV2.asToday) }
        // A route the migration removes on purpose is not a failure.
        #expect(restoreProblems(fixture: path, as: RouteV2.self, migrate: { r in r.caseName == "upsell" ? nil : try RouteV2.migrate(r) }).problems.isEmpty)
    }
}
