@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// A route type whose payload is just its id, for generated sessions.
struct GenRoute: Routable {
    var id: String
}

@MainActor
@Suite struct GeneratedSessionTests {
    /// A generated event with typed payloads (resets are left out: their states would need mapping too).
    static func typed(_ e: Event) throws -> Event? {
        switch e {
        case .push(let r, let f): return .push(try RouteRef(GenRoute(id: r.id)), frame: f)
        case .show(let r, let s, let d, let p): return .show(try RouteRef(GenRoute(id: r.id)), style: s, dismissible: d, placement: p)
        case .reset: return nil
        default: return e
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func longGeneratedSessionsAgreeWithTheLogAndTravelExactly(seed: UInt64) async throws {
        let log = InMemoryEventLog(snapshotInterval: 64, clock: fixedClock)
        let nav = try Navigator<GenRoute>(log: log, clock: fixedClock)
        var gen = SessionGenerator(seed: seed, mix: .adversarial)
        var events: [Event] = []
        while events.count < 1500 {
            guard let e = try Self.typed(gen.next()) else { continue }
            events.append(e)
            nav.send(e)
        }
        await nav.flush()
        let stored = try log.events(nav.session)
        let expected = replay(events)
        #expect(stored.map(\.outcome) == expected.steps.map(\.outcome), "seed \(seed)")
        #expect(nav.state == expected.state && stored.last?.digest == nav.state.digest, "seed \(seed)")
        // Travel to seeded random seqs, across the navigator's in-memory checkpoints.
        var rng = SplitMix64(seed: seed)
        for _ in 0..<40 {
            let seq = UInt64.random(in: 0...1500, using: &rng)
            try nav.travel(to: seq)
            let want = seq == 0 ? NavigationState() : replay(events.prefix(Int(seq))).state
            #expect(nav.state == want, "seed \(seed), seq \(seq)")
        }
        nav.returnToPresent()
        #expect(nav.state == expected.state)
    }
}
