// What the CLI's SessionRef.swift needs from the rest of the CLI, reduced to the parts its parser
// uses: the error type, exit codes and the store opener (which the harness never reaches).

import Foundation

enum Exit {
    static let ok: Int32 = 0
    static let different: Int32 = 1
    static let usage: Int32 = 2
    static let data: Int32 = 3
}

struct CLIError: Error, CustomStringConvertible {
    var message: String
    var code: Int32
    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }
    static func usage(_ message: String) -> CLIError { CLIError(message, code: Exit.usage) }
    static func data(_ message: String) -> CLIError { CLIError(message, code: Exit.data) }
    static func from(_ error: any Error) -> CLIError { error as? CLIError ?? .data(String(describing: error)) }
    var description: String { message }
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
