@_spi(Tools) import RouteLogCore

/// What restoring a session will do, computed before the navigator exists.
struct RestorePlan {
    /// The state the log folds to (the navigator's state before the restore's reset).
    var folded: NavigationState
    /// The state to resume at.
    var restored: NavigationState
    /// The report, without ``RestoreReport/resetSeq``.
    var report: RestoreReport
    /// Whether a `reset` must be appended (the restored state is not what the log folds to).
    var needsReset: Bool { restored != folded }

    /// Reads the session's recorded state, runs it through the migrations, drops what cannot be
    /// restored, and words the reason.
    ///
    /// - Throws: what the log throws when it cannot be read; never a decoding error.
    static func make<Route: Routable>(log: any EventLog, session info: SessionInfo, restorer: RouteRestorer<Route>) throws -> RestorePlan {
        let head = info.eventCount
        let folded = try log.state(of: info.id, at: head)
        var recordedDigest = folded.digest
        if head > 0 {
            try log.read(info.id, from: head, through: head) { e in
                recordedDigest = e.digest
                return false
            }
        }
        var recorded = folded
        var source = RecordedStateSource.folded
        if recordedDigest != folded.digest {
            (recorded, source) = try rebuildRecordedState(log: log, session: info.id, through: head)
        }

        var restoration = restorer.restore(recorded)
        if !restoration.dropped.isEmpty {
            var finder = RecordingSeqFinder(routes: restoration.dropped.map(\.route))
            try log.read(info.id, from: 1, through: head) { e in
                finder.see(e)
                return true
            }
            finder.name(&restoration.dropped)
        }
        var restored = restoration.state
        // A state that today's rules reject (say, a smaller chain limit) is not resumed.
        let invalid = restoration.invalidity
        if invalid != nil { restored = NavigationState() }
        var report = RestoreReport(session: info.id, seq: head, appVersion: info.appVersion, recordedDigest: recordedDigest,
                                   foldedDigest: folded.digest, source: source, migrated: restoration.migrated,
                                   dropped: restoration.dropped)
        if restored != folded {
            report.reason = RestoreReport.reason(dropped: restoration.dropped, migrated: restoration.migrated.count, source: source,
                                                 seq: head, recordedDigest: recordedDigest, invalid: invalid)
        }
        return RestorePlan(folded: folded, restored: restored, report: report)
    }

    /// Rebuilds the state an older reducer recorded: from the latest snapshot whose state has the
    /// recorded digest of its seq (snapshots are written with the state as recorded), folding
    /// with today's reducer but following the recorded outcomes.
    static func rebuildRecordedState(log: any EventLog, session: SessionID, through head: UInt64) throws -> (NavigationState, RecordedStateSource) {
        var start = Snapshot(seq: 0, state: NavigationState())
        if let snapshot = try log.snapshot(session, atOrBefore: head), snapshot.seq > 0 {
            var stored: Digest? = nil
            try log.read(session, from: snapshot.seq, through: snapshot.seq) { e in
                stored = e.digest
                return false
            }
            if stored == snapshot.state.digest { start = snapshot }
        }
        var state = start.state
        var lastMatch = start.seq
        try log.read(session, from: start.seq + 1, through: head) { e in
            if e.outcome.isApplied {
                var next = state
                if next.apply(e.event, seq: e.seq).isApplied { state = next }
            }
            if state.digest == e.digest { lastMatch = e.seq }
            return true
        }
        return (state, lastMatch == head ? .followedRecordedOutcomes : .approximated(lastMatchingSeq: lastMatch))
    }
}
