#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

// Recovering the journals of writers that are gone: into their sessions (read-write), or beside
// them (read-only, ``JournalOverlay``).

extension StoreJournals {
    /// Reads the journals of dead writers: checked, folded from the stored head, never written;
    /// with how each one's run ended, as ``recover(only:)`` will record it.
    func readOverlay() -> (JournalOverlay, JournalRecovery) {
        var overlay = JournalOverlay()
        var report = JournalRecovery()
        for (id, token, files) in JournalReader.list(directory) {
            guard let fds = JournalReader.lock(files, operation: LOCK_SH) else { report.skippedLive += 1; continue }
            let contents = JournalReader.read(session: id, token: token, files: files)
            fds.forEach { close($0) }
            guard let info = try? records.session(id) else { continue }
            let plan = plan(contents, info: info)
            if let problem = plan.problem { report.problems.append(problem) }
            if contents.run > 0 {
                overlay.ends[id, default: [:]][contents.run] = Self.runEnd(contents.state, recovered: plan.events, head: info.eventCount)
            }
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
            replayer = Replayer(state: try records.state(of: info.id, at: head), seq: head)
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
    func recover(only: SessionID? = nil) -> JournalRecovery {
        var report = JournalRecovery()
        for (id, token, files) in JournalReader.list(directory) where only == nil || only == id {
            guard let fds = JournalReader.lock(files, operation: LOCK_EX) else { report.skippedLive += 1; continue }
            defer { fds.forEach { close($0) } }
            let contents = JournalReader.read(session: id, token: token, files: files)
            guard let info = try? records.session(id) else {
                // The session was deleted: nothing to recover into.
                files.forEach { unlink($0) }
                continue
            }
            let plan = plan(contents, info: info)
            if let problem = plan.problem { report.problems.append(problem) }
            let end = Self.runEnd(contents.state, recovered: plan.events, head: info.eventCount)
            let endRun: (LMDBWriteTransaction, [UInt8]) throws -> Void = { [runs] txn, prefix in
                guard contents.run > 0 else { return }
                try runs.setEnd(txn, prefix: prefix, run: contents.run, to: end, onlyIfRunning: true)
            }
            do {
                if !plan.events.isEmpty {
                    _ = try records.append(plan.events.map(\.recorded), to: id, expectedSeq: info.eventCount, also: endRun)
                } else {
                    try runs.updateRow(of: id, endRun)
                }
                context.locks?.release(id)
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
