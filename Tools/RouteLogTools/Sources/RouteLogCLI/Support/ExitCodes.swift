import ArgumentParser

/// The exit codes `routelog` documents in its help and its manual (Docs/Debugging.md): 0 ok or
/// equal (``ArgumentParser/ExitCode/success``), 1 different, failed or found bad
/// (``ArgumentParser/ExitCode/failure``), 2 a usage error, 3 a data error. A command whose output
/// says "different" throws `ExitCode.failure`; every other error is a ``RouteLogError`` whose cause
/// gives its code.
extension ExitCode {
    /// A usage error: a bad option, an unknown session, a seq out of range, a predicate syntax error.
    static let usage = ExitCode(2)
    /// A data error: corrupt, unreadable, not a store, written by a newer format, an empty session.
    static let data = ExitCode(3)

    /// The exit code of an error with this cause.
    init(_ cause: RouteLogError.Cause) {
        switch cause {
        case .failed: self = .failure
        case .usage, .unknownSession, .notFound: self = .usage
        case .notAStore, .damaged, .newerFormat, .olderFormat, .busy, .noSpace, .permission, .readOnly, .empty, .io, .internal:
            self = .data
        }
    }
}
