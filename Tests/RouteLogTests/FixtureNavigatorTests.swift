import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A navigator on a fixture's screens (what an Xcode preview of a crash opens), and the previous
/// run's fixture an app attaches to a crash report.
@MainActor @Suite struct FixtureNavigatorTests {
    /// Recorded with version 1's routes, opened with version 2's: the screens come back migrated,
    /// and a route the migration drops is reported.
    @Test func aNavigatorOpensOnTheFixturesScreens() async throws {
        let recorder = try Navigator<RouteV1>(log: InMemoryEventLog())
        recorder.push(.episode(id: 7))
        recorder.show(.player(episode: 7), as: .sheet)
        recorder.push(.queue)
        await recorder.flush()
        let fixture = Fixture(name: "screens", events: try recorder.log.events(recorder.session).map(\.recorded), expect: nil)
        let navigator = try Navigator<RouteV2>(fixture: fixture, migrate: RouteV2.migrate)
        #expect(navigator.path == [.details(episode: 7)])
        #expect(navigator.top?.route == .player(episode: 7, speed: 1))
        #expect(ScreenLayout(navigator.state).description == "episode-7 ┃ sheet player ▸ queue")
        #expect(navigator.restoreReport?.isComplete == true)
        // Calls in a preview work and record nothing anywhere.
        #expect(navigator.pop().isApplied)
    }

    /// The next launch's navigator names the run before it, its last seq and its screens, and
    /// that run's fixture replays to those screens. (A crashed run: ReproTests, with an app that dies.)
    @Test func theNextLaunchKnowsThePreviousRun() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path)
        let session: SessionID
        do {
            let first = try Navigator<RouteV1>(log: log, session: NewSession(label: "app", appVersion: "1.0"))
            first.push(.episode(id: 1))
            first.show(.upsell(feature: "hd"), as: .sheet)
            await first.flush()
            session = first.session
            #expect(first.previousRun == nil, "a new session has no run before this one")
        }
        do {
            let second = try Navigator<RouteV1>(log: log, restoring: session, run: RunStart(appVersion: "1.1"))
            second.dismiss()
            second.push(.settings)
            await second.flush()
            #expect(second.previousRun?.run.number == 1)
        }
        let third = try Navigator<RouteV1>(log: log, restoring: session, run: RunStart(appVersion: "1.2"))
        let previous = try #require(third.previousRun)
        #expect(previous.run.number == 2 && previous.lastSeq == 4 && previous.run.appVersion == "1.1" && !previous.crashed)
        #expect(previous.screens.description == "episode-1 ▸ settings")
        let fixture = try Fixture(text: String(decoding: try previous.fixtureData(), as: UTF8.self), file: "previous.json")
        #expect(fixture.check().passed)
        #expect(ScreenLayout(replay(fixture.events.map(\.event)).state) == previous.screens)
        #expect(fixture.events.suffix(2).map(\.event.kind) == [.dismiss, .push], "the run's own events come last")
    }
}
