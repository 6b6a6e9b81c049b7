import Foundation
@_spi(Tools) import RouteLogCore

/// Fixture and export files as the CLI reads and writes them: the core's `routelog-fixture/1`
/// format (``Fixture``), with errors mapped to one-line errors and exit codes.
extension Fixture {
    /// Loads and parses a file. A missing file is a usage error; anything unreadable or malformed is
    /// a data error naming the file and the place inside it (line and column, or event index and field).
    package static func load(_ path: String) throws(RouteLogError) -> Fixture {
        do { return try Fixture(contentsOf: path) } catch { throw cliError(error, path) }
    }

    /// Checks a file as ``load(_:)`` does, in bounded memory: each event is handed to `event` and
    /// not kept (see ``Fixture/scan(contentsOf:event:bytesRead:)``).
    package static func scan(_ path: String, event: (RecordedEvent) -> Void = { _ in },
                             bytesRead: (Int) -> Void = { _ in }) throws(RouteLogError) -> (header: Fixture, eventCount: Int) {
        do { return try Fixture.scan(contentsOf: path, event: event, bytesRead: bytesRead) } catch { throw cliError(error, path) }
    }

    static func cliError(_ error: FixtureError, _ path: String) -> RouteLogError {
        switch error.problem {
        case .unreadable(let why) where why == "no such file": RouteLogError(.notFound, "no such file: \(path)")
        case .unreadable(let why): RouteLogError(.io, "cannot read file: \(path): \(why)")
        default: RouteLogError(.damaged, "malformed fixture: \(error)", at: path)
        }
    }

    /// The expectation a replay with the current reducer gives.
    package static func expectation(for events: [RecordedEvent]) -> Expectation {
        Expectation(replay(events.map(\.event)))
    }

    /// Writes the canonical text (atomically).
    package func write(to path: String) throws(RouteLogError) {
        do { try write(toFile: path) } catch { throw RouteLogError(.io, error.description) }
    }
}
