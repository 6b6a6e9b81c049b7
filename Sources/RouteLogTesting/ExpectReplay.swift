import CustomDump
import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Replays a fixture file and checks its expectations: each outcome, the final state, the digest.
///
/// Mismatches are reported at the caller's source location, as diffs: outcomes line by line,
/// the state in custom-dump style (`-` expected, `+` actual).
///
/// **Record mode.** With the environment variable `ROUTELOG_RECORD=1` (see
/// `Fixture.isRecordModeEnabled`), or `record: true`, the file's `expect` block is rewritten from
/// the replay and the test passes. A fixture without an `expect` block is recorded the same way
/// but the test fails once, so that an unchecked fixture never passes silently.
///
/// ```swift
/// @Test func upsellCannotBeSwipedAway() {
///     expectReplay(fixture: "Fixtures/sheet-stack-swipe-nondismissible.json")
/// }
/// ```
///
/// - Parameters:
///   - path: the fixture file: absolute, relative to the working directory, or relative to a
///     directory above the calling test file (so `Fixtures/x.json` finds the package's folder).
///   - record: rewrite the expectations instead of checking them.
///   - filePath: the calling file, used to find relative paths.
///   - sourceLocation: where failures are reported.
/// - Returns: the check result, or `nil` when the file could not be read.
@discardableResult
public func expectReplay(
    fixture path: String,
    record: Bool = Fixture.isRecordModeEnabled,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) -> FixtureCheckResult? {
    let outcome = replayProblems(fixture: path, record: record, filePath: filePath)
    for p in outcome.problems { Issue.record(Comment(rawValue: p), sourceLocation: sourceLocation) }
    return outcome.result
}

/// ``expectReplay(fixture:record:filePath:sourceLocation:)`` that also decodes every route of
/// the fixture as `Route`: fails, naming the seq, for each recorded payload that today's route
/// type no longer reads as is, that is, each route that needs a migration. Check that the
/// migrations restore them with ``expectRestore(fixture:as:migrate:filePath:sourceLocation:)``.
@discardableResult
public func expectReplay<Route: Routable>(
    fixture path: String,
    decoding type: Route.Type,
    record: Bool = Fixture.isRecordModeEnabled,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) -> FixtureCheckResult? {
    let outcome = replayProblems(fixture: path, record: record, filePath: filePath)
    var problems = outcome.problems
    if let fixture = outcome.fixture {
        problems += routeDecodingProblems(fixture.events.map(\.event), as: Route.self)
    }
    for p in problems { Issue.record(Comment(rawValue: p), sourceLocation: sourceLocation) }
    return outcome.result
}

/// The checks of ``expectReplay(fixture:record:filePath:sourceLocation:)`` without reporting,
/// for XCTest: one message per problem, empty when the fixture passed (or was recorded).
public func replayProblems(fixture path: String, record: Bool = Fixture.isRecordModeEnabled,
                           filePath: String = #filePath) -> (problems: [String], result: FixtureCheckResult?, fixture: Fixture?) {
    let file = resolveFixturePath(path, filePath: filePath)
    let fixture: Fixture
    do { fixture = try Fixture(contentsOf: file) } catch {
        return ([fixtureLoadProblem(path, resolved: file, filePath: filePath, error: error)], nil, nil)
    }
    let result = fixture.check()
    if record || !result.hasExpectation {
        let recorded = fixture.recorded()
        do { try recorded.write(toFile: file) } catch { return ([error.description], result, fixture) }
        if record { return ([], recorded.check(), recorded) }
        return (["\(file): the fixture had no expectations; recorded them from the replay (\(result.replay.steps.count) events). Check the file and run again."],
                recorded.check(), recorded)
    }
    var problems: [String] = []
    for m in result.mismatches {
        switch m {
        case .outcomeCount, .outcome:
            if problems.contains(where: { $0.hasPrefix("\(file): outcomes differ") }) { continue }
            let expected = (fixture.expect?.outcomes ?? []).enumerated().map { "#\($0.offset + 1) \($0.element)" }
            let actual = result.replay.steps.map { "#\($0.seq) \($0.outcome)" }
            problems.append("\(file): outcomes differ: (-expected, +actual)\n\n" + (diff(expected, actual) ?? m.description))
        case .state(let expected, let actual):
            problems.append("\(file): final state differs: (-expected, +actual)\n\n" + StateDiff.between(expected, actual).text())
        case .digest:
            problems.append("\(file): \(m.description)")
        }
    }
    if !problems.isEmpty {
        problems[problems.count - 1] += "\n(re-record with ROUTELOG_RECORD=1 if the new behaviour is intended)"
    }
    return (problems, result, fixture)
}

/// Every route in `events` that does not decode as `Route`, one message each (for the first seq
/// that recorded it), saying that the route needs a migration.
public func routeDecodingProblems<Route: Routable>(_ events: [Event], as type: Route.Type) -> [String] {
    var problems: [String] = []
    var seen = Set<RouteRef>()
    func check(_ ref: RouteRef, _ seq: UInt64) {
        guard seen.insert(ref).inserted else { return }
        do { _ = try ref.decode(as: Route.self, seq: seq) } catch {
            problems.append("\(error.description); it needs a migration (\(Route.self).migrate), or restoring a session that holds it drops it")
        }
    }
    func walk(_ f: Frame, _ seq: UInt64) {
        for r in f.path { check(r, seq) }
        if let p = f.presented {
            check(p.route, seq)
            if let c = p.content { walk(c, seq) }
        }
    }
    for (i, e) in events.enumerated() {
        let seq = UInt64(i + 1)
        switch e {
        case .push(let r, _), .show(let r, _, _, _): check(r, seq)
        case .reset(let s):
            if let tabs = s.tabs { tabs.forEach { walk($0.root, seq) } } else { walk(s.root, seq) }
        default: break
        }
    }
    return problems
}

/// Finds a fixture: absolute or relative to the working directory, else relative to each
/// directory above `filePath`.
func resolveFixturePath(_ path: String, filePath: String) -> String {
    let fm = FileManager.default
    if path.hasPrefix("/") || fm.fileExists(atPath: path) { return path }
    var dir = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while dir.path != "/" && !dir.path.isEmpty {
        let candidate = dir.appendingPathComponent(path).path
        if fm.fileExists(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return path
}
