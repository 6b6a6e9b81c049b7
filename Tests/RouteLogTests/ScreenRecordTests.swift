import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// Screen records: what the navigator stores of its screens' reports and of the divergences it
/// finds, beside the events and without touching them.
@MainActor
@Suite struct ScreenRecordTests {
    let clock = ManualClock()

    /// A short scripted run: a sheet that never appears (one divergence), a stray screen, and
    /// screens that follow the state otherwise. Returns the records it must leave, in order.
    func script(_ nav: Navigator<PodRoute>) -> [ScreenRecord] {
        nav.tracksScreens = true
        let sim = SimulatedScreens(nav)
        let t0 = clock.ms
        nav.push(.episode(id: 1))                                          // #1
        sim.sync()                                                          // root[0] appears
        clock.advance(10)
        nav.show(.player(episode: 1), as: .sheet)                           // #2: never appears
        sim.sync(withholding: [.presentation(token: 2, routeID: "player")])
        clock.advance(1000)
        nav.checkScreens()                                                  // the divergence
        nav.pop(in: .root)                                                  // #3: root[0] goes
        sim.sync(withholding: [.presentation(token: 2, routeID: "player")])
        let episode = ScreenID.stackEntry(frame: .root, index: 0, routeID: "episode-1")
        let player = ScreenID.presentation(token: 2, routeID: "player")
        let divergence = Divergence(kind: .notOnScreen, screen: player, seq: 2, detectedAt: t0 + 1010)
        return [
            ScreenRecord(.appeared(episode), headSeq: 1, time: t0),
            ScreenRecord(.diverged(divergence), headSeq: 2, time: t0 + 1010),
            ScreenRecord(.disappeared(episode), headSeq: 3, time: t0 + 1010),
        ]
    }

    @Test func aNavigatorStoresAppearancesDisappearancesAndDivergencesInOrder() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: clock.read)
        let expected = script(nav)
        await nav.flush()
        #expect(try log.screenRecords(nav.session) == expected)
        #expect(nav.divergences.count == 1)
    }

    @Test func anLMDBStoreKeepsThemAcrossAReopenAndAReaderSeesThem() async throws {
        let dir = try TempDir()
        let store = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, clock: fixedClock))
        let nav = try Navigator<PodRoute>(log: store, clock: clock.read)
        let expected = script(nav)
        await nav.flush()
        #expect(try store.screenRecords(nav.session) == expected)
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(try reader.screenRecords(nav.session) == expected)
        #expect(try reader.screenRecords(nav.session).map(\.description) == [
            "appeared episode-1 at root[0]",
            "diverged #2 not on screen: player (#2)",
            "disappeared episode-1 at root[0]",
        ])
    }

    @Test func screenRecordsChangeNoEventNoDigestAndVerifyStillPasses() async throws {
        let dir = try TempDir()
        let store = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, clock: fixedClock))
        let reporting = try Navigator<PodRoute>(log: store, clock: clock.read)
        _ = script(reporting)
        let quiet = try Navigator<PodRoute>(log: store, clock: clock.read)
        quiet.push(.episode(id: 1))
        quiet.show(.player(episode: 1), as: .sheet)
        quiet.pop(in: .root)
        await reporting.flush()
        await quiet.flush()
        let a = try store.events(reporting.session), b = try store.events(quiet.session)
        #expect(a.map(\.event) == b.map(\.event) && a.map(\.digest) == b.map(\.digest) && a.map(\.outcome) == b.map(\.outcome))
        #expect(try store.screenRecords(quiet.session).isEmpty)
    }

    @Test func movingAnExtensionsSessionsCopiesTheirScreenRecordsOnce() async throws {
        let dir = try TempDir()
        let (id, expected): (SessionID, [ScreenRecord])
        do {
            let ext = try LMDBEventLog.open(at: dir.path("ext"), options: .init(durability: .none, clock: fixedClock))
            let nav = try Navigator<PodRoute>(log: ext, clock: clock.read)
            expected = script(nav)
            await nav.flush()
            id = nav.session
        }
        let app = try LMDBEventLog.open(at: dir.path("app"), options: .init(durability: .none, clock: fixedClock))
        let moved = try app.moveSessions(fromStoreAt: dir.path("ext"))
        #expect(moved.sessions.map(\.session) == [id])
        #expect(try app.screenRecords(id) == expected)
        #expect(try app.moveSessions(fromStoreAt: dir.path("ext")).sessions.isEmpty)
        #expect(try app.screenRecords(id) == expected)
    }
}
