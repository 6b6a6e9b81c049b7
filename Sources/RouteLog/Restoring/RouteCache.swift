@_spi(Tools) import RouteLogCore

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. Direct-mapped: ``capacity`` slots, a reference's slot chosen by the hash of its
/// fields it keeps (``RouteRef/fieldsHash``), a new route taking the slot's place. Every call
/// records a route, so an insert is two stores: no table to grow, no second hash to evict the
/// oldest entry. A reference whose slot another took is simply
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

    /// The slot of `ref`: from the hash of its fields that the reference computed when it was
    /// made (a `StableHasher` digest, well spread), so an insert does not pass over the payload's
    /// bytes again.
    static func slot(of ref: RouteRef) -> Int {
        Int(truncatingIfNeeded: ref.fieldsHash.lo) & (capacity - 1)
    }
}
