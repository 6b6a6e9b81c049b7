import Foundation
import RouteLogTestSupport
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// Today's routes of an app that renamed `episode` to `details` and removed `upsell`, with no
/// `migrate` of its own: what an update needs is given to the restore as `migrate:`.
private enum RenamedRoute: Routable {
    case details(episode: Int)
    case settings

    var id: String {
        switch self {
        case .details(let e): "episode-\(e)"
        case .settings: "settings"
        }
    }

    struct NotInThisApp: Error {}

    /// The app's migration from version 1 (``RouteV1``): `episode` is `details` now, `upsell` is gone.
    static func fromVersion1(_ recorded: RecordedRoute) throws -> RenamedRoute? {
        if let today = try? recorded.route(as: RenamedRoute.self) { return today }
        switch try recorded.decode(RouteV1.self) {
        case .episode(let id): return .details(episode: id)
        case .settings: return .settings
        case .upsell: return nil
        case .player, .chapter, .queue: throw NotInThisApp()
        }
    }
}

/// The guarded launch path (`restoringLatest(store:…open:)`, the one that never throws) restores
/// a session an older version recorded through the app's migration, as the log-taking path does.
@MainActor
@Suite struct GuardedRestoreMigrationTests {
    nonisolated static func openStore(_ path: String) throws -> LMDBEventLog {
        try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: fixedClock))
    }

    /// Version 1.0 of the app records `settings ▸ episode-7 ┃ sheet upsell` on an LMDB store.
    func recordVersion1(_ store: String) async throws -> SessionID {
        let old = Navigator<RouteV1>.restoringLatest(store: store, orStarting: NewSession(label: "main", appName: "Pods", appVersion: "1.0"),
                                                     clock: fixedClock, open: Self.openStore)
        old.push(.settings)
        old.push(.episode(id: 7))
        old.show(.upsell(feature: "offline"), as: .sheet)
        await old.flush()
        #expect(old.recordingError == nil)
        return old.session
    }

    /// Version 2.0's launch: the session it starts when there is none to restore.
    static let version2 = NewSession(label: "main", appName: "Pods", appVersion: "2.0")

    /// Runs `body` on a temporary store that version 1.0 recorded (``recordVersion1(_:)``), with
    /// the session it recorded.
    func withVersion1Store(_ body: (_ store: String, _ session: SessionID) async throws -> Void) async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = dir.path("store")
        try await body(store, try await recordVersion1(store))
    }

    @Test func theGuardedRestoreMigratesWhatAnOlderVersionRecorded() async throws {
        try await withVersion1Store { store, session in
            let nav = Navigator<RenamedRoute>.restoringLatest(store: store, orStarting: Self.version2,
                                                              migrate: RenamedRoute.fromVersion1, clock: fixedClock, open: Self.openStore)
            #expect(nav.recordingError == nil)
            #expect(nav.session == session)
            // The renamed case came back as today's, the removed sheet was dropped on purpose.
            #expect(nav.path == [.settings, .details(episode: 7)])
            #expect(nav.top == nil)
            let report = try #require(nav.restoreReport)
            #expect(report.appVersion == "1.0")
            #expect(report.migrated.map { "\($0.from.id) \($0.from.type ?? "-") -> \($0.to.type ?? "-")" } == ["episode-7 RouteV1 -> RenamedRoute"])
            #expect(report.dropped.map(\.reason) == [.removedByMigration])
            #expect(report.reason == "restore: dropped seq 3 upsell (RouteV1): removed by a migration; migrated 1 route", "\(report.reason ?? "nil")")
            // One reset event records it, as on the log-taking path.
            await nav.flush()
            let resetSeq = try #require(report.resetSeq)
            let reset = try #require(try nav.log.events(session, from: resetSeq, through: resetSeq).first)
            #expect(reset.recorded.meta.origin == .system && reset.recorded.meta.note == report.reason)
        }
    }

    /// The overload for a log that keeps no early journal (`open` returns `any EventLog`) takes
    /// the migration too.
    @Test func theOverloadWithoutAnEarlyJournalMigratesToo() async throws {
        try await withVersion1Store { store, _ in
            let nav = Navigator<RenamedRoute>.restoringLatest(store: store, orStarting: Self.version2,
                                                              migrate: RenamedRoute.fromVersion1, clock: fixedClock) { path -> any EventLog in
                try Self.openStore(path)
            }
            #expect(nav.path == [.settings, .details(episode: 7)])
            #expect(nav.restoreReport?.migrated.count == 1 && nav.restoreReport?.dropped.count == 1)
            await nav.flush()
        }
    }

    /// Without the migration, today's type reads neither version 1's `episode` nor its `upsell`: the
    /// stack is cut at the first, the sheet goes, and the report names both (what an app that
    /// forgot `migrate:` sees).
    @Test func withoutTheMigrationTheRestoreDropsAndSaysWhy() async throws {
        try await withVersion1Store { store, _ in
            let nav = Navigator<RenamedRoute>.restoringLatest(store: store, orStarting: Self.version2, clock: fixedClock, open: Self.openStore)
            #expect(nav.path == [.settings])
            #expect(nav.top == nil)
            #expect(nav.restoreReport?.causes.map(\.route.id) == ["episode-7", "upsell"])
            await nav.flush()
        }
    }
}
