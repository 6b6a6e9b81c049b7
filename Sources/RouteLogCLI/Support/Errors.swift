import Foundation
import ArgumentParser
import RouteLogCore
import RouteLogLMDB

/// The exit codes `routelog` documents in its help and README.
enum Exit {
    /// Ok, or equal.
    static let ok: Int32 = 0
    /// Different, failed, or found bad.
    static let different: Int32 = 1
    /// A usage error: a bad option, an unknown session, a seq out of range, a predicate syntax error.
    static let usage: Int32 = 2
    /// A data error: corrupt, unreadable, not a store, written by a newer format, an empty session.
    static let data: Int32 = 3
}

/// An error the CLI reports as one line on stderr, `routelog: <message>`, with an exit code.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var code: Int32

    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    static func usage(_ message: String) -> CLIError { CLIError(message, code: Exit.usage) }
    static func data(_ message: String) -> CLIError { CLIError(message, code: Exit.data) }

    var description: String { message }
}

/// Thrown by a command that ran correctly but whose answer is "different", "failed" or "found bad".
/// Its output has already been printed; only the exit status is left to set.
struct CommandResult: Error {
    var code: Int32
    static let different = CommandResult(code: Exit.different)
}

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
