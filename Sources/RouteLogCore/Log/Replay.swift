/// Folds events one by one, numbering them and tracking the digest.
///
/// Seqs start at 1; `seq == 0` is the state before any event.
public struct Replayer: Sendable {
    public private(set) var state: NavigationState
    /// The seq of the last event applied (0 before any).
    public private(set) var seq: UInt64

    public init(state: NavigationState = NavigationState(), seq: UInt64 = 0) {
        self.state = state
        self.seq = seq
    }

    /// Applies the next event (its seq is `seq + 1`).
    @discardableResult
    public mutating func apply(_ event: Event) -> ReplayStep {
        seq += 1
        let outcome = state.apply(event, seq: seq)
        return ReplayStep(seq: seq, outcome: outcome, digest: state.digest)
    }
}

/// What one event did during a replay.
public struct ReplayStep: Hashable, Sendable {
    public var seq: UInt64
    public var outcome: Outcome
    /// The digest of the state after the event.
    public var digest: Digest
}

/// The result of folding a list of events from the empty state.
public struct ReplayResult: Hashable, Sendable {
    public var state: NavigationState
    public var steps: [ReplayStep]
}

/// Folds `events` from the empty state, recording each outcome and digest.
public func replay<S: Sequence>(_ events: S) -> ReplayResult where S.Element == Event {
    var r = Replayer()
    var steps: [ReplayStep] = []
    steps.reserveCapacity(events.underestimatedCount)
    for e in events { steps.append(r.apply(e)) }
    return ReplayResult(state: r.state, steps: steps)
}
