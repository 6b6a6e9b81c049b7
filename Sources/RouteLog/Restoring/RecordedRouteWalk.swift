@_spi(Tools) import RouteLogCore

// The routes a recorded state or event holds: what restoring and time travel search when they
// name the event that recorded a route.

extension NavigationState {
    /// Whether `predicate` holds for every route of every tab, visited in tree order (each frame's
    /// stack bottom first, then its presentation's route, then the presentation's content); stops
    /// at the first route for which it fails. Visible to the package's testing library, which
    /// tells a restore that kept some routes from one that kept none.
    package func allRecordedRoutes(_ predicate: (RouteRef) -> Bool) -> Bool {
        func walk(_ f: Frame) -> Bool {
            for r in f.path where !predicate(r) { return false }
            guard let p = f.presented else { return true }
            return predicate(p.route) && (p.content.map(walk) ?? true)
        }
        if let tabs { return tabs.allSatisfy { walk($0.root) } }
        return walk(root)
    }
}

extension Event {
    /// Whether `predicate` holds for every route the event carries: a push's or a show's route,
    /// every route of a reset's state (none for the other events); stops at the first route for
    /// which it fails.
    func allRecordedRoutes(_ predicate: (RouteRef) -> Bool) -> Bool {
        switch self {
        case .push(let r, _), .show(let r, _, _, _): predicate(r)
        case .reset(let s): s.allRecordedRoutes(predicate)
        default: true
        }
    }

    /// Calls `body` for every route the event carries (see ``allRecordedRoutes(_:)``), a reset's
    /// in tree order. Visible to the package's testing library, which checks the same routes.
    package func forEachRecordedRoute(_ body: (RouteRef) -> Void) {
        _ = allRecordedRoutes { body($0); return true }
    }

    /// Whether the event carries a route with this id.
    func carries(routeID: String) -> Bool {
        !allRecordedRoutes { $0.id != routeID }
    }
}
