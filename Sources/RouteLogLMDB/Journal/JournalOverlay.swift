@_spi(Tools) import RouteLogCore

/// What a read-only log shows from the journals of writers that are gone, beside what the store
/// holds, never written: the journaled events after its sessions' stored events (checked and
/// folded from the stored heads when the log opened), and how each of those runs ended, as the
/// next read-write open will record it.
struct JournalOverlay {
    struct Pending {
        var run: UInt32
        /// The events after the stored head when the log opened, folded: outcomes and digests.
        var events: [StoredEvent]
    }
    var sessions: [SessionID: Pending] = [:]
    /// The end of each run whose writer is gone, by session and run number, from the state its
    /// journal was left in (``StoreJournals/runEnd(_:recovered:head:)``): an exit the process
    /// recorded in its journal reads `clean` at once, not `open` until the next read-write open.
    var ends: [SessionID: [UInt32: RunEnd]] = [:]

    /// The seqs of `id` shown from a journal and not in the store (`nil` when there are none).
    func journaled(_ id: SessionID, in context: StoreContext) -> ClosedRange<UInt64>? {
        guard let events = sessions[id]?.events, let first = events.first, let last = events.last else { return nil }
        let stored = context.storedCount(id) ?? 0
        let from = max(first.seq, stored + 1)
        return from <= last.seq ? from...last.seq : nil
    }

    /// `info` with the journaled events after its stored ones.
    func session(_ info: SessionInfo) -> SessionInfo {
        guard let pending = sessions[info.id], let last = pending.events.last, last.seq > info.eventCount,
              let first = pending.events.first, first.seq <= info.eventCount + 1 else { return info }
        var out = info
        out.eventCount = last.seq
        out.headDigest = last.digest
        out.lastEventAt = last.meta.timestamp
        return out
    }

    /// Calls `body` with the events `from ... through` of `id`: the stored ones, read in `context`,
    /// then the journaled ones after them.
    func read(_ id: SessionID, from: UInt64, through: UInt64, in context: StoreContext, digests: Bool = true,
              _ body: (StoredEvent) throws -> Bool) throws {
        guard let pending = sessions[id]?.events else { return try context.read(id, from: from, through: through, digests: digests, body) }
        var next = max(from, 1)
        var stopped = false
        try context.read(id, from: from, through: through, digests: digests) { e in
            next = e.seq + 1
            if try !body(e) { stopped = true; return false }
            return true
        }
        guard !stopped, next <= through, let stored = context.storedCount(id), next > stored else { return }
        for e in pending where e.seq >= next && e.seq <= through {
            guard e.seq == next else { return }
            if try !body(e) { return }
            next += 1
        }
    }

    /// `runs` of `id`, each run whose writer is gone ended as its journal says (crashed with the
    /// events shown from it, suspended, or clean), where the store still shows it running: what
    /// the next read-write open records (``StoreJournals/recover(only:)``).
    func runs(_ runs: [RunInfo], of id: SessionID) -> [RunInfo] {
        guard let ends = ends[id] else { return runs }
        return runs.map { run in
            var out = run
            if let end = ends[UInt32(run.number)], run.end == .open || run.end == .suspended { out.end = end }
            return out
        }
    }
}
