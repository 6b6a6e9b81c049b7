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
