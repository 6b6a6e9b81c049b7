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

// The CLI's state helpers that Predicate.swift reads (defined next to the CLI's renderer, which
// the fuzzer does not build): the same definitions.
extension NavigationState {
    var presentationChain: [Presentation] {
        var out: [Presentation] = []
        var frame: Frame? = root
        while let f = frame, let p = f.presented {
            out.append(p)
            frame = p.content
        }
        return out
    }

    var activeFrame: Frame {
        var frame = root
        while let p = frame.presented, let content = p.content { frame = content }
        return frame
    }
}
