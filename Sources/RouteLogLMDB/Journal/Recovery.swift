#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RouteLogCore

/// What the journals held when a log opened: for a read-write log, what it recovered; for a
/// read-only one, what it shows beside the store (see ``LMDBEventLog/journaled(_:)``).
public struct JournalRecovery: Hashable, Sendable {
    /// A journal whose events were moved into its session (or, read-only, are shown).
    public struct Recovered: Hashable, Sendable {
        public var session: SessionID
        public var run: Int
        /// The events moved, and the seqs they took.
        public var count: UInt64
        public var firstSeq: UInt64
        public var lastSeq: UInt64
        /// The bytes the journal's entries took (all of its entries, recovered or not).
        public var journalBytes: Int
        /// The journal's entries, recovered or already in the store.
        public var journalEntries: Int
    }

    public var recovered: [Recovered] = []
    /// One line per journal that could not be (fully) recovered: a damaged entry with entries
    /// after it (what comes before it is recovered, nothing after it), events that do not fold to
    /// their journaled digests, or a failed write (say, a full disk: the journal stays and the
    /// next read-write open tries again).
    public var problems: [String] = []
    /// Journals of live writers (in this process or another), left alone.
    public var skippedLive = 0
}

/// The journaled events a read-only log shows after its sessions' stored events.
struct JournalOverlay {
    struct Pending {
        var run: UInt32
        /// The events after the stored head when the log opened, folded: outcomes and digests.
        var events: [StoredEvent]
    }
    var sessions: [SessionID: Pending] = [:]
}

extension LMDBEventLog {
    /// The seqs of `id` that a read-only log shows from a crashed writer's journal, not yet in the
    /// store (`nil` when there are none): `routelog` marks them as recovered.
    public func journaled(_ id: SessionID) -> ClosedRange<UInt64>? {
        guard let events = overlay?.sessions[id]?.events, let first = events.first, let last = events.last else { return nil }
        let stored = storedCount(id) ?? 0
        let from = max(first.seq, stored + 1)
        return from <= last.seq ? from...last.seq : nil
    }

    /// The session's event count in the store itself (without journaled events).
    func storedCount(_ id: SessionID) -> UInt64? {
        guard let key = StoreKey.sessionBytes(id) else { return nil }
        return try? withRead("reading session \(id)") { try readRow($0, id, key)?.info.eventCount }
    }

    /// `info` with the journaled events after its stored ones.
    func withJournaled(_ info: SessionInfo) -> SessionInfo {
        guard let pending = overlay?.sessions[info.id], let last = pending.events.last, last.seq > info.eventCount,
              let first = pending.events.first, first.seq <= info.eventCount + 1 else { return info }
        var out = info
        out.eventCount = last.seq
        out.headDigest = last.digest
        out.lastEventAt = last.meta.timestamp
        return out
    }

    /// Reads the journals of dead writers: checked, folded from the stored head, never written.
    func loadOverlay() -> (JournalOverlay, JournalRecovery) {
        var overlay = JournalOverlay()
        var report = JournalRecovery()
        for (id, token, files) in JournalReader.list(journalDirectory) {
            guard let fds = JournalReader.lock(files, operation: LOCK_SH) else { report.skippedLive += 1; continue }
            let contents = JournalReader.read(session: id, token: token, files: files)
            fds.forEach { close($0) }
            guard let info = try? session(id) else { continue }
            let plan = plan(contents, info: info)
            if let problem = plan.problem { report.problems.append(problem) }
            guard !plan.events.isEmpty else { continue }
            overlay.sessions[id] = JournalOverlay.Pending(run: contents.run, events: plan.events)
            report.recovered.append(.init(session: id, run: Int(contents.run), count: UInt64(plan.events.count),
                                          firstSeq: plan.events[0].seq, lastSeq: plan.events[plan.events.count - 1].seq,
                                          journalBytes: contents.bytes, journalEntries: contents.entries.count))
        }
        return (overlay, report)
    }

