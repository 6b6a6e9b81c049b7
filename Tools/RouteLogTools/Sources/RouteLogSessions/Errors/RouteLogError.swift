// The tools' one error type and their exit codes.

/// The exit codes `routelog` documents in its help and its manual (Docs/Debugging.md).
package enum Exit {
    /// Ok, or equal.
    package static let ok: Int32 = 0
    /// Different, failed, or found bad.
    package static let different: Int32 = 1
    /// A usage error: a bad option, an unknown session, a seq out of range, a predicate syntax error.
    package static let usage: Int32 = 2
    /// A data error: corrupt, unreadable, not a store, written by a newer format, an empty session.
    package static let data: Int32 = 3
}

/// An error every front end reports the same way: one line (`routelog: <message>` on stderr, a
/// tool error over MCP, `{"error"}` over HTTP) and an exit code. `unknownSession` marks a
/// reference that names no session (the server answers it with 404).
package struct RouteLogError: Error, CustomStringConvertible, Equatable {
    package var message: String
    package var code: Int32
    package var unknownSession = false

    package init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    package static func usage(_ message: String) -> RouteLogError { RouteLogError(message, code: Exit.usage) }
    package static func data(_ message: String) -> RouteLogError { RouteLogError(message, code: Exit.data) }
    /// A usage error for a reference that names no session.
    package static func unknownSession(_ message: String) -> RouteLogError {
        var e = RouteLogError.usage(message)
        e.unknownSession = true
        return e
    }

    package var description: String { message }
}
