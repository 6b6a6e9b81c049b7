// The routes of the documentation's running example (the README's, with the alert the guides
// add), compiled with every documented block that uses `AppRoute` without declaring it.
import RouteLog

enum AppRoute: Routable {
    case episode(id: Int), player(episode: Int), upsell(feature: String), downloadFailed
    var id: String {                       // presentation identity: one slot per id
        switch self {
        case .episode(let id): "episode-\(id)"
        case .player: "player"
        case .upsell: "upsell"
        case .downloadFailed: "download-failed"
        }
    }
}