    /// The events of a journal to add to its session: those after the stored head, folded from
    /// the stored state and checked against their journaled digests (stopping at the first that
    /// differs), and what is wrong with the journal, if anything.
    private func plan(_ contents: JournalContents, info: SessionInfo) -> (events: [StoredEvent], problem: String?) {
        let head = info.eventCount
        var problem = contents.damage.map { "journal of session \(info.id) is damaged: \($0); recovered the events before it" }
        let entries = contents.entries.filter { $0.seq > head }
        guard let first = entries.first else { return ([], problem) }
        guard first.seq == head + 1 else {
            return ([], "journal of session \(info.id) starts at seq \(first.seq), but the session holds \(head) events; nothing recovered")
        }
        // The journal's entry for the stored head (if it still has it) must be the stored one.
        if let overlap = contents.entries.last(where: { $0.seq == head }), head == info.eventCount, overlap.digest != info.headDigest {
            return ([], "journal of session \(info.id) does not continue the stored session (digest at seq \(head) differs); nothing recovered")
        }
        var replayer: Replayer
        do {
            replayer = Replayer(state: try state(of: info.id, at: head), seq: head)
        } catch {
            return ([], "journal of session \(info.id): cannot read the stored state: \(error)")
        }
        var out: [StoredEvent] = []
        for e in entries {
            let step = replayer.apply(e.recorded.event)
            guard step.digest == e.digest else {
                problem = "journal of session \(info.id): seq \(e.seq) folds to \(step.digest.short), the journal says \(e.digest.short); recovered the events before it"
                break
            }
            out.append(StoredEvent(seq: step.seq, recorded: e.recorded, outcome: step.outcome, digest: step.digest))
        }
        return (out, problem)
    }

    /// Moves every journaled event of a dead writer that its session does not hold yet into the
    /// session, in order, checked, exactly once, and records how the writer's run ended: the
    /// events and the run's end are written in one transaction that names the session's head
    /// (`expectedSeq`), and the journal is removed only after it committed. A process killed at
    /// any point leaves either the journal to recover again or its events in the store (and then
    /// finds nothing left to move).
    ///
    /// The run's end comes from the state its journal was left in, never from what the journal
    /// holds: `active` is a crash (however many events were recovered, often none), `suspended` a
    /// process ended in the background, `exited` a normal exit. Only a run the store still shows
    /// as `open` (or `suspended`) is changed. `only` limits the recovery to one session's journals.
    func recoverJournals(only: SessionID? = nil) -> JournalRecovery {
        var report = JournalRecovery()
        for (id, token, files) in JournalReader.list(journalDirectory) where only == nil || only == id {
            guard let fds = JournalReader.lock(files, operation: LOCK_EX) else { report.skippedLive += 1; continue }
            defer { fds.forEach { close($0) } }
            let contents = JournalReader.read(session: id, token: token, files: files)
            guard let info = try? session(id) else {
                // The session was deleted: nothing to recover into.
                files.forEach { unlink($0) }
                continue
            }
            let plan = plan(contents, info: info)
            if let problem = plan.problem { report.problems.append(problem) }
            let end = Self.runEnd(contents.state, recovered: plan.events, head: info.eventCount)
            let endRun: (LMDBWriteTransaction, [UInt8]) throws -> Void = { [self] txn, prefix in
                guard contents.run > 0 else { return }
                try setRunEnd(txn, prefix: prefix, run: contents.run, to: end, onlyIfRunning: true)
            }
            do {
                if !plan.events.isEmpty {
                    _ = try append(plan.events.map(\.recorded), to: id, expectedSeq: info.eventCount, also: endRun)
                } else {
                    try updateRow(of: id, endRun)
                }
                finishWriting(id)
            } catch {
                report.problems.append("journal of session \(id) not recovered yet (it stays for the next open): \(error)")
                continue
            }
            if !plan.events.isEmpty {
                report.recovered.append(.init(session: id, run: Int(contents.run), count: UInt64(plan.events.count),
                                              firstSeq: plan.events[0].seq, lastSeq: plan.events[plan.events.count - 1].seq,
                                              journalBytes: contents.bytes, journalEntries: contents.entries.count))
            }
            if contents.damage != nil || plan.problem != nil {
                // Kept for a person to look at, out of the way of later opens.
                for f in files { rename(f, f + ".damaged") }
            } else {
                for f in files.reversed() { unlink(f) }
            }
        }
        return report
    }

    /// How a run whose writer is gone ended, from the state its journal was left in.
    static func runEnd(_ state: Journal.State, recovered: [StoredEvent], head: UInt64) -> RunEnd {
        switch state {
        case .active: .crashed(recovered: UInt64(recovered.count), lastSeq: recovered.last?.seq ?? head)
        case .suspended: .suspended
        case .exited: .clean
        }
    }
}
