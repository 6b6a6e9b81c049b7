@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

extension RouteLogError {
    /// Maps any error a command or a query can throw to one line and an exit code: the store's,
    /// the core's, and anything else as a data error.
    package static func from(_ error: any Error) -> RouteLogError {
        switch error {
        case let e as RouteLogError:
            return e
        case let e as LMDBEventLogError:
            return .fromStore(e)
        case let e as BisectError:
            return .data("bisect: \(e)")
        case let e as ShortestPathError:
            return .usage("--shortest: \(e) (reproduce a shorter run, or leave --shortest out)")
        case let e as EventLogError:
            switch e {
            case .sessionNotFound(let id): return .unknownSession("unknown session: \(id)")
            case .seqOutOfRange(let id, let seq, let count):
                return .usage("seq out of range: \(seq) (session \(id) has \(count) events)")
            case .conflict: return .data(e.description)
            }
        case let e as FormatError:
            return .data("malformed data: \(e)")
        case let e as JSONError:
            return .data("malformed JSON: \(e)")
        default:
            return .data(oneLine(String(describing: error)))
        }
    }

    /// Store errors: every one is a data error (exit 3) except a read-only store asked to write.
    static func fromStore(_ error: LMDBEventLogError) -> RouteLogError {
        switch error {
        case .notADirectory(let path): .data("not a store: \(path) (a file, not a store directory)")
        case .notAStore(let path, let reason): .data("not a store: \(path) (\(reason))")
        case .newerFormat(let path, let found, let supported):
            .data("newer store format: \(path) was written in format \(found); this routelog reads format \(supported) (upgrade routelog)")
        case .olderFormat(let path, let found, let supported):
            .data("older store format: \(path) was written in format \(found); this routelog reads format \(supported) (export its sessions with the previous routelog release, then routelog import them)")
        case .permissionDenied(let path, let reason): .data("permission denied: \(path) (\(reason))")
        case .readOnly(let path): .data("store is read-only: \(path)")
        case .openReadOnlyElsewhere(let path): .data("store is locked: \(path) (open read-only elsewhere in this process)")
        case .invalidSessionID(let id): .unknownSession("unknown session: \(id) (not a session id)")
        case .corruptRecord(let session, let seq, let reason): .data("corrupt record: session \(session) seq \(seq): \(reason)")
        case .corruptValue(let db, let key, let reason): .data("corrupt store: database \"\(db)\" key \(key): \(reason)")
        case .storage(let e, let operation) where e == .noSpace: .data("disk full while \(operation): no space left on the device (nothing stored was lost; free some space and try again)")
        case .storage(let e, let operation): .data("store error while \(operation): \(e)")
        case .sessionInUse(let id): .data("session in use: \(id) (an app or another process is writing it; nothing was deleted)")
        case .lockFailed(let path, let reason): .data("cannot lock \(path): \(reason)")
        case .storeBusy, .storeHeld, .storeFull: .data(error.description)
        }
    }
}

/// Runs `body`, turning any error into a ``RouteLogError``.
package func call<R>(_ body: () throws -> R) throws(RouteLogError) -> R {
    do { return try body() } catch { throw RouteLogError.from(error) }
}

/// Joins a message onto one line (an error is always one line).
package func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}
