import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTesting
import Testing

// The example of "Shipping an update that changes routes" in the RouteLog guide, as written there.

/// What version 3.1 shipped (its type is also called `AppRoute`).
private enum Shipped {
    enum AppRoute: Routable {
        case episode(id: Int)
        case player(episode: Int)
        case upsell(feature: String)
        case downloadFailed

        var id: String {
            switch self {
            case .episode(let id): "episode-\(id)"
            case .player: "player"
            case .upsell: "upsell"
            case .downloadFailed: "download-failed"
            }
        }
    }
}

private enum AppRoute: Routable {
    case episodeDetails(id: Int)                    // was episode(id:)
    case player(episode: Int, speed: Double = 1)    // speed is new
    case paywall(feature: String)                   // replaces upsell(feature:)
    // downloadFailed is gone

    var id: String {
        switch self {
        case .episodeDetails(let id): "episode-\(id)"
        case .player: "player"
        case .paywall: "paywall"
        }
    }

    /// The routes as version 3.1 recorded them.
    private enum Version31: Decodable {
        case episode(id: Int)
        case player(episode: Int)
        case upsell(feature: String)
        case downloadFailed
    }

    static func migrate(_ recorded: RecordedRoute) throws -> AppRoute? {
        // Today's routes, and those an earlier restore already migrated, decode as they are.
        if let route = try? recorded.route(as: AppRoute.self) { return route }
        switch try recorded.decode(Version31.self) {
        case .episode(let id): return .episodeDetails(id: id)           // a renamed case
        case .player(let episode): return .player(episode: episode)     // a new field, its default
        case .upsell(let feature): return .paywall(feature: feature)    // a removed case, replaced
        case .downloadFailed: return nil                                // a removed case, gone
        }
    }

    static func withoutMigration(_ recorded: RecordedRoute) throws -> AppRoute? { try recorded.route(as: AppRoute.self) }
}

@MainActor
@Suite struct GuideMigrationExampleTests {
    func recorded31() async throws -> (InMemoryEventLog, SessionID) {
        let log = InMemoryEventLog(clock: fixedClock)
        let old = try Navigator<Shipped.AppRoute>(log: log, session: NewSession(label: "main", appVersion: "3.1"), clock: fixedClock)
        old.push(.episode(id: 1))
        old.show(.player(episode: 1))
        old.push(.episode(id: 2))
        old.present(.downloadFailed, as: .alert)
        old.push(.upsell(feature: "x"))                  // rejected under the alert: never on screen
        await old.flush()
        return (log, old.session)
    }

    @Test func withoutTheMigrationTheGuidesReasonIsWhatTheLogSays() async throws {
        let (log, session) = try await recorded31()
        let nav = try Navigator<AppRoute>.restoringLatest(log: log, orStarting: NewSession(label: "main", appVersion: "3.2"), migrate: AppRoute.withoutMigration, clock: fixedClock)
        await nav.flush()
        #expect(nav.session == session && nav.path == [] && nav.top == nil)
        let reason = "restore: dropped seq 1 episode-1 (AppRoute): case \"episode\" is no longer a case of AppRoute at the top level; "
            + "dropped seq 2 player (AppRoute): missing key \"speed\" at .player, with 2 routes above it"
        #expect(nav.restoreReport?.reason == reason && nav.restoreReport?.isComplete == false)
        #expect(try log.events(session).last?.meta.note == reason)
        #expect(try String(contentsOfFile: Self.guide, encoding: .utf8).contains(reason))
    }

    @Test func withTheMigrationTheSessionComesBackAsTheGuideSays() async throws {
        let (log, session) = try await recorded31()
        let nav = try Navigator<AppRoute>.restoringLatest(log: log, orStarting: NewSession(label: "main", appVersion: "3.2"), clock: fixedClock)
        #expect(try nav.snapshot() == NavigationSnapshot(root: Screen(
            path: [.episodeDetails(id: 1)],
            presented: Presented(token: 2, route: .player(episode: 1, speed: 1), style: .sheet,
                                 content: Screen(path: [.episodeDetails(id: 2)])))))
        let reason = "restore: dropped seq 4 download-failed (AppRoute): removed by a migration; migrated 3 routes"
        #expect(nav.restoreReport?.reason == reason && nav.restoreReport?.dropped.map(\.reason) == [.removedByMigration])
        #expect(try String(contentsOfFile: Self.guide, encoding: .utf8).contains(reason))
        await nav.flush()
        #expect(try log.events(session).count == 6)
    }

    static let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/RouteLog/RouteLog.docc/GettingStarted.md").path

    /// The guide's code is this file's code.
    @Test func theGuidesExampleIsThisFilesCode() throws {
        let guide = try String(contentsOfFile: Self.guide, encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "    case episodeDetails(id: Int)"))
        let end = try #require(source.range(of: "    static func withoutMigration"))
        let code = String(source[start.lowerBound..<end.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(guide.contains(code))
    }
}
