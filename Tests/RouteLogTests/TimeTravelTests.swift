@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

@MainActor
@Suite struct TimeTravelTests {
    @Test func travellingShowsThePastRefusesCallsAndLeavesTheLogAlone() async throws {
        let log = InMemoryEventLog(snapshotInterval: 2, clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        NavigatorTests.script(nav)
        await nav.flush()
        let head = nav.state
        let stored = try log.events(nav.session)

        for seq in UInt64(0)...17 {
            try nav.travel(to: seq)
            #expect(nav.seq == seq && nav.isTravelling == (seq < 17))
            #expect(nav.state == (seq == 0 ? NavigationState() : replay(stored.prefix(Int(seq)).map(\.event)).state), "seq \(seq)")
        }
        try nav.travel(to: 4)
        #expect(nav.top?.route == .player(episode: 1))
        let refused = nav.push(.settings)
        #expect(refused == .refused(.timeTravelling(at: 4)))
        #expect(nav.show(.settings) == .refused(.timeTravelling(at: 4)))
        #expect(nav.presentationBinding(style: .sheet).set(nil) == .refused(.timeTravelling(at: 4)))
        #expect(nav.headSeq == 17)
        #expect(try nav.stepBack())
        #expect(nav.seq == 3 && nav.top == nil)
        #expect(try nav.stepForward() && nav.seq == 4)
        #expect(throws: TimeTravelError.seqOutOfRange(seq: 18, headSeq: 17)) { try nav.travel(to: 18) }
        nav.returnToPresent()
        #expect(!nav.isTravelling && nav.state == head && nav.seq == 17)
        #expect(try !nav.stepForward())
        await nav.flush()
        #expect(try log.session(nav.session).eventCount == 17)
        #expect(nav.push(.settings).seq == 18)
    }

    @Test func travelReachesSeqsFromBeforeTheNavigatorOpened() async throws {
        let log = InMemoryEventLog(snapshotInterval: 3, clock: fixedClock)
        let first = try Navigator<PodRoute>(log: log, clock: fixedClock)
        first.push(.episode(id: 1))
        first.show(.player(episode: 1))
        await first.flush()
        let nav = try Navigator<PodRoute>(log: log, restoring: first.session, clock: fixedClock)
        nav.dismiss()
        try nav.travel(to: 1)                                      // read from the log
        #expect(nav.path == [.episode(id: 1)] && nav.top == nil)
        try nav.travel(to: 2)
        #expect(nav.top?.route == .player(episode: 1))
        #expect(try nav.stepForward() && !nav.isTravelling && nav.top == nil)
    }

    @Test func stepBackStopsAtTheStart() throws {
        let nav = try inMemoryNavigator()
        nav.push(.settings)
        #expect(try nav.stepBack() && nav.seq == 0 && nav.path == [])
        #expect(try !nav.stepBack())
    }
}
