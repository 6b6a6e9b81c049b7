// libFuzzer entry point of `routelog-fuzz`: one binary, several harnesses, over RouteLogCore, the
// store's record format (RouteLogLMDB) and the session layer's predicate language and references
// (RouteLogSessions), whose internal API the harnesses reach through
// `@testable import`.
//
// The harness is chosen by the environment variable ROUTELOG_FUZZ_TARGET:
// json, fixture, predicate, ref, binary, record, reducer.

import Foundation
import LibFuzzerDriver

enum FuzzTarget: String, CaseIterable {
    case json, fixture, predicate, ref, binary, record, reducer
}

let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["ROUTELOG_FUZZ_TARGET"] ?? ""
    guard let t = FuzzTarget(rawValue: name) else {
        let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("routelog-fuzz: set ROUTELOG_FUZZ_TARGET to one of: \(known)\n".utf8))
        exit(2)
    }
    return t
}()

/// A broken property: abort, so libFuzzer records the input.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

/// Checks that an error message is one line (the CLI prints errors as one line).
func checkOneLine(_ message: String, _ what: String) {
    check(!message.contains("\n") && !message.contains("\r"), "\(what) error is not one line: \(message.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func routelogFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    switch selectedTarget {
    case .json: fuzzJSON(buffer)
    case .fixture: fuzzFixture(buffer)
    case .predicate: fuzzPredicate(buffer)
    case .ref: fuzzSessionRef(buffer)
    case .binary: fuzzBinary(buffer)
    case .record: fuzzRecord(buffer)
    case .reducer: fuzzReducer(buffer)
    }
    return 0
}

/// The program's entry: libFuzzer's driver, with this program's arguments and harness. (SwiftPM links an
/// executable's main under a name of its own, so libFuzzer's main, which would call
/// LLVMFuzzerTestOneInput itself, is not the one that runs.)
@main enum RouteLogFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            guard let data else { return 0 }
            return routelogFuzzOneInput(data, size)
        })
    }
}
