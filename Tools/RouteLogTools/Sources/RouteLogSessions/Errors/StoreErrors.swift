@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

// The store's errors as the tools report them: their cause and one line.

extension LMDBEventLogError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError {
        switch self {
        case .notADirectory(let path): RouteLogError(.notAStore, "not a store: \(path) (a file, not a store directory)")
        case .notAStore(let path, let reason): RouteLogError(.notAStore, "not a store: \(path) (\(reason))")
        case .newerFormat(let path, let found, let supported):
            RouteLogError(.newerFormat, "newer store format: \(path) was written in format \(found); this routelog reads format \(supported) (upgrade routelog)")
        case .olderFormat(let path, let found, let supported):
            RouteLogError(.olderFormat, "older store format: \(path) was written in format \(found); this routelog reads format \(supported) (export its sessions with the previous routelog release, then routelog import them)")
        case .permissionDenied(let path, let reason): RouteLogError(.permission, "permission denied: \(path) (\(reason))")
        case .readOnly(let path): RouteLogError(.readOnly, "store is read-only: \(path)")
        case .openReadOnlyElsewhere(let path): RouteLogError(.busy, "store is locked: \(path) (open read-only elsewhere in this process)")
        case .invalidSessionID(let id): .unknownSession("unknown session: \(id) (not a session id)")
        case .corruptRecord(let session, let seq, let reason):
            RouteLogError(.damaged, "corrupt record: session \(session) seq \(seq): \(reason)", at: "session \(session) seq \(seq)")
        case .corruptValue(let db, let key, let reason):
            RouteLogError(.damaged, "corrupt store: database \"\(db)\" key \(key): \(reason)", at: "database \"\(db)\" key \(key)")
        case .storage(let e, let operation) where e == .noSpace:
            RouteLogError(.noSpace, "disk full while \(operation): no space left on the device (nothing stored was lost; free some space and try again)")
        case .storage(let e, let operation): RouteLogError(e.cause, "store error while \(operation): \(e)")
        case .sessionInUse(let id): RouteLogError(.busy, "session in use: \(id) (an app or another process is writing it; nothing was deleted)")
        case .lockFailed(let path, let reason): RouteLogError(.io, "cannot lock \(path): \(reason)")
        case .storeBusy, .storeHeld: RouteLogError(.busy, description)
        case .storeFull: RouteLogError(.noSpace, description)
        }
    }
}

extension LMDBError: RouteLogErrorConvertible {
    package var routeLogError: RouteLogError { RouteLogError(cause, oneLine(description)) }

    /// What an LMDB or system error code says went wrong.
    var cause: RouteLogError.Cause {
        switch self {
        case .noSpace, .mapFull: .noSpace
        case .corrupted, .pageNotFound, .panic, .invalid: .damaged
        case .permissionDenied, .readOnlyFileSystem: .permission
        case .writerDied, .writerBusy, .ownerBusy, .ownerMoving, .readersFull: .busy
        default: .io
        }
    }
}
