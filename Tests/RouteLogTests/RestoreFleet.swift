import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport

/// A generated fleet of sessions in several app versions, for the restore gate: versions 1.x
/// recorded `RouteV1` (whose `episode` today's `RouteV2` renamed to `details`, and whose `upsell`
/// the gate's migration removes), versions 2.0 and 10.0 recorded today's type.
enum RestoreFleet {
    /// One session: the app version that recorded it and its events.
    struct Session {
        var name: String
        var appVersion: String?
        var events: [Event]
    }

    /// Today's migration for the fleet: `RouteV2.migrate` (which maps version 1's `episode` to
    /// `details`), except that `upsell` is removed.
    static func migrate(_ recorded: RecordedRoute) throws -> RouteV2? {
        if recorded.caseName == "upsell" { return nil }
        return try RouteV2.migrate(recorded)
    }

    /// A route no version of the app reads: a type that is gone.
    static let legacy = RouteRef(id: "legacy", type: "Legacy", payload: RawJSON(.object(["gone": .object([:])])))

    static func ref(_ route: some Routable) -> RouteRef { try! RouteRef(route) }

    /// What each kind of session holds at its end, and how it restores.
    enum Kind: CaseIterable {
        /// Version 1's episode (renamed, migrated) with settings pushed on it: whole.
        case renamedEpisode
        /// An episode with version 1's upsell shown as a sheet: the upsell is removed, partly.
        case upsellSheet
        /// Version 1's upsell at the bottom of the stack, an episode above it: the stack is cut
        /// at the upsell, nothing comes back.
        case upsellUnderEpisode
        /// A route of a type that is gone: nothing comes back.
        case legacyRoute
        /// Today's routes: whole.
        case today
        /// No routes (every screen popped): whole.
        case empty

        func events(_ i: Int) -> [Event] {
            switch self {
            case .renamedEpisode: [.push(ref(RouteV1.episode(id: i))), .push(ref(RouteV1.settings))]
            case .upsellSheet: [.push(ref(RouteV1.episode(id: i))), .show(ref(RouteV1.upsell(feature: "f\(i)")), style: .sheet)]
            case .upsellUnderEpisode: [.push(ref(RouteV1.upsell(feature: "f\(i)"))), .push(ref(RouteV1.episode(id: i)))]
            case .legacyRoute: [.push(legacy)]
            case .today: [.push(ref(RouteV2.details(episode: i))), .show(ref(RouteV2.player(episode: i, speed: 1.5)), style: .fullScreenCover)]
            case .empty: [.push(ref(RouteV2.settings)), .popToRoot()]
            }
        }
    }

    /// The fleet: how many sessions of each kind each version has (`nil`: a session that recorded
    /// no version).
    static let plan: [(version: String?, kinds: [(Kind, Int)])] = [
        ("2.0", [(.today, 6), (.empty, 1)]),
        ("1.0", [(.renamedEpisode, 5), (.upsellSheet, 3), (.upsellUnderEpisode, 2)]),
        (nil, [(.renamedEpisode, 1)]),
        ("10.0", [(.today, 2)]),
        ("1.1", [(.renamedEpisode, 4), (.upsellSheet, 1), (.legacyRoute, 1)]),
    ]

    /// The sessions of ``plan``, versions interleaved (a corpus is not sorted).
    static var sessions: [Session] {
        var out: [Session] = []
        var n = 0
        for (version, kinds) in plan {
            for (kind, count) in kinds {
                for _ in 0..<count {
                    n += 1
                    out.append(Session(name: "s\(n)", appVersion: version, events: kind.events(n)))
                }
            }
        }
        return out.enumerated().sorted { ($0.offset * 7) % out.count < ($1.offset * 7) % out.count }.map(\.element)
    }

    /// The table the gate prints for the fleet.
    static let table = """
        APP VERSION  SESSIONS  WHOLE  PARTLY  NONE  WHOLE %
        1.0                10      5       3     2     50.0
          5 × RouteV1: removed by a migration
        1.1                 6      4       1     1     66.7
          1 × Legacy: case "gone" of Legacy is not a case of RouteV1 at the top level
          1 × RouteV1: removed by a migration
        2.0                 7      7       0     0    100.0
        10.0                2      2       0     0    100.0
        -                   1      1       0     0    100.0
        all                26     19       4     3     73.1
          6 × RouteV1: removed by a migration
          1 × Legacy: case "gone" of Legacy is not a case of RouteV1 at the top level

        """

    /// One `last-states` line of `session`, as `routelog export --format last-states` writes it.
    static func lastStatesLine(_ session: Session) -> String {
        let state = replay(session.events).state
        let version = session.appVersion.map(JSONValue.string) ?? .null
        return JSONValue.object([
            "session": .string(session.name), "app": .string("Pods"), "app_version": version, "session_app_version": version,
            "seq": .int(Int64(session.events.count)), "digest": .string(state.digest.hex), "state": state.json,
        ]).canonicalText
    }

    /// Writes the fleet as a `last-states` file `name` in `dir`; returns its path.
    static func writeLastStates(_ sessions: [Session] = sessions, in dir: TempDir, name: String = "last-states.jsonl") throws -> String {
        try dir.write(name, sessions.map(lastStatesLine).joined(separator: "\n") + "\n")
        return dir.path(name)
    }

    /// Writes the fleet as a folder of fixtures `name` in `dir`; returns its path.
    static func writeFixtures(in dir: TempDir, name: String = "fixtures") throws -> String {
        for s in sessions {
            let fixture = Fixture(name: s.name, session: Fixture.SessionHeader(label: s.name, app: "Pods", appVersion: s.appVersion),
                                  events: s.events.map { RecordedEvent($0) })
            try dir.write("\(name)/\(s.name).json", fixture.rendered())
        }
        return dir.path(name)
    }
}
