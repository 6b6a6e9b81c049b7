import Foundation
import Observation
@_spi(Benchmarks) @testable import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// Routes whose payloads never repeat (an id and a title on every call): what the navigator keeps
/// of them stays bounded, its route cache spreads them over its slots, and a call notifies the
/// observers of what it changed, once.
@MainActor
@Suite struct DistinctPayloadTests {
    enum TitledRoute: Routable {
        case episode(id: Int, title: String)
        case player(position: Double)
        case alert(message: String)

        var id: String {
            switch self {
            case .episode(let id, _): "episode-\(id)"
            case .player: "player"
            case .alert: "alert"
            }
        }
    }

    /// Call `i` of a mix in which every route carries a payload no other call has.
    static func drive(_ nav: Navigator<TitledRoute>, _ i: Int) {
        switch i % 6 {
        case 0, 3: nav.push(.episode(id: i, title: "Episode \(i): a title of realistic length"))
        case 1: nav.show(.player(position: Double(i) + 0.5), as: .sheet)
        case 2: nav.dismiss()
        case 4: nav.show(.alert(message: "Download \(i) finished"), as: .alert)
        default: nav.dismiss(); nav.pop(2)
        }
    }

    @Test func whatTheNavigatorKeepsOfDistinctPayloadsStaysBounded() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-distinct-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(clock: fixedClock))
        let window = 1_024
        let nav = try Navigator<TitledRoute>(log: store, clock: fixedClock, historyWindow: window)
        var largest = Navigator<TitledRoute>.MemoryFootprint(historyEvents: 0, historyCheckpoints: 0, cachedRoutes: 0, unwrittenEvents: 0, heldEvents: 0)
        for i in 0..<20_000 {
            Self.drive(nav, i)
            if i % 1_000 == 999 {
                let m = nav.memoryFootprint
                largest.historyEvents = max(largest.historyEvents, m.historyEvents)
                largest.historyCheckpoints = max(largest.historyCheckpoints, m.historyCheckpoints)
                largest.cachedRoutes = max(largest.cachedRoutes, m.cachedRoutes)
                largest.heldEvents = max(largest.heldEvents, m.heldEvents)
            }
        }
        await nav.flush()
        #expect(largest.historyEvents == window, "the history window fills to its size and no further")
        #expect(largest.historyCheckpoints == window / 256 + 1)
        #expect(largest.cachedRoutes <= RouteCache<TitledRoute>.capacity)
        #expect(nav.encodedRoutes.count <= EncodedRoutes<TitledRoute>.capacity)
        // The journal gives the unwritten events back: none is held in memory.
        #expect(largest.heldEvents == 0)
        #expect(nav.memoryFootprint.unwrittenEvents == 0)
        #expect(try store.session(nav.session).eventCount == nav.headSeq)
        #expect(try store.session(nav.session).headDigest == nav.state.digest)
    }

    @Test func theRouteCacheSpreadsReferencesOfOneIDOverItsSlotsAndNeverAnswersForAnother() throws {
        let cache = RouteCache<TitledRoute>()
        let capacity = RouteCache<TitledRoute>.capacity
        // One id ("player"), a distinct payload each: only the payload tells the slots apart.
        let routes = (0..<capacity).map { TitledRoute.player(position: Double($0) + 0.25) }
        let refs = try routes.map { try RouteRef($0) }
        for (route, ref) in zip(routes, refs) { cache.insert(route, for: ref) }
        // Spread like a random function (1,024 keys into 1,024 slots fill about 647); a slot that
        // ignored the payload would fill 1.
        #expect(cache.count >= 600, "\(cache.count) of \(capacity) slots used")
        // The latest reference is there; an overwritten one is absent, never another's route.
        #expect(cache[refs[capacity - 1]] == routes[capacity - 1])
        var found = 0
        for (route, ref) in zip(routes, refs) {
            if let cached = cache[ref] {
                #expect(cached == route)
                found += 1
            }
        }
        #expect(found == cache.count)
        // Ten thousand more distinct references: the table never grows.
        for k in 0..<10_000 {
            let route = TitledRoute.episode(id: k, title: "Episode \(k)")
            cache.insert(route, for: try RouteRef(route))
        }
        #expect(cache.count <= capacity)
    }

    /// What `withObservationTracking` reports for one call made after tracking `read`.
    static func notifies<T>(_ nav: Navigator<TitledRoute>, reading read: @escaping () -> T, when call: () -> Void) -> Bool {
        let fired = Fired()
        withObservationTracking { _ = read() } onChange: { fired.value = true }
        call()
        return fired.value
    }

    final class Fired: @unchecked Sendable { var value = false }

    @Test func aCallNotifiesTheStateOnlyWhenItAppliedAndTheHeadEveryTime() throws {
        let nav = Navigator<TitledRoute>.inMemory(clock: fixedClock)
        nav.push(.episode(id: 1, title: "One"))
        // Applied: the state's observers and the head's hear of it.
        #expect(Self.notifies(nav, reading: { nav.state }, when: { nav.push(.episode(id: 2, title: "Two")) }))
        #expect(Self.notifies(nav, reading: { nav.headSeq }, when: { nav.push(.episode(id: 3, title: "Three")) }))
        #expect(Self.notifies(nav, reading: { nav.lastResult }, when: { nav.pop() }))
        // Rejected (nothing presented to dismiss): only the head's observers.
        #expect(!Self.notifies(nav, reading: { nav.state }, when: { nav.dismiss() }))
        #expect(!Self.notifies(nav, reading: { nav.path }, when: { nav.dismiss() }))
        #expect(Self.notifies(nav, reading: { nav.headSeq }, when: { nav.dismiss() }))
        #expect(Self.notifies(nav, reading: { nav.lastResult }, when: { nav.dismiss() }))
        #expect(nav.lastResult?.isApplied == false)
        // Refused (time travel): only the head's observers, and the seq stays.
        try nav.travel(to: 1)
        let seq = nav.headSeq
        #expect(!Self.notifies(nav, reading: { nav.live }, when: { nav.push(.episode(id: 4, title: "Four")) }))
        #expect(Self.notifies(nav, reading: { nav.lastResult }, when: { nav.push(.episode(id: 5, title: "Five")) }))
        #expect(nav.headSeq == seq)
        nav.returnToPresent()
        #expect(nav.headSeq == seq && nav.path.count == 2)
    }
}
