@_spi(Tools) import RouteLogCore

/// The references of recently recorded routes, so that a call with a route equal to one of them
/// takes its reference instead of encoding the route again: an app pushes the same screens over
/// and over (a tab's root, settings, the episode it came from), and a route's encoding through
/// `Codable` is most of a call's work.
///
/// A route's slot is chosen by its `hashValue` (see ``RouteSlots``). The hash only picks a slot; a
/// route is answered only when it is `==` to the slot's, so `Hasher`'s per-process seed reaches
/// no reference, digest or output. What it relies on is `Equatable`'s contract: equal routes are
/// interchangeable, so they encode alike (see ``Routable``). A route that fails to encode is never
/// kept.
final class EncodedRoutes<Route: Hashable>: RouteSlots<Route> {
    /// The reference `route` was last recorded with, if its slot still holds it.
    func ref(for route: Route) -> RouteRef? {
        let i = slot(of: route)
        guard let ref = refs[i], routes[i] == route else { return nil }
        return ref
    }

    /// Keeps `ref` as `route`'s reference, in place of the slot's route.
    func insert(_ ref: RouteRef, for route: Route) {
        set(slot(of: route), route, ref)
    }

    func slot(of route: Route) -> Int {
        route.hashValue & (routeSlotCount - 1)
    }
}
