// What the staged parsers need from the modules the fuzzer does not build: the mapping of errors
// (the error type and exit codes are the session layer's own, RouteLogSessions/Errors/RouteLogError.swift).

import Foundation

extension RouteLogError {
    static func from(_ error: any Error) -> RouteLogError { error as? RouteLogError ?? .data(String(describing: error)) }
}
