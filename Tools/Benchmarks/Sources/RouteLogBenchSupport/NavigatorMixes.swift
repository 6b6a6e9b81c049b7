import RouteLog

/// The routes of a media app, with payloads: what the navigator figures and profiles navigate.
public enum BenchRoute: Routable {
    case episode(id: Int, title: String)
    case show(name: String, season: Int)
    case player(episode: Int, position: Double, chapters: [String])
    case alert(message: String)
    case settings

    public var id: String {
        switch self {
        case .episode(let id, _): "episode-\(id)"
        case .show(let name, _): "show-\(name)"
        case .player: "player"
        case .alert: "alert"
        case .settings: "settings"
        }
    }
}

/// Step `i` of the navigator figures' mix: pushes with payloads, sheets, alerts, dismissals, pops,
/// and every 24 steps a return to the root (dismissAll then popToRoot: two calls), so the stacks
/// stay a few screens deep, as in an app. `push`, `sheet` and `alert` give the routes of step `i`.
@MainActor @inlinable @inline(__always)
public func navigatorStep(_ nav: Navigator<BenchRoute>, _ i: Int, push: (Int) -> BenchRoute, sheet: (Int) -> BenchRoute,
                          alert: (Int) -> BenchRoute) {
    switch i % 8 {
    case 0, 2, 5: nav.push(push(i))
    case 1: nav.show(sheet(i), as: .sheet)
    case 3: nav.dismiss()
    case 4: nav.show(alert(i), as: .alert)
    case 6: nav.pop()
    default:
        if i % 24 == 7 {
            nav.dismissAll()
            nav.popToRoot()
        } else {
            nav.dismiss()
        }
    }
}
