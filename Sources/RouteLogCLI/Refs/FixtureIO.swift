import Foundation
import RouteLogCore

/// Fixture and export files as the CLI reads and writes them: the core's `routelog-fixture/1`
/// format (``Fixture``), with errors mapped to one-line CLI errors and exit codes.
extension Fixture {
    /// Loads and parses a file. A missing file is a usage error; anything unreadable or malformed is
    /// a data error naming the file and the place inside it (line and column, or event index and field).
    static func load(_ path: String) throws(CLIError) -> Fixture {
        do {
            return try Fixture(contentsOf: path)
        } catch {
            switch error.problem {
            case .unreadable(let why) where why == "no such file": throw .usage("no such file: \(path)")
            case .unreadable(let why): throw .data("cannot read file: \(path): \(why)")
            default: throw .data("malformed fixture: \(error)")
            }
        }
    }

    /// The expectation a replay with the current reducer gives.
    static func expectation(for events: [RecordedEvent]) -> Expectation {
        Expectation(replay(events.map(\.event)))
    }

    /// Writes the canonical text (atomically).
    func write(to path: String) throws(CLIError) {
        do { try write(toFile: path) } catch { throw .data(error.description) }
    }
}
