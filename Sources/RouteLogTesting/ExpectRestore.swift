import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Runs a recorded fixture through the app's migrations, as restoring it after an update would,
/// and fails for each recorded route that would be dropped because it cannot be read.
///
/// Every route that the fixture's events record (pushes, shows and reset states, at any seq,
/// since a user may have left the app at any point) goes through `migrate`. A route that
/// neither today's type nor the migration reads is reported at the caller's location, naming the
/// seq that recorded it. A route the migration deliberately removes (returns `nil` for) is not a
/// failure. Then the fixture's final state is restored as a navigator would restore it, and the
/// result is returned for further checks.
///
/// Check in the sessions your testers recorded (`routelog export`) and run them in CI after a
/// change to the route type:
///
/// ```swift
/// @Test func recordedSessionsStillRestore() throws {
///     let restoration = try #require(expectRestore(fixture: "Fixtures/sessions/3.1-player.json", as: AppRoute.self))
///     #expect(restoration.dropped.isEmpty)
/// }
/// ```
///
/// - Parameters:
///   - path: the fixture file (found like ``expectReplay(fixture:record:filePath:sourceLocation:)`` finds it).
///   - type: today's route type.
///   - migrate: the migration; by default `Route.migrate`.
///   - filePath: the calling file, used to find relative paths.
///   - sourceLocation: where failures are reported.
/// - Returns: the restoration of the fixture's final state, or `nil` when the file could not be read.
@discardableResult
public func expectRestore<Route: Routable>(
    fixture path: String,
    as type: Route.Type,
    migrate: ((RecordedRoute) throws -> Route?)? = nil,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) -> RouteRestoration? {
    let outcome = restoreProblems(fixture: path, as: Route.self, migrate: migrate, filePath: filePath)
    for p in outcome.problems { Issue.record(Comment(rawValue: p), sourceLocation: sourceLocation) }
    return outcome.restoration
}

/// The checks of ``expectRestore(fixture:as:migrate:filePath:sourceLocation:)`` without
/// reporting, for XCTest: one message per recorded route that would be dropped, empty when every
/// route restores (or is removed on purpose).
public func restoreProblems<Route: Routable>(
    fixture path: String,
    as type: Route.Type,
    migrate: ((RecordedRoute) throws -> Route?)? = nil,
    filePath: String = #filePath
) -> (problems: [String], restoration: RouteRestoration?) {
    let file = resolveFixturePath(path, filePath: filePath)
    let fixture: Fixture
    do { fixture = try Fixture(contentsOf: file) } catch { return ([error.description], nil) }
    let restorer = RouteRestorer<Route>(appVersion: fixture.session?.appVersion, migrate: migrate)
    return restoreProblems(fixture, restorer: restorer)
}

/// ``restoreProblems(fixture:as:migrate:filePath:)`` for a fixture in memory.
public func restoreProblems<Route: Routable>(_ fixture: Fixture, restorer: RouteRestorer<Route>) -> (problems: [String], restoration: RouteRestoration) {
    var problems: [String] = []
    var seen = Set<RouteRef>()
    func check(_ ref: RouteRef, _ seq: UInt64) {
        guard seen.insert(ref).inserted else { return }
        if case .undecodable(let message) = restorer.resolve(ref) {
            problems.append(DroppedRoute(route: ref, seq: seq, reason: .undecodable(message: message)).description
                            + "; no migration restores it, so restoring a session that holds it drops it")
        }
    }
    var replayer = Replayer()
    var stored: [StoredEvent] = []
    for e in fixture.events {
        let step = replayer.apply(e.event)
        stored.append(StoredEvent(seq: step.seq, recorded: e, outcome: step.outcome, digest: step.digest))
        e.event.forEachRecordedRoute { check($0, step.seq) }
    }
    var restoration = restorer.restore(replayer.state)
    restoration.nameSeqs(from: stored)
    return (problems, restoration)
}
