// An append that takes the caller's fold, as an optional capability of an `EventLog`: the
// navigator's recorder hands the log each event with the digest its fold gave, and the log checks
// the batch rather than folding every event again.

/// An ``EventLog`` that appends events its caller has folded: each comes with the digest of the
/// state after it, as the caller's fold of the session gave it, and the log checks the batch
/// rather than trusting each event's digest or folding each one again.
///
/// Only a caller that folded every event of the session from its start (the navigator's recorder)
/// uses this; imports, recoveries and any other source keep ``EventLog/append(_:to:expectedSeq:)``.
@_spi(Tools) public protocol FoldedAppendingEventLog: EventLog {
    /// Appends `events` after `expectedSeq`, `digests[k]` being the digest after event
    /// `expectedSeq + 1 + k` as the caller folded it, in one transaction; returns once it is
    /// committed, as ``EventLog/append(_:to:expectedSeq:)`` does.
    ///
    /// - Throws: ``EventLogError/conflict(session:expected:actual:)`` when `expectedSeq` is not the
    ///   session's last seq; ``FoldMismatch`` when the batch does not fold to the caller's digests
    ///   from the session's head (nothing of the batch is written); what the log's append throws.
    func appendFolded(_ events: [RecordedEvent], digests: [Digest], to session: SessionID, expectedSeq: UInt64) throws
}

@_spi(Tools) extension FoldedAppendingEventLog {
    /// The log itself.
    public var foldedAppending: (any FoldedAppendingEventLog)? { self }
}

/// A batch given to ``FoldedAppendingEventLog/appendFolded(_:digests:to:expectedSeq:)`` whose
/// digests are not those of its fold from the session's head: the log refused the whole batch.
@_spi(Tools) public struct FoldMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    public var session: SessionID
    /// The seq whose digest the check found wrong.
    public var seq: UInt64
    /// The digest the caller gave for `seq`.
    public var given: Digest
    /// The digest of the log's fold after `seq`.
    public var folded: Digest

    public init(session: SessionID, seq: UInt64, given: Digest, folded: Digest) {
        self.session = session
        self.seq = seq
        self.given = given
        self.folded = folded
    }

    public var description: String {
        "the batch does not fold to its digests on session \(session): after seq \(seq) the caller gave \(given.short), the log's fold gives \(folded.short); nothing of the batch was written"
    }
}
