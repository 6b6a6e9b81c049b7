@_spi(Tools) import RouteLogCore

/// What the parts of an ``LMDBEventLog`` share: the store's path and options, its environment and
/// database handles, the writer and the session locks (both `nil` when read-only). Each part
/// keeps its own copy (its members are constants), so reaching a handle is one load.
///
/// Its extensions in `Log/` are the sessions and records every part writes and reads with, inside
/// a transaction it is given or in one it runs: creating and numbering sessions, appending (a
/// session's head, its records, call sites and snapshots), reading records against their chain,
/// and removing sessions; those in `Runs/` write run rows. They keep no state: the heads of the
/// sessions written are the writer's (``Writer/Heads``).
struct StoreContext: Sendable {
    /// The store's directory, as given to ``LMDBEventLog/open(at:options:)``.
    let path: String
    let options: LMDBEventLog.Options
    let environment: LMDBEnvironment
    let databases: StoreDatabases
    /// The thread that runs the log's write transactions.
    let writer: Writer?
    /// The writer locks of the sessions this log writes.
    let locks: SessionLocks?

    /// The writer, or ``LMDBEventLogError/readOnly(path:)``.
    func requireWriter() throws -> Writer {
        guard let writer else { throw LMDBEventLogError.readOnly(path: path) }
        return writer
    }

    /// The session locks, or ``LMDBEventLogError/readOnly(path:)``.
    func requireLocks() throws -> SessionLocks {
        guard let locks else { throw LMDBEventLogError.readOnly(path: path) }
        return locks
    }

    /// The 16 bytes that key `id`'s row, or ``LMDBEventLogError/invalidSessionID(_:)``.
    func sessionKey(_ id: SessionID) throws -> [UInt8] {
        guard let key = StoreKey.sessionBytes(id) else { throw LMDBEventLogError.invalidSessionID(id.rawValue) }
        return key
    }

    /// Runs a read transaction, turning LMDB errors into ``LMDBEventLogError/storage(_:operation:)``.
    func withRead<R>(_ operation: @autoclosure () -> String, _ body: (LMDBReadTransaction) throws -> R) throws -> R {
        do {
            return try environment.withReadTransaction(body)
        } catch let error as LMDBError {
            throw LMDBEventLogError.storage(error, operation: operation())
        }
    }

    /// The row of session `id` (keyed `key`) as `txn` sees it, `nil` when there is none.
    func readRow(_ txn: LMDBReadTransaction, _ id: SessionID, _ key: [UInt8]) throws -> SessionRow? {
        guard let bytes = try txn.value(forKey: key, in: databases.sessions) else { return nil }
        do {
            return try bytes.withUnsafeBytes { raw throws(BinaryDecodingError) in try SessionRow.decode(raw, id: id) }
        } catch {
            throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "\(error)")
        }
    }
}
