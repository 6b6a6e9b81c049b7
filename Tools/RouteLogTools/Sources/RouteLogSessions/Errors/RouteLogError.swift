// The tools' one error type and the mapping of any error to it.
import Foundation

/// An error every front end reports the same way: one line (`routelog: <message>` on stderr, a
/// tool error over MCP, `{"error"}` over HTTP), and its ``Cause``, from which each front end
/// derives the rest of its answer: `routelog` its exit code, `routelog-serve` its HTTP status,
/// `routelog-mcp` its tool error. ``from(_:)`` turns every error of the store and the core into one.
package struct RouteLogError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What went wrong, as a front end tells causes apart (never from the message).
    package enum Cause: String, CaseIterable, Sendable {
        /// The command ran and its answer is no: nothing to minimize, no fixtures in a folder.
        case failed
        /// A bad option or argument: a seq out of range, a predicate that does not parse, a
        /// reference of the wrong kind, a bad request parameter.
        case usage
        /// A reference that names no session, or an id that cannot be a session's.
        case unknownSession
        /// A file or folder named on the command line (or in a tool's argument) that does not exist.
        case notFound
        /// A path that is not a store: missing, a file, a directory without a store's files.
        case notAStore
        /// Stored or given data that cannot be read as what it should be: a corrupt record or
        /// value, a damaged journal, a malformed fixture or JSON; ``location`` says where.
        case damaged
        /// A store written in a newer format than this build reads.
        case newerFormat
        /// A store written in an older format than this build reads.
        case olderFormat
        /// The store or a session is taken: another process writes it, holds it or has it open
        /// (or it did so first); a later try may succeed.
        case busy
        /// No room: the disk is full, or the store reached its map's size.
        case noSpace
        /// The system denies access to the store's files.
        case permission
        /// A write to what is read-only: a store opened read-only, a file's session.
        case readOnly
        /// The session has nothing to answer from: no events, no runs.
        case empty
        /// Reading or writing a file, running a program, or LMDB itself failed.
        case io
        /// An error that names none of these causes (a bug of the tools, or an unknown error).
        case `internal`
    }

    /// Why it failed.
    package var cause: Cause
    /// The one line every front end shows.
    package var message: String
    /// Where the damage is, for ``Cause/damaged``: the store, a session's record, a database's
    /// key, a file.
    package var location: String?

    package init(_ cause: Cause, _ message: String, at location: String? = nil) {
        self.cause = cause
        self.message = message
        self.location = location
    }

    package static func usage(_ message: String) -> RouteLogError { RouteLogError(.usage, message) }
    /// A usage error for a reference that names no session.
    package static func unknownSession(_ message: String) -> RouteLogError { RouteLogError(.unknownSession, message) }

    package var description: String { message }
}

/// An error that says which ``RouteLogError`` it is: the core's and the store's errors conform in
/// the files that map them (`ErrorMapping.swift`, `StoreErrors.swift`), so ``RouteLogError/from(_:)``
/// asks the error itself and a build without the store (the fuzzer's) still compiles it.
package protocol RouteLogErrorConvertible: Error {
    /// The error as the tools report it.
    var routeLogError: RouteLogError { get }
}

extension RouteLogError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { self }

    /// Maps any error a command or a query can throw to its cause and one line: the store's, the
    /// core's (each says which it is), and anything else as an internal error in its own words.
    package static func from(_ error: any Error) -> RouteLogError {
        if let e = error as? any RouteLogErrorConvertible { return e.routeLogError }
        return RouteLogError(.internal, oneLine(String(describing: error)))
    }
}

/// Runs `body`, turning any error into a ``RouteLogError``.
package func call<R>(_ body: () throws -> R) throws(RouteLogError) -> R {
    do { return try body() } catch { throw RouteLogError.from(error) }
}

/// Joins a message onto one line (an error is always one line).
package func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}
