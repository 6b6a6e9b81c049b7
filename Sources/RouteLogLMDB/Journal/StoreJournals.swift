import Foundation
@_spi(Tools) import RouteLogCore

/// The store's journals: the files of the `journal` folder, one set per run of a navigator (see
/// ``Journal``). It opens a run's journal, recovers the journals of writers that are gone into
/// their sessions (`events` and the other record databases, through ``RecordLog``, and the run
/// rows of `meta`, through ``SessionRuns``), and for a read-only log keeps the journaled events it
/// shows beside the store (``JournalOverlay``).
final class StoreJournals: @unchecked Sendable {
    let context: StoreContext
    let records: RecordLog
    let runs: SessionRuns

    /// What the journals held when the log opened (set once, at open).
    private(set) var recovery = JournalRecovery()
    /// The journaled events a read-only log shows (set once, at open).
    private(set) var overlay: JournalOverlay?

    init(_ context: StoreContext, records: RecordLog, runs: SessionRuns) {
        self.context = context
        self.records = records
        self.runs = runs
    }

    /// The folder of the store's journals.
    var directory: String { (context.path as NSString).appendingPathComponent("journal") }

    /// At open, before the log is shared: a read-write log recovers the journals of dead writers,
    /// a read-only one reads them into its overlay.
    func open() {
        if context.writer == nil {
            (overlay, recovery) = readOverlay()
        } else {
            // Early journals first: a run that began before the store opened has its first
            // events there and the rest in an ordinary journal.
            let early = recoverEarly(fallback: context.options.earlyJournalDirectory)
            recovery = recover()
            recovery.recovered.insert(contentsOf: early.recovered, at: 0)
            recovery.problems.insert(contentsOf: early.problems, at: 0)
            recovery.skippedLive += early.skippedLive
        }
    }

    /// Starts a run of `id` and opens its journal (see ``LMDBEventLog/beginRun(of:head:_:)``): the
    /// session's journals of writers that are gone are recovered first, then the run's row is
    /// written.
    func beginRun(of id: SessionID, head: UInt64, _ start: RunStart) throws -> any EventJournal {
        // Refused before anything is recovered: a read-only log, an id that is not a UUID.
        _ = try context.requireWriter()
        _ = try context.sessionKey(id)
        let liveWriter = recover(only: id).skippedLive > 0
        try context.locks?.hold(id)
        let run = try runs.open(of: id, startedAt: context.options.clock(), start, previousIsLive: liveWriter)
        let store = context.environment.path
        let journal = try Journal(directory: directory, session: id, run: run, head: head) { [weak self] allCommitted, wasActive in
            guard let self else { return }
            if allCommitted { runs.end(of: id, run: run, .clean) }
            if wasActive {
                // The session is no longer being written: another window may restore it.
                context.locks?.release(id)
                context.environment.navigatorStopped()
            } else if allCommitted && !context.environment.hasActiveNavigators {
                // Released while suspended (a scene discarded in the background): writing the
                // run's end opened the store again; let go of it, as the suspension did.
                context.environment.release()
            }
        }
        journal.register(store: store)
        context.environment.navigatorStarted()
        return journal
    }
}
