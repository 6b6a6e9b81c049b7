import Foundation
@_spi(Tools) import RouteLog
import Testing

/// Restores the last state of every session of a corpus with today's route type and migrations,
/// prints the table by app version, and fails when the share restored is below `threshold`: a
/// gate that says what share of the states users are in today the new build brings back.
///
/// Each session is restored as a navigator restoring it would (see
/// ``restoreCorpus(_:as:migrate:filePath:)`` for the corpora it reads: a `last-states` file, a
/// folder of fixtures, one fixture). Export the corpus from the sessions collected from testers
/// or devices, check it in (or fetch it in CI), and run the gate after a change to the route type:
///
/// ```swift
/// @Test func todaysStatesStillRestore() {
///     expectRestore(corpus: "Fixtures/last-states.jsonl", as: AppRoute.self, atLeast: 0.99)
/// }
/// ```
///
/// The table lists, per app version, the sessions restored whole, partly (some routes dropped)
/// and not at all, with the commonest reasons (route type and error, counted in sessions).
///
/// - Parameters:
///   - path: the corpus (found like ``expectReplay(fixture:record:filePath:sourceLocation:)`` finds a fixture).
///   - type: today's route type.
///   - migrate: the migration; by default `Route.migrate`.
///   - threshold: the least share of sessions that must be restored, 0…1.
///   - counting: which sessions count as restored: ``CorpusRestoration/Counting/whole`` (the
///     default: a session that lost the screen the user left does not count) or
///     ``CorpusRestoration/Counting/wholeOrPartly``.
///   - filePath: the calling file, used to find relative paths.
///   - sourceLocation: where failures are reported.
/// - Returns: the restoration's counts, or `nil` when the corpus could not be read.
@discardableResult
public func expectRestore<Route: Routable>(
    corpus path: String,
    as type: Route.Type,
    migrate: ((RecordedRoute) throws -> Route?)? = nil,
    atLeast threshold: Double,
    counting: CorpusRestoration.Counting = .whole,
    filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) -> CorpusRestoration? {
    precondition((0...1).contains(threshold), "atLeast is a share of sessions, from 0 through 1")
    let restoration: CorpusRestoration
    do { restoration = try restoreCorpus(path, as: Route.self, migrate: migrate, filePath: filePath) } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return nil
    }
    let table = restoration.table(counting: counting)
    print(table, terminator: "")
    if let problem = corpusRestoreProblem(restoration, atLeast: threshold, counting: counting) {
        Issue.record(Comment(rawValue: problem + "\n" + table), sourceLocation: sourceLocation)
    }
    return restoration
}

/// The gate of ``expectRestore(corpus:as:migrate:atLeast:counting:filePath:sourceLocation:)``
/// without reporting, for XCTest: `nil` when at least `threshold` of the sessions are restored,
/// else one sentence saying by how much the share falls short (or that there are no sessions).
public func corpusRestoreProblem(_ restoration: CorpusRestoration, atLeast threshold: Double,
                                 counting: CorpusRestoration.Counting = .whole) -> String? {
    let sessions = restoration.total.sessions
    guard sessions > 0 else { return "the corpus holds no sessions" }
    let share = restoration.share(counting)
    guard share < threshold else { return nil }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
    return "\(percent(share)) of \(sessions) sessions restored \(counting.name), below the required \(percent(threshold))"
}
