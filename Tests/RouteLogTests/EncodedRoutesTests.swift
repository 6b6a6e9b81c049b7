import Foundation
@testable import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// A call with a route equal to one recorded recently takes that route's reference instead of
/// encoding it again. What is recorded is the same either way: the reference a fresh encoding
/// gives.
@MainActor
@Suite struct EncodedRoutesTests {
    /// How many times a route type's `encode(to:)` ran.
    final class Encodes: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.withLock { n += 1 } }
        var count: Int { lock.withLock { n } }
    }

    /// Names the counter of a ``CountedName``: one per test, since tests run in parallel.
    protocol Counter { static var encodes: Encodes { get } }
    enum Equal: Counter { static let encodes = Encodes() }
    enum Colliding: Counter { static let encodes = Encodes() }

    /// A string that counts its encodings, encoded as the string itself.
    struct CountedName<C: Counter>: Codable, Hashable, Sendable {
        var text: String
        init(_ text: String) { self.text = text }
        init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            C.encodes.add()
            var c = encoder.singleValueContainer()
            try c.encode(text)
        }
    }

    struct CountedRoute: Routable {
        var name: CountedName<Equal>
        var id: String { "counted-\(name.text)" }
        init(_ name: String) { self.name = CountedName(name) }
    }

    /// Every route hashes alike, so all of them want the same slot.
    struct CollidingRoute: Routable {
        var name: CountedName<Colliding>
        var id: String { "colliding" }
        init(_ name: String) { self.name = CountedName(name) }
        func hash(into hasher: inout Hasher) {}
    }

    struct NumberRoute: Routable {
        var value: Double
        var id: String { "number" }
    }

    @Test func anEqualRouteIsEncodedOnceAndRecordedAsAFreshEncodingWouldBe() throws {
        let nav = try Navigator<CountedRoute>(log: InMemoryEventLog(clock: fixedClock), clock: fixedClock)
        let (a, b) = (CountedRoute("a"), CountedRoute("b"))
        let before = Equal.encodes.count
        nav.push(a)
        nav.push(b)
        nav.push(a)
        nav.push(CountedRoute("a"))
        nav.show(b, as: .sheet)
        #expect(Equal.encodes.count - before == 2)
        let fresh = try [a, b, a, a].map { try RouteRef($0) }
        #expect(Equal.encodes.count - before == 6)
        #expect(nav.state.root.path == fresh)
        #expect(nav.state.root.presented?.route == (try RouteRef(b)))
        #expect(nav.path == [a, b, a, a])
        #expect(nav.encodedRoutes.count == 2)
    }

    @Test func routesThatShareASlotEachGetTheirOwnReference() throws {
        let nav = try Navigator<CollidingRoute>(log: InMemoryEventLog(clock: fixedClock), clock: fixedClock)
        let (x, y) = (CollidingRoute("x"), CollidingRoute("y"))
        let before = Colliding.encodes.count
        for route in [x, y, x, x, y] { nav.push(route) }
        // x, then y in x's place, then x in y's place (encoded again), x again from the slot,
        // then y encoded again.
        #expect(Colliding.encodes.count - before == 4)
        #expect(nav.path == [x, y, x, x, y])
        #expect(nav.state.root.path.map { $0.payload?.text } == [#"{"name":"x"}"#, #"{"name":"y"}"#, #"{"name":"x"}"#, #"{"name":"x"}"#, #"{"name":"y"}"#])
        #expect(nav.encodedRoutes.count == 1)
    }

    @Test func aRouteThatDoesNotEncodeIsRefusedEveryTimeAndNeverKept() throws {
        let nav = try Navigator<NumberRoute>(log: InMemoryEventLog(clock: fixedClock), clock: fixedClock)
        for _ in 0..<2 {
            guard case .refused(.unencodableRoute) = nav.push(NumberRoute(value: .infinity)) else {
                Issue.record("an infinite payload was not refused")
                return
            }
        }
        #expect(nav.encodedRoutes.count == 0)
        #expect(nav.headSeq == 0)
        nav.push(NumberRoute(value: 1.5))
        #expect(nav.state.root.path.map { $0.payload?.text } == [#"{"value":1.5}"#])
    }
}
