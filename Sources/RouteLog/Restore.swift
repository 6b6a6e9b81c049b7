import RouteLogCore

/// Where the state a restore started from came from.
public enum RecordedStateSource: Hashable, Sendable {
    /// The current reducer folds the session to the digest the log recorded for its last event:
    /// the recorded state, as is.
    case folded
    /// The session was recorded by a reducer whose rules differ from today's (the current fold's
    /// digest is not the recorded one). The recorded state was rebuilt exactly (its digest is the
    /// recorded one) by folding from the latest snapshot and following the recorded outcomes:
    /// an event the recorded run rejected is skipped, one it applied is applied.
    case followedRecordedOutcomes
    /// As ``followedRecordedOutcomes``, but the rebuild does not reach the recorded digest (the
    /// recorded run applied an event today's rules reject, or a rule changed what an event does).
    /// The restore starts from the closest rebuild; `lastMatchingSeq` is the last seq whose
    /// recorded digest it reproduced (never before the latest snapshot).
    case approximated(lastMatchingSeq: UInt64)
}

/// What a restore did: the value a navigator exposes as ``Navigator/restoreReport`` (for example
/// to tell the user that some screens could not be restored).
///
/// When the restored state differs from what the log folds to (a route was migrated or dropped,
/// or an older reducer recorded the session), the restore appended one `reset` event with origin
/// `system` whose note is ``reason``; otherwise the session simply continues.
public struct RestoreReport: Hashable, Sendable {
    /// The restored session.
    public var session: SessionID
    /// The last seq of the session when it was restored.
    public var seq: UInt64
    /// The app version that recorded the session, as the migrations saw it.
    public var appVersion: String?
    /// The digest the log recorded after ``seq``: the state the user last saw.
    public var recordedDigest: Digest
    /// The digest of the current reducer's fold of the session.
    public var foldedDigest: Digest
    /// How the recorded state was obtained.
    public var source: RecordedStateSource
    /// The routes restored in a new form.
    public var migrated: [MigratedRoute]
    /// The routes left out, each with the seq that recorded it and why.
    public var dropped: [DroppedRoute]
    /// The seq of the `reset` event the restore appended, or `nil` when the session continues
    /// from the state the log folds to.
    public var resetSeq: UInt64?
    /// The note of that `reset` event: a short reason naming each dropped route (seq, id, type,
    /// error). `nil` without a reset.
    public var reason: String?

    /// Whether every screen came back.
    public var isComplete: Bool { dropped.isEmpty }

    /// The dropped routes that could not be restored themselves (without those that went with a
    /// route below them).
    public var causes: [DroppedRoute] { dropped.filter(\.isCause) }

    /// A report.
    public init(session: SessionID, seq: UInt64, appVersion: String? = nil, recordedDigest: Digest, foldedDigest: Digest,
                source: RecordedStateSource = .folded, migrated: [MigratedRoute] = [], dropped: [DroppedRoute] = [],
                resetSeq: UInt64? = nil, reason: String? = nil) {
        self.session = session
        self.seq = seq
        self.appVersion = appVersion
        self.recordedDigest = recordedDigest
        self.foldedDigest = foldedDigest
        self.source = source
        self.migrated = migrated
        self.dropped = dropped
        self.resetSeq = resetSeq
        self.reason = reason
    }

    /// The reason a restore writes in its `reset` event's note, for example
    /// `restore: dropped seq 4 episode-42 (AppRoute): missing key "guid" at .episode, with 2 routes above it; migrated 1 route`.
    ///
    /// One part per dropped route that could not be restored (seq that recorded it, id, type,
    /// error or "removed by a migration", and how many routes went with it), then the number of
    /// migrated routes, then, when an older reducer recorded the session, how its state was
    /// rebuilt. Parts are separated by `; `.
    public static func reason(dropped: [DroppedRoute], migrated: Int, source: RecordedStateSource, seq: UInt64,
                              recordedDigest: Digest, invalid: String? = nil) -> String {
        var parts: [String] = []
        var i = 0
        while i < dropped.count {
            let d = dropped[i]
            i += 1
            guard d.isCause else { continue }
            var above = 0
            while i < dropped.count, !dropped[i].isCause { above += 1; i += 1 }
            var s = "dropped " + (d.seq.map { "seq \($0) " } ?? "") + d.route.id + (d.route.type.map { " (\($0))" } ?? "") + ": "
            switch d.reason {
            case .undecodable(let message): s += message
            case .removedByMigration: s += "removed by a migration"
            case .above: break
            }
            if above > 0 { s += ", with \(above) route\(above == 1 ? "" : "s") above it" }
            parts.append(s)
        }
        if migrated > 0 { parts.append("migrated \(migrated) route\(migrated == 1 ? "" : "s")") }
        switch source {
        case .folded:
            break
        case .followedRecordedOutcomes:
            parts.append("recorded by another reducer: rebuilt the recorded state of seq \(seq) (\(recordedDigest.short)) from its outcomes")
        case .approximated(let last):
            parts.append("recorded by another reducer: the recorded state of seq \(seq) (\(recordedDigest.short)) could not be rebuilt; resumed from the closest rebuild (exact through seq \(last))")
        }
        if let invalid { parts.append("the restored state is invalid (\(invalid)); started empty") }
        return "restore: " + (parts.isEmpty ? "nothing dropped" : parts.joined(separator: "; "))
    }
}

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
        // Dropping routes cannot break an invariant of a state the reducer built; a state that
        // today's rules reject anyway (say, a smaller chain limit) is not resumed.
        let violations = restored.validate()
        var invalid: String? = nil
        if !violations.isEmpty {
            invalid = violations.map(\.description).joined(separator: ", ")
            restored = NavigationState()
        }
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
