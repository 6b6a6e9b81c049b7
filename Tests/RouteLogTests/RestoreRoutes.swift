@_spi(Tools) import RouteLog

/// Version 1 of an app's routes: what the recorded sessions hold.
enum RouteV1: Routable {
    case episode(id: Int)
    case player(episode: Int)
    case upsell(feature: String)
    case chapter(number: Int)
    case settings
    case queue

    var id: String {
        switch self {
        case .episode(let id): "episode-\(id)"
        case .player: "player"
        case .upsell: "upsell"
        case .chapter(let n): "chapter-\(n)"
        case .settings: "settings"
        case .queue: "queue"
        }
    }
}

/// Version 2: `episode` renamed to `details`, `player` gained `speed` (default 1), `upsell`
/// removed (replaced by `paywall`), `chapter.number` retyped to a string.
enum RouteV2: Routable {
    case details(episode: Int)
    case player(episode: Int, speed: Double)
    case paywall(feature: String)
    case chapter(number: String)
    case settings
    case queue

    var id: String {
        switch self {
        case .details(let e): "episode-\(e)"
        case .player: "player"
        case .paywall: "paywall"
        case .chapter(let n): "chapter-\(n)"
        case .settings: "settings"
        case .queue: "queue"
        }
    }

    /// The migration from version 1: today's routes decode as they are; version 1's are read
    /// with version 1's type and mapped.
    static func migrate(_ recorded: RecordedRoute) throws -> RouteV2? {
        if let today = try? recorded.route(as: RouteV2.self) { return today }
        switch try recorded.decode(RouteV1.self) {
        case .episode(let id): return .details(episode: id)
        case .player(let episode): return .player(episode: episode, speed: 1)
        case .upsell(let feature): return .paywall(feature: feature)
        case .chapter(let n): return .chapter(number: String(n))
        case .settings: return .settings
        case .queue: return .queue
        }
    }

    /// No migration: the routes as today's type reads them.
    static func asToday(_ recorded: RecordedRoute) throws -> RouteV2? { try recorded.route(as: RouteV2.self) }

    /// A migration that drops the upsell on purpose and reads nothing else from version 1.
    static func removingUpsell(_ recorded: RecordedRoute) throws -> RouteV2? {
        if recorded.caseName == "upsell" { return nil }
        return try recorded.route(as: RouteV2.self)
    }
}

/// What the decoder says about each version 1 payload read as version 2.
enum Msg {
    /// A case of version 1 that version 2 no longer has: the note names the case and the type it was recorded with.
    static func unknownCase(_ name: String) -> String { "case \"\(name)\" of RouteV1 is not a case of RouteV2 at the top level" }
    static let missingSpeed = "missing key \"speed\" at .player"
    static let retyped = "Expected to decode String but found number instead. at .chapter.number"
}
