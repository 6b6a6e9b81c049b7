/// What a bisect predicate sees at one seq: the state after that event, and the event itself.
@_spi(Tools) public struct BisectContext: Hashable, Sendable {
    /// The seq (0 = before any event).
    public var seq: UInt64
    /// The state after the event at ``seq``, folded with the current reducer.
    public var state: NavigationState
    /// The event at ``seq`` as stored (with its recorded outcome and digest); `nil` at seq 0.
    public var event: StoredEvent?

    /// A context from its parts.
    public init(seq: UInt64, state: NavigationState, event: StoredEvent?) {
        self.seq = seq
        self.state = state
        self.event = event
    }

    /// The outcome of the event at ``seq`` as it was recorded; `nil` at seq 0.
    public var outcome: Outcome? { event?.outcome }
}

/// Errors from ``Bisect``.
@_spi(Tools) public enum BisectError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source did not hold the event at this seq although its count says it should.
    case missingEvent(seq: UInt64)

    /// A one-line message.
    public var description: String {
        switch self {
        case .missingEvent(let seq): "the log has no event at seq \(seq), although the session counts past it"
        }
    }
}

/// A session in memory with a checkpoint (a saved state) every K events, so any state can be
/// materialized by folding at most K - 1 events from the nearest checkpoint.
///
/// Building it folds every event once, recording each outcome and digest.
@_spi(Tools) public struct CheckpointedSession: Sendable {
    /// The events, numbered from 1, with their outcomes and the digest after each.
    public let events: [StoredEvent]
    /// The distance K between checkpoints (at seqs 0, K, 2K, …).
    public let checkpointInterval: Int
    let checkpoints: [NavigationState]

    /// Folds `events` from the empty state, keeping a checkpoint every `checkpointInterval` events.
    ///
    /// - Parameters:
    ///   - events: the session's events, in order.
    ///   - checkpointInterval: K; values below 1 count as 1.
    public init(_ events: [RecordedEvent], checkpointInterval: Int = 1024) {
        let k = max(1, checkpointInterval)
        var r = Replayer()
        var stored: [StoredEvent] = []
        stored.reserveCapacity(events.count)
        var cps: [NavigationState] = [r.state]
        for e in events {
            let step = r.apply(e.event)
            stored.append(StoredEvent(seq: step.seq, recorded: e, outcome: step.outcome, digest: step.digest))
            if step.seq % UInt64(k) == 0 { cps.append(r.state) }
        }
        self.events = stored
        self.checkpointInterval = k
        self.checkpoints = cps
    }

    /// Folds `events` (with default metadata) from the empty state; as the initializer over recorded events does.
    public init(_ events: [Event], checkpointInterval: Int = 1024) {
        self.init(events.map { RecordedEvent($0) }, checkpointInterval: checkpointInterval)
    }

    /// The number of events (the last seq).
    public var count: UInt64 { UInt64(events.count) }

    /// The latest checkpoint at or before `seq`.
    public func checkpoint(atOrBefore seq: UInt64) -> Snapshot {
        let i = min(Int(clamping: seq) / checkpointInterval, checkpoints.count - 1)
        return Snapshot(seq: UInt64(i * checkpointInterval), state: checkpoints[i])
    }

    /// The state after event `seq` (0 = before any), from the nearest checkpoint. A seq past the
    /// end gives the final state.
    public func state(at seq: UInt64) -> NavigationState {
        let seq = min(seq, count)
        let cp = checkpoint(atOrBefore: seq)
        var r = Replayer(state: cp.state, seq: cp.seq)
        for i in Int(cp.seq)..<Int(seq) { r.apply(events[i].event) }
        return r.state
    }
}

