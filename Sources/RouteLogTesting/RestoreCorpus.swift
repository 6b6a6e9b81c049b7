import Foundation
@_spi(Tools) import RouteLog

/// A corpus that could not be read at all (a missing path, an export without route payloads).
public struct CorpusError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    public var description: String { message }
}

/// Restores the last state of every session of a corpus with today's route type, as a navigator
/// restoring each session would (``/RouteLog/RouteRestorer``: the same migrations, the same drops, an
/// invalid result started empty), and counts the outcomes by app version. Never reports; the
/// gate is ``expectRestore(corpus:as:migrate:atLeast:counting:filePath:sourceLocation:)``.
///
/// The corpus is one of:
/// - a `last-states` file (`routelog export --format last-states --label main -o FILE`, the
///   sessions of the app's scene labelled `main`; a `.jsonl` file, or one whose first line has a
///   `state`): one line per session with its label, its app version, the app version the
///   migrations see (the session's) and its last state. `--all` also takes the sessions an app's
///   extensions wrote, whose routes are of another type: they count as not restored, the reason
///   naming their type (`ShareRoute: case "compose" of ShareRoute is not a case of AppRoute …`);
///   gate each route type on its own sessions;
/// - a folder of fixture files (`*.json`, not its subfolders): each file a session, its last
///   state the replay of its events, its app version the one of its `session` header;
/// - one fixture file.
///
/// An `events-jsonl` export names routes without their payloads, so no state can be restored
/// from it: it is refused with the command that writes a `last-states` file instead.
///
/// A session whose line or file cannot be read, or whose state does not have the digest its
/// line records, counts as not restored, with the problem as its reason.
///
/// - Parameters:
///   - path: the file or folder (found like ``expectReplay(fixture:record:filePath:sourceLocation:)`` finds a fixture).
///   - type: today's route type.
///   - migrate: the migration; by default `Route.migrate`.
///   - filePath: the calling file, used to find relative paths.
/// - Throws: ``CorpusError`` when the path cannot be read or holds an `events-jsonl` export.
public func restoreCorpus<Route: Routable>(
    _ path: String,
    as type: Route.Type,
    migrate: ((RecordedRoute) throws -> Route?)? = nil,
    filePath: String = #filePath
) throws(CorpusError) -> CorpusRestoration {
    let file = resolveFixturePath(path, filePath: filePath)
    var restorer = CorpusRestorer<Route>(migrate: migrate)
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
        throw CorpusError(message: fixtureLoadProblem(path, resolved: file, filePath: filePath, error: "no corpus at \(path)"))
    }
    if isFolder.boolValue {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: file)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        for name in names { restorer.addFixture(at: (file as NSString).appendingPathComponent(name)) }
        return restorer.tally.finish()
    }
    guard let data = FileManager.default.contents(atPath: file) else { throw CorpusError(message: "cannot read \(file)") }
    let bytes = [UInt8](data)
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    let first = lines.first.flatMap { try? JSONValue(parsing: Array($0)) }?.objectValue
    if let first, first["kind"] != nil, first["route_id"] != nil, first["state"] == nil {
        throw CorpusError(message: "\(path) is an events-jsonl export: its rows name routes without their payloads, so no state can be "
                          + "restored from it; write the corpus with `routelog export --format last-states` from the same store or sessions")
    }
    guard first?["state"] != nil || file.hasSuffix(".jsonl") else {
        restorer.addFixture(at: file)
        return restorer.tally.finish()
    }
    for line in lines { restorer.addLastState(line) }
    return restorer.tally.finish()
}

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
