@_spi(Tools) import RouteLogCore

// The core's errors as the tools report them: their cause and one line. (The store's are in
// StoreErrors.swift.) This file imports only RouteLogCore, so a build of the core with the tools'
// parsers (the fuzzer's) can compile it.

extension EventLogError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError {
        switch self {
        case .sessionNotFound(let id): .unknownSession("unknown session: \(id)")
        case .seqOutOfRange(let id, let seq, let count): .usage("seq out of range: \(seq) (session \(id) has \(count) events)")
        // Another writer appended first: nothing was written, and a later try may succeed.
        case .conflict: RouteLogError(.busy, description)
        }
    }
}

extension BisectError: RouteLogErrorConvertible {
    /// The log holds fewer events than its count says: damaged.
    package var routeLogError: RouteLogError { RouteLogError(.damaged, "bisect: \(self)") }
}

extension ShortestPathError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { .usage("--shortest: \(self) (reproduce a shorter run, or leave --shortest out)") }
}

extension FormatError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { RouteLogError(.damaged, "malformed data: \(self)") }
}

extension JSONError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { RouteLogError(.damaged, "malformed JSON: \(self)") }
}

extension BinaryDecodingError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { RouteLogError(.damaged, oneLine(description)) }
}

extension FixtureError: RouteLogErrorConvertible {
    /// A fixture error that reaches the mapping without its file (``Fixture/load(_:)`` names the file).
    package var routeLogError: RouteLogError {
        switch problem {
        case .unreadable, .unwritable: RouteLogError(.io, oneLine(description))
        case .syntax, .shape, .unsupportedFormat: RouteLogError(.damaged, oneLine(description))
        }
    }
}
