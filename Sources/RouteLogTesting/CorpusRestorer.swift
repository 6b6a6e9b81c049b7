import Foundation
@_spi(Tools) import RouteLog

/// Restores sessions one by one into a ``CorpusRestoration/Tally``, migrating each distinct route
/// once per app version.
struct CorpusRestorer<Route: Routable> {
    var migrate: ((RecordedRoute) throws -> Route?)?
    /// What each route became, per app version handed to the migration.
    private var resolutions: [String?: [RouteRef: RouteRestorer<Route>.Resolution]] = [:]
    private(set) var tally = CorpusRestoration.Tally()

    init(migrate: ((RecordedRoute) throws -> Route?)?) { self.migrate = migrate }

    /// Restores `state` as a navigator restoring a session of `migrationVersion` would, and
    /// counts it under `appVersion`.
    mutating func add(_ state: NavigationState, appVersion: String?, migrationVersion: String?) {
        let restorer = RouteRestorer<Route>(appVersion: migrationVersion, migrate: migrate)
        let restoration = restorer.restore(state, reusing: &resolutions[migrationVersion, default: [:]])
        var reasons: [(routeType: String?, message: String)] = []
        for dropped in restoration.dropped {
            switch dropped.reason {
            case .undecodable(let message): reasons.append((dropped.route.type, message))
            case .removedByMigration: reasons.append((dropped.route.type, "removed by a migration"))
            case .above: break
            }
        }
        let verdict: CorpusRestoration.Verdict
        if let invalid = restoration.invalidity {
            reasons.append((nil, "the restored state is invalid (\(invalid)); started empty"))
            verdict = .none
        } else if restoration.isComplete {
            verdict = .whole
        } else {
            verdict = restoration.state.allRecordedRoutes { _ in false } ? .none : .partly
        }
        tally.add(appVersion: appVersion, verdict, reasons: reasons)
    }

    /// Counts a session that could not be read as not restored.
    mutating func addUnreadable(appVersion: String?, _ problem: String) {
        tally.add(appVersion: appVersion, .none, reasons: [(nil, "unreadable: " + problem)])
    }

    /// One line of a `last-states` file: `app_version` groups it, `session_app_version` (when
    /// the key is there) is what the migrations see, `state` is restored after its `digest` is checked.
    mutating func addLastState(_ line: ArraySlice<UInt8>) {
        let object: [String: JSONValue]
        do {
            guard let o = try JSONValue(parsing: Array(line)).objectValue else { return addUnreadable(appVersion: nil, "a line is not a JSON object") }
            object = o
        } catch {
            return addUnreadable(appVersion: nil, "a line is not JSON: \(error)")
        }
        let appVersion = object["app_version"]?.stringValue
        let migrationVersion = object["session_app_version"].map { $0.stringValue } ?? appVersion
        let state: NavigationState
        do { state = try NavigationState(json: object["state"] ?? .null) } catch {
            return addUnreadable(appVersion: appVersion, "the state: \(error)")
        }
        if let digest = object["digest"]?.stringValue, digest != state.digest.hex {
            return addUnreadable(appVersion: appVersion, "the state does not have the line's digest")
        }
        add(state, appVersion: appVersion, migrationVersion: migrationVersion)
    }

    /// A fixture file: the replay of its events, under its header's app version.
    mutating func addFixture(at path: String) {
        let fixture: Fixture
        do { fixture = try Fixture(contentsOf: path) } catch {
            return addUnreadable(appVersion: nil, error.description)
        }
        var replayer = Replayer()
        for e in fixture.events { replayer.apply(e.event) }
        let version = fixture.session?.appVersion
        add(replayer.state, appVersion: version, migrationVersion: version)
    }
}
