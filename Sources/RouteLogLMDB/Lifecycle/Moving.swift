import Foundation
import RouteLogCore

/// What ``LMDBEventLog/moveSessions(fromStoreAt:)`` did.
public struct MovedSessions: Hashable, Sendable {
    /// One session moved.
    public struct Moved: Hashable, Sendable {
        public var session: SessionID
        /// The events this move wrote (0 when an earlier, interrupted move had written them all).
        public var events: Int
    }
    /// The sessions now in this store and gone from the other.
    public var sessions: [Moved] = []
    /// The other store was open in another process (its extension handling a request): nothing
    /// was moved; the next move takes it.
    public var busy = false

    public init() {}
}

extension LMDBEventLog {
    /// Moves every session of the store at `path` into this store, exactly once, keeping each
    /// session's id, label, app name and version, creation time, events and runs: an app's
    /// extension records into a small store of its own in the App Group container, and the app
    /// calls this at launch and when it returns to the foreground.
    ///
    /// The other store is opened with ``Options/oneProcessAtATime``, so never while its extension
    /// has it open (then nothing happens and ``MovedSessions/busy`` is set), and the extension's
    /// own journals are recovered first, as any read-write open does. Each session is written into
    /// this store in one transaction (created with its own id when absent, else continued after
    /// the events this store already has) and then deleted from the other: a move killed at any
    /// point leaves each event in one store or the other, and the next move finds a session it
    /// had written and only deletes it there. Nothing happens when there is no store at `path`.
    ///
    /// - Throws: ``LMDBEventLogError`` when this store cannot be written, or the other cannot be
    ///   read.
    public func moveSessions(fromStoreAt path: String) throws -> MovedSessions {
        var report = MovedSessions()
        guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("data.mdb")) else { return report }
        let source: LMDBEventLog
        do {
            source = try LMDBEventLog.open(at: path, options: .init(durability: .perEvent, clock: options.clock, retention: .none,
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
        let writer = try requireWriter()
        let id = info.id
        let key = try sessionKey(id)
        try locks?.hold(id)
        defer { finishWriting(id) }
        let bodies = events.map { StoredPayload.eventBody($0.event) }
        var written = 0
        try writer.perform(weight: max(1, events.count)) { [self] txn, scratch in
            var head: Head
            if try readRow(txn, id, key) != nil {
                head = try loadHead(txn, id, key, scratch)
            } else {
                let fresh = SessionInfo(id: id, label: info.label, appName: info.appName, appVersion: info.appVersion,
                                        createdAt: info.createdAt, enteredAt: options.clock())
                let row = try numberedRow(txn, fresh)
                try txn.put(row.encode(), forKey: key, in: sessionsDB, options: .noOverwrite)
                if imported { try txn.put([1], forKey: ImportMark.key(row.eventPrefix), in: metaDB) }
                head = Head(emptySession: row)
            }
            let have = Int(min(head.row.info.eventCount, UInt64(events.count)))
            written = events.count - have
            if written > 0 {
                _ = try appendRecords(txn, &head, Array(events[have...]), bodies: Array(bodies[have...]), id: id, key: key, collect: false)
            }
            for run in runs {
                let row = RunRow(firstSeq: run.firstSeq, startedAt: run.startedAt, appVersion: run.appVersion, build: run.build, end: run.end)
                try txn.put(row.encode(), forKey: RunRow.key(head.row.eventPrefix, UInt32(run.number)), in: metaDB)
            }
            scratch[id] = head
            let committed = head
            return { [self] in rememberHead(committed, for: id) }
        }
        return written
    }
}
