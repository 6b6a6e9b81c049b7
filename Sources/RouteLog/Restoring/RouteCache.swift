@_spi(Tools) import RouteLogCore

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. Direct-mapped: ``capacity`` slots, a reference's slot chosen by the hash of its
/// payload (its id when it has none), a new route taking the slot's place. Every call records a
/// route, so an insert is one hash and one store: no table to grow, no second hash to evict the
/// oldest entry. A reference whose slot another took is simply decoded again; which routes stay
/// cached never changes what a read returns.
struct RouteCache<Route> {
    static var capacity: Int { 1_024 }
    private var slots: [(ref: RouteRef, route: Route)?]
    /// The slots in use.
    private(set) var count = 0

    init() {
        slots = Array(repeating: nil, count: Self.capacity)
    }

    subscript(ref: RouteRef) -> Route? {
        guard let entry = slots[Self.slot(of: ref)], entry.ref == ref else { return nil }
        return entry.route
    }

    mutating func insert(_ route: Route, for ref: RouteRef) {
        let i = Self.slot(of: ref)
        if slots[i] == nil { count += 1 }
        slots[i] = (ref, route)
    }

    private static func slot(of ref: RouteRef) -> Int {
        var h = Hasher()
        if let payload = ref.payload { h.combine(payload.text) } else { h.combine(ref.id) }
        return h.finalize() & (capacity - 1)
    }
}
