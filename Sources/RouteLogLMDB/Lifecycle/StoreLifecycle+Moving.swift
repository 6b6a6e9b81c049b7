import Foundation
import RouteLogCore

extension StoreLifecycle {
    /// Moves every session of the store at `path` into this store, exactly once (see
    /// ``LMDBEventLog/moveSessions(fromStoreAt:)``).
    func moveSessions(fromStoreAt path: String) throws -> MovedSessions {
        var report = MovedSessions()
        guard LMDBEventLog.hasData(at: path) else { return report }
        let source: LMDBEventLog
        do {
            source = try LMDBEventLog.open(at: path, options: .init(durability: .perEvent, clock: context.options.clock, retention: .none,
                                                                   oneProcessAtATime: true))
        } catch LMDBEventLogError.storeBusy {
            report.busy = true
            return report
        }
        defer { source.environment.release() }
        for info in try source.sessions() {
            let events = try source.events(info.id).map(\.recorded)
            let runs = try source.runs(of: info.id)
            let written = try adopt(info, events: events, runs: runs, imported: info.imported)
            try source.deleteSession(info.id)
            report.sessions.append(.init(session: info.id, events: written))
        }
        return report
    }

    /// Writes `info`'s session into this store with its own id, in one transaction: created when
    /// absent, else continued after the events it already holds; its runs are copied over. Returns
    /// how many events it wrote.
    func adopt(_ info: SessionInfo, events: [RecordedEvent], runs: [RunInfo], imported: Bool) throws -> Int {
        let writer = try context.requireWriter()
        let id = info.id
        let key = try context.sessionKey(id)
        try context.locks?.hold(id)
        defer { context.finishWriting(id) }
        let bodies = events.map { StoredPayload.eventBody($0.event) }
        var written = 0
        try writer.perform(weight: max(1, events.count)) { [self] txn, scratch in
            var head: SessionHead
            if try context.readRow(txn, id, key) != nil {
                head = try records.loadHead(txn, id, key, scratch)
            } else {
                let fresh = SessionInfo(id: id, label: info.label, appName: info.appName, appVersion: info.appVersion,
                                        createdAt: info.createdAt, enteredAt: context.options.clock())
                let row = try records.numberedRow(txn, fresh)
                try txn.put(row.encode(), forKey: key, in: context.databases.sessions, options: .noOverwrite)
                if imported { try ImportMark.write(txn, row.eventPrefix, in: context.databases.meta) }
                head = SessionHead(emptySession: row)
            }
            let have = Int(min(head.row.info.eventCount, UInt64(events.count)))
            written = events.count - have
            if written > 0 {
                _ = try records.appendRecords(txn, &head, Array(events[have...]), bodies: Array(bodies[have...]), id: id, key: key, collect: false)
            }
            try self.runs.write(runs, prefix: head.row.eventPrefix, txn)
            scratch[id] = head
            let committed = head
            return { [records] in records.rememberHead(committed, for: id) }
        }
        return written
    }
}
