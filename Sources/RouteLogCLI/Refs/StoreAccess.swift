import Foundation
import RouteLogCore
import RouteLogLMDB

/// Opens the LMDB store behind `--store`.
enum StoreAccess {
    /// Opens the store at `path`. Read-only unless `writable`: a read never creates or changes a
    /// store, and can run while an app writes the same store. A writable open creates the store
    /// when missing unless `create` is false. The CLI keeps every session: no retention.
    static func open(path: String, writable: Bool, create: Bool = true) throws(CLIError) -> any EventLog {
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        if !writable || !create {
            guard exists else { throw .data("not a store: \(path) (no such directory; give --store DIR or set ROUTELOG_STORE)") }
        }
        if exists && !isDir.boolValue { throw .data("not a store: \(path) (a file, not a store directory)") }
        if !create && !FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("data.mdb")) {
            throw .data("not a store: \(path) (it has no data.mdb)")
        }
        let log: LMDBEventLog
        do {
            log = try LMDBEventLog.open(at: path, options: .init(readOnly: !writable, durability: writable ? .perEvent : .none,
                                                                 retention: .none))
        } catch {
            throw CLIError.from(error)
        }
        // A reader shows a crashed app's journaled events; one it cannot trust stops the command
        // (the next read-write open recovers what comes before the damage).
        if !writable, let problem = log.journalRecovery.problems.first { throw .data(problem) }
        return log
    }
}

extension CLIError {
    /// Store errors: every one is a data error (exit 3) except a read-only store asked to write.
    static func fromStore(_ error: LMDBEventLogError) -> CLIError {
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
        case .invalidSessionID(let id): .usage("unknown session: \(id) (not a session id)")
        case .corruptRecord(let session, let seq, let reason): .data("corrupt record: session \(session) seq \(seq): \(reason)")
        case .corruptValue(let db, let key, let reason): .data("corrupt store: database \"\(db)\" key \(key): \(reason)")
        case .storage(let e, let operation) where e == .noSpace: .data("disk full while \(operation): no space left on the device (nothing stored was lost; free some space and try again)")
        case .storage(let e, let operation): .data("store error while \(operation): \(e)")
        case .sessionInUse(let id): .data("session in use: \(id) (an app or another process is writing it; nothing was deleted)")
        case .lockFailed(let path, let reason): .data("cannot lock \(path): \(reason)")
        case .storeBusy, .storeFull: .data(error.description)
        }
    }
}
