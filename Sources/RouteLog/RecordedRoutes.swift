import RouteLogCore

// The routes a recorded state or event holds: what restoring and time travel search when they
// name the event that recorded a route.

extension NavigationState {
    /// Whether `predicate` holds for every route of every tab, visited as
    /// ``forEachRecordedRoute(_:)`` visits them; stops at the first route for which it fails.
    func allRecordedRoutes(_ predicate: (RouteRef) -> Bool) -> Bool {
        func walk(_ f: Frame) -> Bool {
            for r in f.path where !predicate(r) { return false }
            guard let p = f.presented else { return true }
            return predicate(p.route) && (p.content.map(walk) ?? true)
        }
        if let tabs { return tabs.allSatisfy { walk($0.root) } }
        return walk(root)
    }

    /// Calls `body` for every route of every tab: each frame's stack bottom first, then its
    /// presentation's route, then the presentation's content.
    func forEachRecordedRoute(_ body: (RouteRef) -> Void) {
        _ = allRecordedRoutes { body($0); return true }
    }
}

extension Event {
    /// Whether the event carries a route with this id.
    func carries(routeID: String) -> Bool {
        switch self {
        case .push(let r, _), .show(let r, _, _, _): r.id == routeID
        case .reset(let s): !s.allRecordedRoutes { $0.id != routeID }
        default: false
        }
    }
}