/// Finds the first seq at which a predicate over the state (and the event and outcome that led
/// to it) holds, like `git bisect` over a session.
///
/// Two modes; ``Mode/linear`` is the default, as it is for `routelog bisect`, because it is exact
/// for every predicate (binary mode answers `nil` for a predicate that holds for a while and then
/// stops holding):
/// - ``Mode/binary`` assumes the predicate is monotone (false up to some seq, true from there on,
///   e.g. "the path has ever been deeper than 5" or "the state equals the bad one from here on").
///   It materializes O(log N) states, each from the nearest checkpoint, and reports how many in
///   ``Result/materialized``.
///   On a predicate that is not monotone it still returns a seq where the predicate holds and
///   did not hold at the seq before (a transition), but not necessarily the first one, and `nil`
///   when the predicate does not hold at the last seq.
/// - ``Mode/linear`` folds once from the start and checks every seq in order: exact for any
///   predicate, monotone or not.
///
/// A predicate either answers `Bool` (true = it holds, "bad"; the `firstSeq` functions) or a
/// ``Verdict`` that may also ``Verdict/skip`` a seq it cannot judge (the `run` functions); a
/// binary search then tries a neighbour, as `git bisect run` does with exit code 125.
@_spi(Tools) public enum Bisect {
    /// How the search proceeds.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Binary search; correct for monotone predicates.
        case binary
        /// One fold from the start, checking every seq; correct for any predicate.
        case linear
    }

    /// A predicate's answer at one seq.
    public enum Verdict: String, Hashable, Sendable, CaseIterable {
        /// The predicate does not hold here.
        case good
        /// The predicate holds here.
        case bad
        /// The predicate cannot tell here; the search tries a neighbouring seq.
        case skip
    }

    /// The outcome of a search.
    public struct Result: Hashable, Sendable {
        /// The first seq at which the predicate holds, or `nil` if it holds nowhere (in binary
        /// mode: not at the last seq judged, since a monotone predicate then holds nowhere).
        public var seq: UInt64?
        /// The context at ``seq``.
        public var context: BisectContext?
        /// The state just before ``seq`` (after `seq - 1`), for a diff across the event; `nil`
        /// when ``seq`` is `nil` or 0.
        public var stateBefore: NavigationState?
        /// Seqs that were skipped between the last good seq and ``seq``: any of them may be the
        /// real first seq. Empty when the answer is exact.
        public var undecided: [UInt64]
        /// How many states were materialized (each from a checkpoint plus a fold). A linear
        /// search materializes one state and folds forward from it.
        public var materialized: Int
        /// How many events were folded in total.
        public var eventsFolded: Int
        /// How many times the predicate was called.
        public var evaluations: Int
        /// The search mode used.
        public var mode: Mode

        /// What the event at ``seq`` changed: the diff from ``stateBefore`` to the state at ``seq``.
        public var diff: StateDiff? {
            guard let context, let stateBefore else { return nil }
            return StateDiff.between(stateBefore, context.state)
        }
    }

    // MARK: - Entry points

    /// Searches a session of a log, materializing states from the log's snapshots.
    ///
    /// - Parameters:
    ///   - log: the log.
    ///   - session: the session to search.
    ///   - through: the last seq to consider (default: the session's last event); seqs
    ///     `0...through` are searched.
    ///   - mode: ``Mode/linear`` (default: exact for any predicate, as the CLI's `bisect`) or
    ///     ``Mode/binary`` (O(log N) states, for monotone predicates).
    ///   - predicate: true where the condition holds.
    /// - Returns: the first seq where `predicate` holds, with counts.
    /// - Throws: the log's errors (``EventLogError/seqOutOfRange(session:seq:count:)`` when
    ///   `through` is past the last event), ``BisectError``, or what `predicate` throws.
    public static func firstSeq(in log: some EventLog, session: SessionID, through: UInt64? = nil, mode: Mode = .linear,
                                where predicate: (BisectContext) throws -> Bool) throws -> Result {
        try run(in: log, session: session, through: through, mode: mode, verdict: { try predicate($0) ? .bad : .good })
    }

    /// Searches a session of a log with a three-way ``Verdict``, as `git bisect run` does: the
    /// first seq judged ``Verdict/bad``, trying neighbours of seqs judged ``Verdict/skip``
    /// (see ``firstSeq(in:session:through:mode:where:)``).
    public static func run(in log: some EventLog, session: SessionID, through: UInt64? = nil, mode: Mode = .linear,
                           verdict: (BisectContext) throws -> Verdict) throws -> Result {
        let count = try log.session(session).eventCount
        if let through, through > count { throw EventLogError.seqOutOfRange(session: session, seq: through, count: count) }
        let source = LogSource(log: log, session: session, count: through ?? count)
        return try search(source, mode: mode, verdict: verdict)
    }

    /// Searches an in-memory session with checkpoints.
    public static func firstSeq(in session: CheckpointedSession, mode: Mode = .linear,
                                where predicate: (BisectContext) throws -> Bool) throws -> Result {
        try search(session, mode: mode, verdict: { try predicate($0) ? .bad : .good })
    }

    /// Searches an in-memory session with checkpoints, with a three-way ``Verdict``.
    public static func run(in session: CheckpointedSession, mode: Mode = .linear,
                           verdict: (BisectContext) throws -> Verdict) throws -> Result {
        try search(session, mode: mode, verdict: verdict)
    }

    /// Searches a list of events, keeping a checkpoint every `checkpointInterval` events
    /// (building them folds the list once; ``Result/materialized`` counts only the search).
    public static func firstSeq(in events: [Event], checkpointInterval: Int = 1024, mode: Mode = .linear,
                                where predicate: (BisectContext) throws -> Bool) throws -> Result {
        try search(CheckpointedSession(events, checkpointInterval: checkpointInterval), mode: mode,
                   verdict: { try predicate($0) ? .bad : .good })
    }

    // MARK: - The search

    static func search(_ source: some BisectSource, mode: Mode, verdict: (BisectContext) throws -> Verdict) throws -> Result {
        switch mode {
        case .linear: try linear(source, verdict)
        case .binary: try binary(source, verdict)
        }
    }

    static func linear(_ source: some BisectSource, _ verdict: (BisectContext) throws -> Verdict) throws -> Result {
        var result = Result(seq: nil, context: nil, stateBefore: nil, undecided: [], materialized: 1, eventsFolded: 0, evaluations: 0, mode: .linear)
        var r = Replayer()
        var skipped: [UInt64] = []
        func judge(_ ctx: BisectContext, before: NavigationState?) throws -> Bool {
            result.evaluations += 1
            switch try verdict(ctx) {
            case .good: skipped.removeAll()
            case .skip: skipped.append(ctx.seq)
            case .bad:
                result.seq = ctx.seq
                result.context = ctx
                result.stateBefore = before
                result.undecided = skipped
                return true
            }
            return false
        }
        if try judge(BisectContext(seq: 0, state: r.state, event: nil), before: nil) { return result }
        guard source.count > 0 else { return result }
        var found = false
        var expected: UInt64 = 1
        try source.read(from: 1, through: source.count) { e in
            guard e.seq == expected else { throw BisectError.missingEvent(seq: expected) }
            expected += 1
            let before = r.state
            r.apply(e.event)
            result.eventsFolded += 1
            found = try judge(BisectContext(seq: e.seq, state: r.state, event: e), before: before)
            return !found
        }
        if !found && expected <= source.count { throw BisectError.missingEvent(seq: expected) }
        if !found { result.undecided = skipped }
        return result
    }

    /// A state at `seq` from the nearest checkpoint, with the state before it when the fold
    /// passed through it.
    struct Materialized {
        var context: BisectContext
        var before: NavigationState?
        var folded: Int
    }

    static func materialize(_ source: some BisectSource, _ seq: UInt64) throws -> Materialized {
        let cp = try source.checkpoint(atOrBefore: seq)
        var r = Replayer(state: cp.state, seq: cp.seq)
        var before: NavigationState?
        var last: StoredEvent?
        var folded = 0
        if seq > cp.seq {
            var expected = cp.seq + 1
            try source.read(from: cp.seq + 1, through: seq) { e in
                guard e.seq == expected else { throw BisectError.missingEvent(seq: expected) }
                expected += 1
                if e.seq == seq { before = r.state }
                r.apply(e.event)
                folded += 1
                last = e
                return true
            }
            guard r.seq == seq else { throw BisectError.missingEvent(seq: r.seq + 1) }
        } else if seq > 0 {
            try source.read(from: seq, through: seq) { e in last = e; return false }
            guard last?.seq == seq else { throw BisectError.missingEvent(seq: seq) }
        }
        return Materialized(context: BisectContext(seq: seq, state: r.state, event: last), before: before, folded: folded)
    }

    static func binary(_ source: some BisectSource, _ verdict: (BisectContext) throws -> Verdict) throws -> Result {
        var result = Result(seq: nil, context: nil, stateBefore: nil, undecided: [], materialized: 0, eventsFolded: 0, evaluations: 0, mode: .binary)
        let n = source.count
        // Seqs up to `good` (inclusive; -1: none) are known good; `bad` is the lowest known bad.
        var good: Int64 = -1
        var bad: UInt64?
        var badProbe: Materialized?
        var skipped: [UInt64] = []

        func probe(_ seq: UInt64) throws -> Verdict {
            let m = try materialize(source, seq)
            result.materialized += 1
            result.eventsFolded += m.folded
            result.evaluations += 1
            let v = try verdict(m.context)
            switch v {
            case .good: good = Int64(seq)
            case .bad: bad = seq; badProbe = m
            case .skip: skipped.append(seq)
            }
            return v
        }

        /// The unskipped seq in `lo...hi` nearest `mid`, trying `mid`, `mid+1`, `mid-1`, `mid+2`, …
        func pick(_ lo: UInt64, _ hi: UInt64, _ mid: UInt64) -> UInt64? {
            var step: UInt64 = 0
            while step <= hi - lo {
                if mid + step <= hi, !skipped.contains(mid + step) { return mid + step }
                if step > 0, mid >= lo + step, !skipped.contains(mid - step) { return mid - step }
                step += 1
            }
            return nil
        }

        // Find a bad end first: the last seq (or the nearest one below it that is not skipped).
        while bad == nil {
            let lo = UInt64(good + 1)
            guard lo <= n, let seq = pick(lo, n, n) else { break }
            if try probe(seq) == .good { break }
        }
        // Then narrow (good, bad) down.
        while let b = bad, UInt64(good + 1) < b {
            let lo = UInt64(good + 1), hi = b - 1
            guard let seq = pick(lo, hi, lo + (hi - lo) / 2) else { break }
            _ = try probe(seq)
        }

        let upper = bad ?? UInt64.max
        result.undecided = skipped.filter { Int64($0) > good && $0 < upper }.sorted()
        guard let b = bad, let m = badProbe else { return result }
        result.seq = b
        result.context = m.context
        if b > 0 {
            if let before = m.before {
                result.stateBefore = before
            } else {
                let prev = try materialize(source, b - 1)
                result.materialized += 1
                result.eventsFolded += prev.folded
                result.stateBefore = prev.context.state
            }
        }
        return result
    }
}

/// Where a bisect gets its states: a count, checkpoints, and events by seq.
protocol BisectSource {
    var count: UInt64 { get }
    func checkpoint(atOrBefore seq: UInt64) throws -> Snapshot
    func read(from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws
}

@_spi(Tools) extension CheckpointedSession: BisectSource {
    func read(from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard from >= 1, from <= through, from <= count else { return }
        for i in Int(from - 1)..<Int(min(through, count)) {
            if try !body(events[i]) { return }
        }
    }
}

struct LogSource<Log: EventLog>: BisectSource {
    let log: Log
    let session: SessionID
    let count: UInt64

    func checkpoint(atOrBefore seq: UInt64) throws -> Snapshot {
        if let s = try log.snapshot(session, atOrBefore: seq), s.seq <= seq { return s }
        return Snapshot(seq: 0, state: NavigationState())
    }

    func read(from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        try log.read(session, from: from, through: through, body)
    }
}
