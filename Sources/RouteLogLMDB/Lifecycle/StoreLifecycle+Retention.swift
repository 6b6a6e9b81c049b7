@_spi(Tools) import RouteLogCore

// Applying a ``LMDBEventLog/Retention`` policy: the sessions it takes, oldest first, and the bytes
// the store's databases use.

extension StoreLifecycle {

    /// The bytes of the pages the store's databases use (branch, leaf and overflow pages of the
    /// five databases and of LMDB's main database), as seen by `txn`.
    func liveBytes(_ txn: LMDBReadTransaction) throws -> Int {
        var pages = 0
        var pageSize = 4096
        for db in context.databases.all {
            let st = try txn.statistics(of: db)
            pages += st.branchPages + st.leafPages + st.overflowPages
            pageSize = st.pageSize
        }
        let main = try txn.statistics(of: try context.environment.database(named: nil))
        pages += main.branchPages + main.leafPages + main.overflowPages
        return pages * pageSize
    }

    /// Applies the log's ``LMDBEventLog/Options/retention`` now; returns the sessions it deleted.
    @discardableResult
    func applyRetention() throws -> [SessionInfo] {
        try applyRetention(context.options.retention)
    }

    /// Applies `policy` now, or with `dryRun` only says what it would delete (see
    /// ``LMDBEventLog/applyRetention(_:dryRun:)``).
    @discardableResult
    func applyRetention(_ policy: LMDBEventLog.Retention, dryRun: Bool = false) throws -> [SessionInfo] {
        guard !policy.isNone else { return [] }
        if dryRun {
            // Skips what a real run would skip: sessions a writer holds now.
            let locks = context.locks
            return try context.withRead("listing sessions in \(context.path)") { txn in
                try retentionVictims(policy, txn: txn, deletable: { id in
                    guard let locks else { return true }
                    if locks.holds(id) { return false }
                    guard let fd = try locks.tryExclusive(id) else { return false }
                    locks.unlinkAndClose(fd, id: id)
                    return true
                }, delete: nil)
            }
        }
        let writer = try context.requireWriter()
        let locks = try context.requireLocks()
        // Most calls find nothing to delete: a read transaction says so without a commit.
        guard try !applyRetention(policy, dryRun: true).isEmpty else { return [] }
        var exclusive: [SessionID: Int32] = [:]
        defer { for (id, fd) in exclusive { locks.unlinkAndClose(fd, id: id) } }
        var deleted: [SessionInfo] = []
        try writer.perform(weight: 1) { [self] txn, heads in
            let victims = try retentionVictims(policy, txn: txn, deletable: { id in
                if locks.holds(id) { return false }
                if exclusive[id] != nil { return true }
                guard let fd = try locks.tryExclusive(id) else { return false }
                exclusive[id] = fd
                return true
            }, delete: { [self] info in
                try context.removeSession(txn, StoreKey.sessionBytes(info.id)!, info)
            })
            for v in victims { heads[v.id] = nil }
            deleted = victims
        }
        return deleted
    }

    /// The sessions `policy` removes, oldest first; each is passed to `delete` (inside the write
    /// transaction) when one is given, so the byte budget sees the pages it freed.
    private func retentionVictims(_ policy: LMDBEventLog.Retention, txn: LMDBReadTransaction, deletable: (SessionID) throws -> Bool,
                                  delete: ((SessionInfo) throws -> Void)?) throws -> [SessionInfo] {
        let all = try context.sessions(txn)
        var remaining = all.count
        var victims: [SessionInfo] = []
        let cutoff: Int64? = policy.maxAge.map { age in
            let (s, atto) = age.components
            return context.options.clock() - (s * 1000 + atto / 1_000_000_000_000_000)
        }
        var bytes = policy.maxBytes == nil ? 0 : try liveBytes(txn)
        // Without deleting, the bytes a session frees are estimated from its share of events.
        let totalEvents = max(1, all.reduce(UInt64(0)) { $0 + $1.eventCount })
        let startBytes = bytes
        for info in all {
            let tooMany = policy.maxSessions.map { remaining > $0 } ?? false
            // Its age: by its last event; by when it entered the store only if no event has a time
            // (an entry time comes from the importing machine's clock, which may run ahead).
            let lastActive = info.lastEventAt.flatMap { $0 == 0 ? nil : $0 } ?? info.enteredAt ?? info.createdAt
            let tooOld = cutoff.map { lastActive < $0 } ?? false
            let tooBig = policy.maxBytes.map { bytes > $0 } ?? false
            guard tooMany || tooOld || tooBig else {
                // Later sessions are newer; only the age rule can still match one of them.
                if cutoff == nil { break }
                continue
            }
            guard try deletable(info.id) else { continue }
            victims.append(info)
            remaining -= 1
            if let delete {
                try delete(info)
                if policy.maxBytes != nil { bytes = try liveBytes(txn) }
            } else {
                bytes -= Int(Double(startBytes) * Double(info.eventCount) / Double(totalEvents))
            }
        }
        return victims
    }
}
