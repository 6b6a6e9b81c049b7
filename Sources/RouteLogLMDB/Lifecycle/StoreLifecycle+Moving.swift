import Foundation
@_spi(Tools) import RouteLogCore

extension StoreLifecycle {
    /// The most events one transaction of a move writes: a process that waits for the other store
    /// (an extension starting a request) waits for at most one such transaction (a few to a few
    /// tens of milliseconds) before the move lets go.
    nonisolated(unsafe) static var moveBatchEvents = 500
    /// The most events a move writes before it releases the other store and opens it again,
    /// even when nobody said it waits (a bound on how long it holds the store in any case).
    nonisolated(unsafe) static var moveSliceEvents = 20_000
    /// Whether a move lets go as soon as another process waits for the other store. Tests turn
    /// it off, with the two sizes at `Int.max`, for the move in one piece that came before.
    nonisolated(unsafe) static var moveYieldsToWaiters = true

    /// Moves every session of the store at `path` into this store, exactly once (see
    /// ``LMDBEventLog/moveSessions(fromStoreAt:)``), without keeping an extension out: the other
    /// store is opened one process at a time with `owner.lock` saying the app is moving, and the
    /// move goes in transactions of at most ``moveBatchEvents`` events (the next events of one
    /// session) and one per session deleted there, each session deleted only once this store
    /// committed its every event. Before each, it checks whether another process waits for the
    /// store (`owner.want`, see ``LMDBEnvironment/isOwnerWanted(_:)``); if so it releases the
    /// store and its lock at once and reports ``MovedSessions/busy``: the next move goes on where
    /// this one stopped. After ``moveSliceEvents`` events it releases the store and opens it again.
    func moveSessions(fromStoreAt path: String) throws -> MovedSessions {
        var report = MovedSessions()
        guard LMDBEventLog.hasData(at: path) else { return report }
        var options = LMDBEventLog.Options(durability: .perEvent, clock: context.options.clock, retention: .none, oneProcessAtATime: true)
        options.moving = true
        var written: [SessionID: Int] = [:]
        var order: [SessionID] = []
        // The sessions moved whole, in the order they were finished.
        func done(busy: Bool) -> MovedSessions {
            report.sessions = order.map { .init(session: $0, events: written[$0] ?? 0) }
            report.busy = busy
            return report
        }
        while true {
            let source: LMDBEventLog
            do {
                source = try LMDBEventLog.open(at: path, options: options)
            } catch LMDBEventLogError.storeBusy, LMDBEventLogError.storeHeld {
                return done(busy: true)
            }
            let storePath = source.environment.path
            let wanted = { Self.moveYieldsToWaiters && LMDBEnvironment.isOwnerWanted(storePath) }
            let finished: Bool
            do {
                defer { source.environment.release() }
                finished = try moveSlice(from: source, written: &written, finished: &order, wanted: wanted)
            }
            if finished { return done(busy: false) }
            if wanted() { return done(busy: true) }
        }
    }

    /// Moves up to ``moveSliceEvents`` events of `source`'s sessions, oldest first, deleting each
    /// session there once this store holds it whole, and stops before the next transaction when
    /// `wanted` says another process waits. Returns whether `source` has no session left.
    private func moveSlice(from source: LMDBEventLog, written: inout [SessionID: Int], finished: inout [SessionID],
                           wanted: () -> Bool) throws -> Bool {
        var left = UInt64(max(1, Self.moveSliceEvents))
        let batch = UInt64(max(1, Self.moveBatchEvents))
        for info in try source.sessions() {
            // `nil` until this store holds the session: a session without events (an extension
            // killed before its first commit) is created here all the same, with its runs.
            var have = try? context.session(info.id).eventCount
            while have.map({ $0 < info.eventCount }) ?? true {
                if left == 0 || wanted() { return false }
                let from = have ?? 0
                let through = min(info.eventCount, from + min(left, batch))
                let events = through > from ? try source.events(info.id, from: from + 1, through: through).map(\.recorded) : []
                // The session's screen records go with its last events, in the same transaction.
                let screens = through == info.eventCount ? try SessionScreens(context: source.context).all(info.id) : nil
                written[info.id, default: 0] += try adopt(info, events: events, after: from, runs: try source.runs(of: info.id), screens: screens,
                                                          imported: info.imported)
                left -= min(left, UInt64(events.count))
                have = through
            }
            if wanted() { return false }
            // This store committed every event of the session: only now is it deleted there.
            try source.deleteSession(info.id)
            finished.append(info.id)
        }
        return true
    }

    /// Writes `info`'s session into this store with its own id, in one transaction: created when
    /// absent, else continued after the events it already holds; its runs are copied over, and
    /// `screens`, when given, replace its screen records (so a move repeated after an interruption
    /// copies them once). `events` are the session's events from seq `offset + 1`. Returns how many
    /// events it wrote.
    func adopt(_ info: SessionInfo, events: [RecordedEvent], after offset: UInt64 = 0, runs: [RunInfo], screens: [ScreenRecord]? = nil,
               imported: Bool) throws -> Int {
        let writer = try context.requireWriter()
        let id = info.id
        let key = try context.sessionKey(id)
        try context.locks?.hold(id)
        defer { context.locks?.release(id) }
        let bodies = StoredPayload.Bodies(events)
        var written = 0
        try writer.perform(weight: max(1, events.count)) { [context] txn, heads in
            var head = try context.loadOrCreateHead(txn, info, key, heads) { row in
                if imported { try ImportMark.write(txn, row.eventPrefix, in: context.databases.meta) }
            }
            let stored = head.row.info.eventCount
            guard stored >= offset else { throw EventLogError.conflict(session: id, expected: offset, actual: stored) }
            let have = Int(min(stored - offset, UInt64(events.count)))
            written = events.count - have
            if written > 0 {
                // (A retry after a partial move encodes again only the events still to write.)
                let rest = Array(events[have...])
                _ = try context.appendRecords(txn, &head, rest, bodies: have == 0 ? bodies : StoredPayload.Bodies(rest), id: id, key: key, collect: false)
            }
            try context.writeRuns(runs, prefix: head.row.eventPrefix, txn)
            if let screens {
                try SessionScreens.remove(prefix: head.row.eventPrefix, txn, in: context.databases.meta)
                try SessionScreens(context: context).write(screens, prefix: head.row.eventPrefix, txn)
            }
            heads[id] = head
        }
        return written
    }
}
