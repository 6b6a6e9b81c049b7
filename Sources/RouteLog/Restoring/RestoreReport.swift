@_spi(Tools) import RouteLogCore

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
    @_spi(Tools) public init(session: SessionID, seq: UInt64, appVersion: String? = nil, recordedDigest: Digest, foldedDigest: Digest,
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
    @_spi(Tools) public static func reason(dropped: [DroppedRoute], migrated: Int, source: RecordedStateSource, seq: UInt64,
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
