@_spi(Tools) import RouteLogCore

/// What happens to whole sessions and to the store: deleting sessions (their rows, records, runs and screen records
/// in every database, in one transaction), retention, statistics, compacted copies and moving
/// another store's sessions in. The session locks (`writers/`, see ``SessionLocks``) keep it from
/// taking a session that a log, in this process or another, is writing.
struct StoreLifecycle {
    let context: StoreContext

    /// Deletes `ids` in one write transaction: all of them, or (when one is unknown or being
    /// written elsewhere) none (see ``LMDBEventLog/deleteSessions(_:)``).
    func deleteSessions(_ ids: [SessionID]) throws {
        let writer = try context.requireWriter()
        let locks = try context.requireLocks()
        var keys: [[UInt8]] = []
        for id in ids {
            guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
            keys.append(key)
        }
        var exclusive: [(SessionID, Int32)] = []
        defer { for (id, fd) in exclusive { locks.unlinkAndClose(fd, id: id) } }
        for id in ids where !exclusive.contains(where: { $0.0 == id }) {
            locks.release(id)
            guard let fd = try locks.tryExclusive(id) else { throw LMDBEventLogError.sessionInUse(id) }
            exclusive.append((id, fd))
        }
        try writer.perform(weight: max(1, ids.count)) { [context] txn, heads in
            var rows: [SessionRow] = []
            for (id, key) in zip(ids, keys) {
                guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                rows.append(row)
            }
            for (row, key) in zip(rows, keys) {
                try context.removeSession(txn, key, row.info)
                heads[row.info.id] = nil
            }
        }
    }
}
