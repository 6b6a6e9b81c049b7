import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

// The README's launch path, run against stores in a temporary directory: the guarded restore,
// an extension's store moved in through a second handle on the app's store, suspension, and the
// next launch restoring the app's own session.
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

@MainActor private func makeNavigator(store: String) -> Navigator<AppRoute> {
    let scene = NewSession(label: "main", appName: "EchoCast", appVersion: "3.2", build: "410")
    return Navigator<AppRoute>.restoringLatest(store: store, orStarting: scene) {
        try LMDBEventLog.open(at: $0)
    }
}

@MainActor private func navigate(_ navigator: Navigator<AppRoute>) {
    navigator.push(.episode(id: 42))
    navigator.show(.player(episode: 42))
    navigator.present(.upsell(feature: "chapters"), dismissible: false)
}

@MainActor private func handleShareRequest(extensionStore: String) async throws -> SessionID {
    let store = try LMDBEventLog.open(at: extensionStore, options: .init(oneProcessAtATime: true))
    let navigator = try Navigator<AppRoute>(log: store, session: NewSession(label: "share", appName: "EchoCast"))
    navigator.push(.episode(id: 42))
    await navigator.suspend()
    return navigator.session
}


@MainActor @Test func readmeLaunchPathRecordsMovesSuspendsAndRestores() async throws {
    let dir = try TempDir()
    defer { dir.cleanup() }
    let app = dir.path("app"), share = dir.path("share")
    let shared = try await handleShareRequest(extensionStore: share)

    let state: NavigationState
    let session: SessionID
    do {
        let navigator = makeNavigator(store: app)
        #expect(navigator.recordingError == nil)
        #expect(navigator.log is LMDBEventLog, "the store opened at launch: the navigator's log is it")
        navigate(navigator)
        #expect(navigator.interactiveDismiss().outcome == .rejected(.notDismissible))

        // A second handle on the app's store moves the extension's session in...
        let second = try LMDBEventLog.open(at: app)
        let moved = try second.moveSessions(fromStoreAt: share)
        #expect(!moved.busy && moved.sessions.map(\.session) == [shared])

        // ...and, kept, does not keep suspend() from letting go of every file and lock of the
        // store; its next call opens the store again.
        await navigator.suspend()
        let held = HeldFiles.of(under: dir.url.path)
        #expect(held.locks == [] && held.descriptors == [] && held.mappings == [], "held while suspended: \(held)")
        #expect(!second.environment.isOpen)
        #expect(try second.sessions().count == 2)
        state = navigator.state
        session = navigator.session
    }

    // The next launch restores the app's own session (never the extension's) as it was.
    let restored = makeNavigator(store: app)
    #expect(restored.recordingError == nil)
    #expect(restored.session == session)
    #expect(restored.state == state)
    let store = try LMDBEventLog.open(at: app)
    #expect(try store.sessions().map(\.label).sorted() == ["main", "share"])
    #expect(try store.events(session).map(\.outcome.description) == ["applied", "applied", "applied", "rejected:notDismissible"])
    #expect(try store.runs(of: session).map(\.appVersion) == ["3.2", "3.2"])
}
