import RouteLogCore

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. Holds at most ``capacity`` routes; the oldest entry goes first, one at a time, so
/// no call ever empties a large table.
struct RouteCache<Route> {
    static var capacity: Int { 1_024 }
    private var routes: [RouteRef: Route] = [:]
    private var order: [RouteRef] = []
    private var next = 0

    init() {
        routes.reserveCapacity(Self.capacity)
        order.reserveCapacity(Self.capacity)
    }

    var count: Int { routes.count }

    subscript(ref: RouteRef) -> Route? { routes[ref] }

    mutating func insert(_ route: Route, for ref: RouteRef) {
        if routes.updateValue(route, forKey: ref) != nil { return }
        if order.count < Self.capacity {
            order.append(ref)
        } else {
            routes.removeValue(forKey: order[next])
            order[next] = ref
            next = (next + 1) % Self.capacity
        }
    }
}
