// The CLI's error and exit codes. This file imports nothing, so the fuzzer's build compiles it as it is.

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
