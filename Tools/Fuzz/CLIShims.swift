// What the CLI's SessionRef.swift needs from the rest of the CLI, reduced to the parts its parser
// uses: the mapping of errors and the store opener (which the harness never reaches). The error
// type and exit codes are the CLI's own (Support/CLIError.swift).

import Foundation

extension CLIError {
    static func from(_ error: any Error) -> CLIError { error as? CLIError ?? .data(String(describing: error)) }
}

enum StoreAccess {
    static func open(path: String, writable: Bool) throws(CLIError) -> any EventLog {
        throw .data("the fuzzer opens no store")
    }
}

// The store's default path, which SessionRef.swift names (the fuzzer builds no RouteLogLMDB; the
// ref harness never opens a store).
enum LMDBEventLog {
    static var defaultPath: String { "./.routelog" }
}
