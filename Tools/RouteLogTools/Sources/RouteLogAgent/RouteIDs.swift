@_spi(Tools) import RouteLogCore

extension NavigationState {
    /// Every route id in the state (paths and presentations, every tab).
    var allRouteIDs: [String] {
        var out: [String] = []
        for t in tabs ?? [Tab(id: "", root: root)] {
            var frame: Frame? = t.root
            while let f = frame {
                out += f.path.map(\.id)
                if let p = f.presented { out.append(p.route.id) }
                frame = f.presented?.content
            }
        }
        return out
    }
}

extension JSONValue {
    var agentArray: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}
