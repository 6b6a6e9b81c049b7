@_spi(Tools) import RouteLogCore

/// The journaled events a read-only log shows after its sessions' stored events: those of crashed
/// writers' journals, checked and folded from the stored heads when the log opened, never written.
struct JournalOverlay {
    struct Pending {
        var run: UInt32
        /// The events after the stored head when the log opened, folded: outcomes and digests.
        var events: [StoredEvent]
    }
    var sessions: [SessionID: Pending] = [:]

    /// The seqs of `id` shown from a journal and not in the store (`nil` when there are none).
    func journaled(_ id: SessionID, in records: RecordLog) -> ClosedRange<UInt64>? {
        guard let events = sessions[id]?.events, let first = events.first, let last = events.last else { return nil }
        let stored = records.storedCount(id) ?? 0
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

    /// Calls `body` with the events `from ... through` of `id`: the stored ones from `records`,
    /// then the journaled ones after them.
    func read(_ id: SessionID, from: UInt64, through: UInt64, in records: RecordLog,
              _ body: (StoredEvent) throws -> Bool) throws {
        guard let pending = sessions[id]?.events else { return try records.read(id, from: from, through: through, body) }
        var next = max(from, 1)
        var stopped = false
        try records.read(id, from: from, through: through) { e in
            next = e.seq + 1
            if try !body(e) { stopped = true; return false }
            return true
        }
        guard !stopped, next <= through, let stored = records.storedCount(id), next > stored else { return }
        for e in pending where e.seq >= next && e.seq <= through {
            guard e.seq == next else { return }
            if try !body(e) { return }
            next += 1
        }
    }

    /// `runs` of `id`, with the run whose journal is shown ended as a crash that recovered its
    /// events.
    func runs(_ runs: [RunInfo], of id: SessionID) -> [RunInfo] {
        var out = runs
        if let pending = sessions[id], let last = pending.events.last,
           let i = out.firstIndex(where: { $0.number == Int(pending.run) }) {
            out[i].end = .crashed(recovered: UInt64(pending.events.count), lastSeq: last.seq)
        }
        return out
    }
}
