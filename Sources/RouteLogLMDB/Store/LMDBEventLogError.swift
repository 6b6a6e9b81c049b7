@_spi(Tools) import RouteLogCore

/// Why an ``LMDBEventLog`` could not open a store, or found a stored value it cannot read.
///
/// Every case has a one-line ``description`` that says what went wrong and where.
/// Errors about sessions and seqs themselves (unknown session, append conflict) are
/// `EventLogError`s, shared with every `EventLog`.
public enum LMDBEventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path names a file, not a store directory.
    case notADirectory(path: String)
    /// The directory exists but is not a RouteLog store (`reason` says why).
    case notAStore(path: String, reason: String)
    /// The store was written by a newer RouteLog format than this build reads.
    case newerFormat(path: String, found: UInt32, supported: UInt32)
    /// The store was written in an older RouteLog format than this build reads.
    case olderFormat(path: String, found: UInt32, supported: UInt32)
    /// The directory or its files cannot be read, or cannot be written when opening read-write.
    case permissionDenied(path: String, reason: String)
    /// A write was attempted on a store opened with ``LMDBEventLog/Options/readOnly``.
    case readOnly(path: String)
    /// Another handle in this process has the store open read-only, so it cannot be opened
    /// read-write here.
    case openReadOnlyElsewhere(path: String)
    /// A session id that is not a UUID (the store keys sessions by their 16 bytes).
    case invalidSessionID(String)
    /// A stored event record is truncated, garbled or fails its checksum.
    case corruptRecord(session: SessionID, seq: UInt64, reason: String)
    /// Another stored value (store metadata, a session row, a snapshot) is truncated or garbled.
    case corruptValue(database: String, key: String, reason: String)
    /// LMDB itself failed (`operation` says during what).
    case storage(LMDBError, operation: String)
    /// The session is being written by another log or process, so it is not deleted.
    case sessionInUse(SessionID)
    /// A session's writer lock file could not be opened or locked.
    case lockFailed(path: String, reason: String)
    /// Another process holds the store's cross-process writer lock: it died inside a write
    /// transaction (`writerDied`), which with LMDB's POSIX-semaphore locks (Apple platforms) lasts
    /// until every process has closed the store, or it has been writing for longer than this
    /// process waits. Nothing was written; a later write may succeed.
    case storeBusy(path: String, writerDied: Bool)
    /// A ``LMDBEventLog/Options/oneProcessAtATime`` store is held by another process (its
    /// `owner.lock`): the app moving the store's sessions into its own (`byMove`), which lets go
    /// between short slices, or a process that has it open. Nothing was opened.
    case storeHeld(path: String, byMove: Bool)
    /// The store's map reached its maximum size (``LMDBEventLog/Options/maxMapSize``): nothing more fits until
    /// sessions are deleted (retention) and the store compacted.
    case storeFull(path: String, maxMapSize: Int)

    public var description: String {
        switch self {
        case .notADirectory(let path):
            "\(path) is a file, not a RouteLog store directory"
        case .notAStore(let path, let reason):
            "\(path) is not a RouteLog store: \(reason)"
        case .newerFormat(let path, let found, let supported), .olderFormat(let path, let found, let supported):
            "\(path) was written in RouteLog store format \(found), \(formatAdvice(supported: supported))"
        case .permissionDenied(let path, let reason):
            "permission denied for store \(path): \(reason)"
        case .readOnly(let path):
            "store \(path) is open read-only; it cannot be written"
        case .openReadOnlyElsewhere(let path):
            "store \(path) is already open read-only in this process; it cannot also be opened read-write"
        case .invalidSessionID(let id):
            "invalid session id \"\(id)\": expected a UUID like 0192f4c0-7a1b-7c3d-8e4f-0123456789ab"
        case .corruptRecord(let session, let seq, let reason):
            "corrupt record: session \(session) seq \(seq): \(reason)"
        case .corruptValue(let database, let key, let reason):
            "corrupt value in database \"\(database)\" at key \(key): \(reason)"
        case .storage(let error, let operation):
            "LMDB error while \(operation): \(error)"
        case .sessionInUse(let id):
            "session \(id) is being written by another log or process; it was not deleted"
        case .lockFailed(let path, let reason):
            "cannot lock \(path): \(reason)"
        case .storeBusy(let path, let writerDied):
            writerDied
                ? "store busy: a process died while writing; it clears when every process has closed the store (\(path))"
                : "store busy: another process is writing to \(path) and has been for longer than this process waits"
        case .storeHeld(let path, let byMove):
            byMove
                ? "store busy: another process (the app moving sessions in) holds \(path)/owner.lock"
                : "store busy: another process has the store \(path) open (it holds owner.lock: one process at a time)"
        case .storeFull(let path, let maxMapSize):
            "store \(path) is full: it reached its \(maxMapSize >> 20) MiB map; delete sessions (routelog prune) and compact it (routelog compact)"
        }
    }

    /// How a store's format version compares with `supported`, and what to do about it.
    private func formatAdvice(supported: UInt32) -> String {
        if case .newerFormat = self { return "newer than the format \(supported) this version reads; upgrade RouteLog" }
        return "older than the format \(supported) this version reads; export its sessions with the RouteLog release that wrote it (routelog export), then routelog import them into a new store"
    }
}

extension LMDBEventLogError {
    /// The error a failed write transaction on `environment` reports.
    init(writing error: LMDBError, to environment: LMDBEnvironment) {
        switch error {
        case .writerDied: self = .storeBusy(path: environment.path, writerDied: true)
        case .writerBusy: self = .storeBusy(path: environment.path, writerDied: false)
        case .ownerBusy: self = .storeHeld(path: environment.path, byMove: false)
        case .ownerMoving: self = .storeHeld(path: environment.path, byMove: true)
        case .mapFull: self = .storeFull(path: environment.path, maxMapSize: environment.options.maxMapSize)
        default: self = .storage(error.onFileSystem(of: environment.path), operation: "writing to \(environment.path)")
        }
    }
}
