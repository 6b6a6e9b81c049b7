@_spi(Tools) import RouteLogCore

/// What happens to whole sessions and to the store: deleting sessions (their rows, records, runs and screen records
/// in every database, in one transaction), retention, statistics, compacted copies and moving
/// another store's sessions in. The session locks (`writers/`, see ``SessionLocks``) keep it from
/// taking a session that a log, in this process or another, is writing.
struct StoreLifecycle {
    let context: StoreContext
    let records: RecordLog
    let runs: SessionRuns

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
        try writer.perform(weight: max(1, ids.count)) { [self] txn, scratch in
            var rows: [SessionRow] = []
            for (id, key) in zip(ids, keys) {
                guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                rows.append(row)
            }
            for (row, key) in zip(rows, keys) {
                try removeSession(txn, key, row.info)
                scratch[row.info.id] = nil
            }
            return { [records] in for id in ids { records.forgetHead(id) } }
        }
    }

    /// Removes a session's row (under `key`), records, runs, screen records and import mark inside `txn`.
    func removeSession(_ txn: LMDBWriteTransaction, _ key: [UInt8], _ info: SessionInfo) throws {
        try runs.remove(prefix: StoreKey.eventPrefix(info), txn)
        try SessionScreens.remove(prefix: StoreKey.eventPrefix(info), txn, in: context.databases.meta)
        try records.removeSession(txn, key, info)
    }
}
