import Foundation
import ArgumentParser
import RouteLogCore
import RouteLogLMDB

extension CLIError {
    /// Maps any error a command can throw to a one-line message and an exit code.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case let e as CLIError:
            return e
        case let e as LMDBEventLogError:
            return .fromStore(e)
        case let e as BisectError:
            return .data("bisect: \(e)")
        case let e as EventLogError:
            switch e {
            case .sessionNotFound(let id): return .usage("unknown session: \(id)")
            case .seqOutOfRange(let id, let seq, let count):
                return .usage("seq out of range: \(seq) (session \(id) has \(count) events)")
            case .conflict: return .data(e.description)
            }
        case let e as FormatError:
            return .data("malformed data: \(e)")
        case let e as JSONError:
            return .data("malformed JSON: \(e)")
        default:
            return .data(oneLine(String(describing: error)))
        }
    }
}

/// Joins a message onto one line (an error is always one line on stderr).
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}
