// What the staged parsers and the harnesses need from the modules the fuzzer does not build. The
// error type, its causes and the mapping of any error to one (`RouteLogError.from`) are not among
// them: they are compiled from the session layer's own import-free file,
// RouteLogSessions/Errors/RouteLogError.swift (the core's errors say which they are in
// RouteLogSessions/Errors/ErrorMapping.swift, RouteLogCore only, which a build can stage as well).
//
// The reference harness checks a bad reference's exit code (`error.code == Exit.usage`); routelog
// derives exit codes from the cause in RouteLogCLI/Support/ExitCodes.swift, through
// ArgumentParser's `ExitCode`, which this build does not have. Until the harness checks
// `error.cause == .usage`, the same derivation, for it alone:

enum Exit {
    static let different: Int32 = 1
    static let usage: Int32 = 2
    static let data: Int32 = 3
}

extension RouteLogError {
    /// The exit code `routelog` gives this error (as `ExitCode(cause)` in ExitCodes.swift).
    var code: Int32 {
        switch cause {
        case .failed: Exit.different
        case .usage, .unknownSession, .notFound: Exit.usage
        case .notAStore, .damaged, .newerFormat, .olderFormat, .busy, .noSpace, .permission, .readOnly, .empty, .io, .internal: Exit.data
        }
    }
}
