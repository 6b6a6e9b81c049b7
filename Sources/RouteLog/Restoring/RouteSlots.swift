@_spi(Tools) import RouteLogCore

/// The storage of the navigator's two direct-mapped tables of routes (``RouteCache``, by
/// reference, and ``EncodedRoutes``, by route): ``capacity`` slots, each empty or holding a route
/// and its reference, a new pair taking its slot's place. No table to grow, no second hash to
/// evict the oldest pair.
///
/// A class, with the routes in a buffer of its own: a navigator reaches its tables through `let`s,
/// and neither a call nor a read looks up the metadata of a type generic over `Route` (the
/// navigator's code is not specialized for the app's route type, so every generic struct or array
/// it touches costs a run-time lookup). The references' array is not generic; a slot's route is
/// initialized exactly when its reference is set. A table belongs to one navigator, on the main
/// actor, and no access to it overlaps another: its properties are not checked for exclusive
/// access at run time.
/// The slots of each of a navigator's route tables, a power of two: a constant rather than a
/// static property of the generic class, whose every use would look up the class's metadata.
let routeSlotCount = 1_024

class RouteSlots<Route> {
    static var capacity: Int { routeSlotCount }
    @exclusivity(unchecked) final var refs: [RouteRef?]
    final let routes: UnsafeMutablePointer<Route>
    /// The slots in use.
    @exclusivity(unchecked) final private(set) var count = 0

    init() {
        refs = Array(repeating: nil, count: routeSlotCount)
        routes = .allocate(capacity: routeSlotCount)
    }

    deinit {
        for i in refs.indices where refs[i] != nil { (routes + i).deinitialize(count: 1) }
        routes.deallocate()
    }

    /// Puts `route` and `ref` in slot `i`, in place of what it held.
    final func set(_ i: Int, _ route: Route, _ ref: RouteRef) {
        if refs[i] == nil {
            (routes + i).initialize(to: route)
            count += 1
        } else {
            routes[i] = route
        }
        refs[i] = ref
    }
}
