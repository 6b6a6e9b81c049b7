import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

// The README's adoption example, compiled and run against a store in a temporary directory.
private enum AppRoute: Routable {
    case episode(id: Int), player(episode: Int), upsell(feature: String)
    var id: String {
        switch self {
        case .episode(let id): "episode-\(id)"
        case .player: "player"
        case .upsell: "upsell"
        }
    }
}

@MainActor private func makeNavigator(store: LMDBEventLog) throws -> Navigator<AppRoute> {
    let nav = try Navigator<AppRoute>.restoringLatest(log: store, orStarting: NewSession(label: "main scene"))
    nav.push(.episode(id: 42))
    nav.show(.player(episode: 42))
    nav.present(.upsell(feature: "chapters"), dismissible: false)
    return nav
}

@MainActor @Test func readmeAdoptionExampleRecordsAndRestores() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-readme-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let store = try LMDBEventLog.open(at: dir)
    let state: NavigationState
    do {
        let nav = try makeNavigator(store: store)
        #expect(nav.path == [.episode(id: 42)])
        #expect(nav.presentations.map(\.route) == [.player(episode: 42), .upsell(feature: "chapters")])
        #expect(nav.interactiveDismiss().outcome == .rejected(.notDismissible))
        // The app goes to the background and its process ends (here: the navigator is released;
        // a suspended navigator keeps its session within the process); the next launch restores it.
        await nav.suspend()
        state = nav.state
    }
    let restored = try Navigator<AppRoute>.restoringLatest(log: store, orStarting: NewSession(label: "main scene"))
    #expect(restored.state == state)
    #expect(try store.events(restored.session).map(\.outcome.description) == ["applied", "applied", "applied", "rejected:notDismissible"])
}
