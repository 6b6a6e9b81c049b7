@_spi(Tools) import RouteLogCore

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. Direct-mapped: ``capacity`` slots, a reference's slot chosen by a hash of its
/// payload's bytes (its id's when it has none), a new route taking the slot's place. Every call
/// records a route, so an insert is one pass over the payload's bytes and two stores: no table to
/// grow, no second hash to evict the oldest entry. A reference whose slot another took is simply
/// decoded again; which routes stay cached never changes what a read returns.
///
/// A class, with the routes in a buffer of its own: a navigator reaches it through a `let`, and
/// neither a call nor a read looks up the metadata of a type generic over `Route` (the navigator's
/// code is not specialized for the app's route type, so every generic struct or array it touches
/// costs a run-time lookup). The references' array is not generic; a slot's route is initialized
/// exactly when its reference is set. It belongs to one navigator, on the main actor, and no
/// access to it overlaps another: its properties are not checked for exclusive access at run time.
final class RouteCache<Route> {
    static var capacity: Int { 1_024 }
    @exclusivity(unchecked) private var refs: [RouteRef?]
    private let routes: UnsafeMutablePointer<Route>
    /// The slots in use.
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        refs = Array(repeating: nil, count: Self.capacity)
        routes = .allocate(capacity: Self.capacity)
    }

    deinit {
        for i in refs.indices where refs[i] != nil { (routes + i).deinitialize(count: 1) }
        routes.deallocate()
    }

    subscript(ref: RouteRef) -> Route? {
        let i = Self.slot(of: ref)
        guard let cached = refs[i], cached == ref else { return nil }
        return routes[i]
    }

    func insert(_ route: Route, for ref: RouteRef) {
        let i = Self.slot(of: ref)
        if refs[i] == nil {
            (routes + i).initialize(to: route)
            count += 1
        } else {
            routes[i] = route
        }
        refs[i] = ref
    }

    /// The slot of `ref`: a multiplicative hash of its payload's UTF-8 bytes, 8 at a time. Not
    /// `Hasher` (a seeded SipHash over the string's normalized scalars, several times the cost):
    /// the slot only spreads references over the table.
    static func slot(of ref: RouteRef) -> Int {
        var text = ref.payload?.text ?? ref.id
        let h = text.withUTF8 { u -> UInt64 in
            let bytes = UnsafeRawBufferPointer(u)
            var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            var i = 0
            while i + 8 <= bytes.count {
                h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                h ^= h >> 31
                i += 8
            }
            while i < bytes.count {
                h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3
                i += 1
            }
            return h ^ (h >> 29)
        }
        return Int(truncatingIfNeeded: h) & (capacity - 1)
    }
}
