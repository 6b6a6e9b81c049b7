import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import RouteLogTesting
import Testing

/// The restore gate's recipe on a store that holds an extension's sessions (moved in as
/// SharingAStore.md says): `export --format last-states --label main` gives the corpus of the
/// app's own sessions, which the app's route type restores whole; with `--all` the extension's
/// sessions are counted too, and the reason names their routes as routes of another type.
@MainActor
@Suite(.serialized) struct RestoreGateTests {
    /// The app's routes.
    enum AppRoute: Routable {
        case inbox
        case thread(Int)
        var id: String {
            switch self {
            case .inbox: "inbox"
            case .thread(let n): "thread-\(n)"
            }
        }
    }

    /// The share extension's routes: another type, recorded in the extension's own store.
    enum ShareRoute: Routable {
        case compose(draft: Int)
        var id: String { if case .compose(let d) = self { "compose-\(d)" } else { "" } }
    }

    let dir: TempDir
    init() throws { dir = try TempDir() }

    static func options() -> LMDBEventLog.Options { .init(durability: .none, retention: .none) }

    /// Three app sessions ("main", "scene 2", "scene 3") and four extension sessions, moved in.
    func store() async throws -> String {
        let app = dir.path("app")
        do {
            let log = try LMDBEventLog.open(at: app, options: Self.options())
            for (i, label) in ["main", "scene 2", "scene 3"].enumerated() {
                let nav = try Navigator<AppRoute>(log: log, session: NewSession(label: label, appName: "Mail", appVersion: "1.0"))
                nav.push(.inbox)
                nav.push(.thread(i))
                await nav.flush()
            }
        }
        let share = dir.path("share")
        do {
            let log = try LMDBEventLog.open(at: share, options: Self.options())
            for d in 0..<4 {
                let nav = try Navigator<ShareRoute>(log: log, session: NewSession(label: "share", appName: "Mail", appVersion: "1.0"))
                nav.show(.compose(draft: d), as: .sheet)
                await nav.flush()
            }
        }
        let log = try LMDBEventLog.open(at: app, options: Self.options())
        let moved = try log.moveSessions(fromStoreAt: share)
        #expect(moved.sessions.count == 4 && !moved.busy)
        return app
    }

    func export(_ store: String, _ args: [String]) async throws -> String {
        let out = dir.path("last-states-\(UUID().uuidString.prefix(6)).jsonl")
        let r = await InProcess.run(["export", "--format", "last-states", "-o", out, "--store", store] + args)
        try #require(r.status == 0, "\(r)")
        return out
    }

    @Test func theGateCountsTheAppsOwnSessionsByLabel() async throws {
        let store = try await store()
        // The app's own sessions: restored whole, every one.
        let main = try restoreCorpus(try await export(store, ["--label", "main", "--label", "scene *"]), as: AppRoute.self)
        #expect(main.total.sessions == 3 && main.total.whole == 3 && main.share() == 1, "\(main)")
        // Every session of the store: the extension's count as not restored, and the reason says
        // their routes are of another type, not cases the app's type lost.
        let all = try restoreCorpus(try await export(store, ["--all"]), as: AppRoute.self)
        #expect(all.total.sessions == 7 && all.total.whole == 3 && all.total.none == 4, "\(all)")
        #expect(all.total.reasons.map(\.description) == [
            #"ShareRoute: case "compose" of ShareRoute is not a case of AppRoute at the top level"#,
        ], "\(all)")
        // Each line says which scene or extension wrote it.
        let lines = try String(contentsOfFile: try await export(store, ["--all"]), encoding: .utf8).split(separator: "\n")
        let labels = try lines.map { try #require(try JSONValue(parsing: String($0))["label"]?.stringValue) }
        #expect(labels.sorted() == ["main", "scene 2", "scene 3", "share", "share", "share", "share"])
    }

    @Test func aLabelThatNamesNoSessionIsOneLine() async throws {
        let store = try await store()
        let none = await InProcess.run(["export", "--format", "last-states", "-o", "-", "--store", store, "--label", "Main"])
        #expect(none.status != 0 && none.stdout.isEmpty, "\(none)")
        #expect(none.stderr == "routelog: no session labelled 'Main' in \(store) (its labels: 'main', 'scene 2', 'scene 3', 'share')\n", "\(none)")
        let both = await InProcess.run(["export", "--format", "last-states", "-o", "-", "--store", store, "--label", "main", "latest"])
        #expect(both.status == 2 && both.stderr.contains("give SESSIONs or --label, not both"), "\(both)")
        let fixture = await InProcess.run(["export", "-o", "-", "--store", store, "--label", "main", "latest"])
        #expect(fixture.status == 2 && fixture.stderr.contains("--label needs --format events-jsonl or last-states"), "\(fixture)")
    }
}
