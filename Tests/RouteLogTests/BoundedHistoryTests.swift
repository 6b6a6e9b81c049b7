import Foundation
@_spi(Benchmarks) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// A navigator's memory stays bounded however long the session, and time travel still reaches
/// every seq of it.
@MainActor
@Suite struct BoundedHistoryTests {
    /// One call of a deterministic mix: pushes and shows with payloads, pops, dismisses,
    /// popToRoot, some of them rejected. The stack stays shallow.
    static func drive(_ nav: Navigator<PodRoute>, _ i: Int) {
        switch i % 10 {
        case 0, 3, 6: nav.push(.episode(id: i % 997))
        case 1: nav.show(.player(episode: i % 89), as: .sheet)
        case 2: nav.push(.show(name: "Show \(i % 31)"))
        case 4: nav.dismiss()
        case 5: nav.present(.alert(message: "Note \(i % 7)"), as: .alert)
        case 7: nav.interactiveDismiss()
        case 8: nav.pop()
        default: if i % 20 == 9 { nav.popToRoot() } else { nav.show(.upsell(feature: "f\(i % 13)"), as: .fullScreenCover) }
        }
        if i % 50 == 49 { nav.dismissAll(); nav.popToRoot() }
    }

    static func expectBounded(_ nav: Navigator<PodRoute>, window: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let m = nav.memoryFootprint
        #expect(m.historyEvents <= window, "history holds \(m.historyEvents) events", sourceLocation: sourceLocation)
        #expect(m.historyCheckpoints <= window / 256 + 1, "history holds \(m.historyCheckpoints) checkpoints", sourceLocation: sourceLocation)
        #expect(m.cachedRoutes <= 1_024, "the route cache holds \(m.cachedRoutes) routes", sourceLocation: sourceLocation)
    }

    @Test func aHundredThousandCallsKeepTheHistoryBoundedAndTravelMatchesTheStore() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-bounded-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(clock: fixedClock))
        let window = Navigator<PodRoute>.defaultHistoryWindow
        let nav = try Navigator<PodRoute>(log: store, clock: fixedClock)
        let calls = 100_000
        var i = 0
        var maxEvents = 0
        while nav.headSeq < UInt64(calls) {
            Self.drive(nav, i)
            i += 1
            if i % 4_096 == 0 {
                maxEvents = max(maxEvents, nav.memoryFootprint.historyEvents)
                Self.expectBounded(nav, window: window)
            }
        }
        #expect(maxEvents == window, "the window fills up to its size and no further")
        await nav.flush()
        Self.expectBounded(nav, window: window)
        #expect(nav.memoryFootprint.unwrittenEvents == 0)
        let head = nav.headSeq
        #expect(try store.session(nav.session).eventCount == head)
        #expect(try store.session(nav.session).headDigest == nav.state.digest)

        // The first, a middle and the last seq, plus the edges of the window: the navigator's
        // state is the store's (what `routelog state SESSION@SEQ` prints).
        let oldest = head - UInt64(window)
        for seq in [UInt64(0), 1, head / 2, oldest - 1, oldest, oldest + 1, head - 1, head] {
            try nav.travel(to: seq)
            let expected = try store.state(of: nav.session, at: seq)
            #expect(nav.state == expected, "seq \(seq)")
            #expect(nav.state.digest == expected.digest, "seq \(seq)")
        }
        #expect(!nav.isTravelling)
        Self.expectBounded(nav, window: window)
    }

    @Test func callsReturnAtOnceWhileTheLogBlocksAndTravelReachesUnwrittenSeqs() async throws {
        let log = GatedLog()
        let window = 512
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock, historyWindow: window)
        let reference = Navigator<PodRoute>.inMemory(clock: fixedClock)
        let calls = 3_000
        for i in 0..<calls {
            Self.drive(nav, i)
            Self.drive(reference, i)
        }
        var waited = 0
        while !log.started && waited < 60_000 {
            try await Task.sleep(nanoseconds: 10_000_000)
            waited += 1
        }
        // The log took nothing yet: every call was applied in memory and returned.
        #expect(log.started)
        #expect(nav.recordingStatus.writtenSeq == 0)
        #expect(nav.headSeq == reference.headSeq && nav.state == reference.state)
        #expect(nav.recordingStatus.pendingCount == Int(nav.headSeq))
        Self.expectBounded(nav, window: window)
        #expect(nav.memoryFootprint.historyEvents == window)

        // Seqs older than the window and not in the log yet come from the recorder's backlog.
        try await Self.expectTravelThenCatchUp(nav, log: log, like: reference, travelTo: [1, 700, nav.headSeq - UInt64(window) - 1, nav.headSeq - 3])
    }

    /// Travels to `seqs` (each state as `reference`'s log has it), then opens the gate and checks
    /// that the log catches up with every event and digest the reference recorded.
    static func expectTravelThenCatchUp(_ nav: Navigator<PodRoute>, log: GatedLog, like reference: Navigator<PodRoute>, travelTo seqs: [UInt64],
                                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await reference.flush()
        for seq in seqs {
            try nav.travel(to: seq)
            #expect(nav.state == (try reference.log.state(of: reference.session, at: seq)), "seq \(seq)", sourceLocation: sourceLocation)
        }
        nav.returnToPresent()

        log.open()
        await nav.flush()
        #expect(!log.timedOut, sourceLocation: sourceLocation)
        #expect(nav.recordingError == nil && nav.recordingStatus.pendingCount == 0, sourceLocation: sourceLocation)
        let stored = try log.events(nav.session)
        let expected = try reference.log.events(reference.session)
        #expect(stored.count == Int(nav.headSeq) && expected.count == stored.count, sourceLocation: sourceLocation)
        #expect(stored.map(\.recorded.event) == expected.map(\.recorded.event), sourceLocation: sourceLocation)
        #expect(stored.map(\.digest) == expected.map(\.digest), sourceLocation: sourceLocation)
        #expect(stored.last?.digest == nav.state.digest, sourceLocation: sourceLocation)
    }

    @Test func theWindowIsAWholeNumberOfCheckpointIntervals() async throws {
        for (asked, kept) in [(1, 256), (300, 512), (1_024, 1_024)] {
            let nav = try Navigator<PodRoute>(log: InMemoryEventLog(clock: fixedClock), clock: fixedClock, historyWindow: asked)
            for i in 0..<3_000 { Self.drive(nav, i) }
            await nav.flush()
            #expect(nav.memoryFootprint.historyEvents == kept, "historyWindow \(asked)")
            #expect(nav.memoryFootprint.historyCheckpoints == kept / 256 + 1, "historyWindow \(asked)")
            // Travel inside the window, across its oldest checkpoint, and before it.
            let head = nav.headSeq
            for seq in [head - 1, head - UInt64(kept), head - UInt64(kept) - 1, 1] {
                try nav.travel(to: seq)
                #expect(nav.state == (try nav.log.state(of: nav.session, at: seq)), "historyWindow \(asked), seq \(seq)")
            }
        }
    }
}
