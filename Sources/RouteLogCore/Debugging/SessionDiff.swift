/// How two sessions differ: where their states first diverge, and how their event lists line up.
///
/// Build one with `between(_:_:)` from two sessions read from logs (`[StoredEvent]`) or from
/// steps (each event with the digest after it), or with ``between(events:_:)`` from two event
/// lists, replayed here.
///
/// - ``firstDivergence`` compares the digest after each event, seq by seq: it is the first seq
///   whose digests differ, or where one session has an event and the other has ended. It is
///   `nil` when both sessions have the same length and every digest agrees. Because every
///   stored event carries its digest, replaying a session with a changed reducer and diffing
///   against the stored one pinpoints the first event whose behaviour changed.
/// - ``alignment`` is a shortest edit script between the two event lists, compared by their
///   canonical JSON (metadata such as timestamps is ignored): events that match, events only in
///   the first session, events only in the second, and events that replaced one another.
///   It comes from Myers' algorithm and is a shortest script whenever the sessions differ by up
///   to about a thousand events; beyond that, each step of the search splits heuristically (as
///   GNU diff does), so the script stays valid but may not be shortest, and two unrelated
///   sessions of N events are aligned in about O(N · 512) steps rather than O(N²). The whole
///   search visits at most 2^26 diagonals (``SequenceDiff/defaultStepBudget``, a few tenths of a
///   second): sessions that differ by more than a few thousand events can reach that bound, and
///   then every part not yet searched is aligned by its common head and tail only, the rest
///   removed and inserted (paired as `changed`). ``searchStopped`` says so; the text and JSON
///   renderings name it.
@_spi(Tools) public struct SessionDiff: Hashable, Sendable {
    /// One event of a session, as the diff sees it.
    public struct Step: Hashable, Sendable {
        /// The event's seq in its session (1-based).
        public var seq: UInt64
        /// The event (its metadata is not compared).
        public var event: Event
        /// The digest of the state after the event.
        public var digest: Digest
        /// The reducer's outcome, when known.
        public var outcome: Outcome?

        /// A step from its parts.
        public init(seq: UInt64, event: Event, digest: Digest, outcome: Outcome? = nil) {
            self.seq = seq
            self.event = event
            self.digest = digest
            self.outcome = outcome
        }

        /// The step of a stored event.
        public init(_ stored: StoredEvent) {
            self.init(seq: stored.seq, event: stored.event, digest: stored.digest, outcome: stored.outcome)
        }
    }

    /// One entry of the alignment of two event lists, by seq.
    public enum Entry: Hashable, Sendable, CustomStringConvertible {
        /// The same event (equal canonical JSON) at `seqA` in the first session and `seqB` in the second.
        case same(UInt64, UInt64)
        /// An event only in the first session.
        case removed(UInt64)
        /// An event only in the second session.
        case inserted(UInt64)
        /// The event at `seqA` was replaced by a different event at `seqB`: a removal and an
        /// insertion at the same place.
        case changed(UInt64, UInt64)

        /// `same 3 3`, `removed 4`, `inserted 5`, `changed 6 6`.
        public var description: String {
            switch self {
            case .same(let a, let b): "same \(a) \(b)"
            case .removed(let a): "removed \(a)"
            case .inserted(let b): "inserted \(b)"
            case .changed(let a, let b): "changed \(a) \(b)"
            }
        }

        /// `{"op": "same", "a": 3, "b": 3}`; `removed` has only `a`, `inserted` only `b`.
        public var json: JSONValue {
            switch self {
            case .same(let a, let b): .object(["op": .string("same"), "a": Self.int(a), "b": Self.int(b)])
            case .removed(let a): .object(["op": .string("removed"), "a": Self.int(a)])
            case .inserted(let b): .object(["op": .string("inserted"), "b": Self.int(b)])
            case .changed(let a, let b): .object(["op": .string("changed"), "a": Self.int(a), "b": Self.int(b)])
            }
        }

        static func int(_ v: UInt64) -> JSONValue { .int(Int64(bitPattern: v)) }
    }

    /// The first session's events.
    public let a: [Step]
    /// The second session's events.
    public let b: [Step]
    /// The first seq at which the digests after the events differ, or at which only one session
    /// has an event; `nil` when both have the same length and all digests agree.
    public let firstDivergence: UInt64?
    /// The alignment of the two event lists, in order (see the type's discussion).
    public let alignment: [Entry]
    /// The first seq at which both sessions have an event with a known outcome and the outcomes
    /// differ (a rejection reason can change while the state, and so the digest, does not);
    /// `nil` when they agree. Not part of ``json``.
    public let firstOutcomeDivergence: UInt64?
    /// Whether the alignment's search reached its step budget (see the type's discussion): the
    /// alignment is then valid but not a shortest one.
    public let searchStopped: Bool

    /// Whether the sessions have the same events, the same digests and the same known outcomes.
    public var isEmpty: Bool {
        firstDivergence == nil && firstOutcomeDivergence == nil && alignment.allSatisfy { if case .same = $0 { true } else { false } }
    }

    /// Diffs two sessions read from logs (see ``EventLog/events(_:from:through:)``).
    public static func between(_ a: [StoredEvent], _ b: [StoredEvent]) -> SessionDiff {
        between(a.map(Step.init), b.map(Step.init))
    }

    /// Diffs two sessions given as steps (each event with the digest after it).
    public static func between(_ a: [Step], _ b: [Step]) -> SessionDiff {
        var first: UInt64?
        for i in 0..<max(a.count, b.count) {
            if i >= a.count || i >= b.count || a[i].digest != b[i].digest {
                first = i < a.count ? a[i].seq : b[i].seq
                break
            }
        }
        // Events are equal exactly when their canonical JSON is; comparing values is cheaper.
        let script = SequenceDiff.script(a.map(\.event), b.map(\.event))
        let ops = SequenceDiff.normalized(script.ops)
        var firstOutcome: UInt64?
        for i in 0..<min(a.count, b.count) {
            if let oa = a[i].outcome, let ob = b[i].outcome, oa != ob {
                firstOutcome = a[i].seq
                break
            }
        }
        return SessionDiff(a: a, b: b, firstDivergence: first, alignment: align(ops, a, b), firstOutcomeDivergence: firstOutcome,
                           searchStopped: script.budgetExhausted)
    }

    /// The steps of a fresh replay of `events` from the empty state (seqs from 1), with outcomes.
    public static func steps(replaying events: [Event]) -> [Step] {
        var r = Replayer()
        return events.map { e in
            let s = r.apply(e)
            return Step(seq: s.seq, event: e, digest: s.digest, outcome: s.outcome)
        }
    }

    /// Diffs a stored session against a fresh replay of its own events with the current reducer.
    ///
    /// ``firstDivergence`` is then the first event whose resulting state differs from the one
    /// recorded (the reducer's behaviour changed there, or the record is wrong), and
    /// ``firstOutcomeDivergence`` the first whose outcome differs. The alignment is all `same`.
    ///
    /// - Parameter stored: the whole session, from seq 1, in order.
    public static func againstReplay(_ stored: [StoredEvent]) -> SessionDiff {
        between(stored.map(Step.init), steps(replaying: stored.map(\.event)))
    }

    /// Diffs two event lists by replaying each from the empty state.
    public static func between(events a: [Event], _ b: [Event]) -> SessionDiff {
        between(steps(replaying: a), steps(replaying: b))
    }

    /// An alignment of two event lists given as ids, for sessions too long to hold as steps: the
    /// caller interns each event (equal ids exactly for equal events) and keeps what it needs.
    public struct IDAlignment: Sendable {
        let script: SequenceDiff.Script

        /// Aligns `a` and `b` as ``SessionDiff/between(_:_:)`` aligns events (same search, same
        /// step budget); seqs are positions from 1.
        public init(_ a: [Int], _ b: [Int]) {
            script = SequenceDiff.script(ids: a, b)
        }

        /// Whether the search reached its step budget (see ``SessionDiff/searchStopped``).
        public var searchStopped: Bool { script.budgetExhausted }

        /// Whether every entry is `same`.
        public var isAllSame: Bool { !script.ops.contains { if case .same = $0 { false } else { true } } }

        /// The entries in order, paired as ``SessionDiff/alignment`` pairs them.
        public func forEach(_ body: (Entry) -> Void) {
            SessionDiff.pair(script.ops, { UInt64($0 + 1) }, { UInt64($0 + 1) }, body)
        }
    }

    /// Turns an edit script into entries (see ``pair(_:_:_:_:)``).
    static func align(_ ops: [SequenceDiff.Op], _ a: [Step], _ b: [Step]) -> [Entry] {
        var out: [Entry] = []
        pair(ops, { a[$0].seq }, { b[$0].seq }) { out.append($0) }
        return out
    }

    /// The entries of an edit script, in order, with seqs from the indices; inside each run of
    /// edits, the k-th removal and the k-th insertion pair up as `changed`, and what is left over
    /// stays removed or inserted.
    static func pair(_ ops: [SequenceDiff.Op], _ seqA: (Int) -> UInt64, _ seqB: (Int) -> UInt64, _ body: (Entry) -> Void) {
        var dels: [Int] = []
        var ins: [Int] = []
        func flush() {
            let pairs = min(dels.count, ins.count)
            for k in 0..<pairs { body(.changed(seqA(dels[k]), seqB(ins[k]))) }
            for i in dels.dropFirst(pairs) { body(.removed(seqA(i))) }
            for j in ins.dropFirst(pairs) { body(.inserted(seqB(j))) }
            dels.removeAll(keepingCapacity: true)
            ins.removeAll(keepingCapacity: true)
        }
        for op in ops {
            switch op {
            case .same(let i, let j):
                flush()
                body(.same(seqA(i), seqB(j)))
            case .delete(let i): dels.append(i)
            case .insert(let j): ins.append(j)
            }
        }
        flush()
    }

    /// The diff as JSON: `{"firstDivergence": N | null, "digestA"?: …, "digestB"?: …,
    /// "alignment": [Entry], "searchStopped"?: true}` where `digestA`/`digestB` are the digests
    /// at the first divergence (left out for a session that has no event there); `searchStopped`
    /// is there only when ``searchStopped``.
    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "firstDivergence": firstDivergence.map(Entry.int) ?? .null,
            "alignment": .array(alignment.map(\.json)),
        ]
        if let d = firstDivergence {
            if let s = step(a, d) { o["digestA"] = .string(s.digest.hex) }
            if let s = step(b, d) { o["digestB"] = .string(s.digest.hex) }
        }
        if searchStopped { o["searchStopped"] = .bool(true) }
        return .object(o)
    }

    /// The line the text rendering adds when ``searchStopped``.
    public static let searchStoppedNote = "alignment not minimal: the sessions differ too much for a full search (2^26 steps); past that, only common runs at the ends of each part are matched"

    func step(_ steps: [Step], _ seq: UInt64) -> Step? {
        // Steps are usually numbered 1...n; fall back to a search otherwise.
        let i = Int(clamping: seq) - 1
        if steps.indices.contains(i), steps[i].seq == seq { return steps[i] }
        return steps.first { $0.seq == seq }
    }

    /// A readable rendering: a header line naming the first divergence (and one naming the first
    /// outcome divergence, if any), then the alignment with
    /// each event's canonical JSON: `  a3 b3  …` for a matching event, `- a4     …` for an event
    /// only in the first session, `+     b5  …` for one only in the second, and a `-`/`+` pair for
    /// a changed event. Runs of matching events farther than `context` from an edit collapse into
    /// `… (N unchanged)`.
    ///
    /// - Parameter context: how many matching events to keep around each edit (default 2).
    public func text(context: Int = 2) -> String {
        var out: [String] = []
        if let d = firstDivergence {
            let da = step(a, d).map { $0.digest.short } ?? "(ended)"
            let db = step(b, d).map { $0.digest.short } ?? "(ended)"
            out.append("first divergence at seq \(d): digest \(da) vs \(db)")
        } else {
            out.append("no divergence: \(a.count) events, same digests")
        }
        if let o = firstOutcomeDivergence, let sa = step(a, o)?.outcome, let sb = step(b, o)?.outcome {
            out.append("first outcome divergence at seq \(o): \(sa) vs \(sb)")
        }
        if searchStopped { out.append(SessionDiff.searchStoppedNote) }
        let width = String(max(a.last?.seq ?? 0, b.last?.seq ?? 0)).count + 1
        func col(_ prefix: String, _ seq: UInt64?) -> String {
            let s = seq.map { prefix + String($0) } ?? ""
            return s + String(repeating: " ", count: max(0, width - s.count))
        }
        func line(_ mark: String, _ sa: UInt64?, _ sb: UInt64?, _ event: Event) -> String {
            "\(mark) \(col("a", sa)) \(col("b", sb))  \(event.canonicalJSON)"
        }
        let show = SequenceDiff.shown(alignment, context: context) { if case .same = $0 { true } else { false } }
        var n = 0
        while n < alignment.count {
            if !show[n] {
                var end = n
                while end < alignment.count && !show[end] { end += 1 }
                out.append("  … (\(end - n) unchanged)")
                n = end
                continue
            }
            switch alignment[n] {
            case .same(let sa, let sb):
                out.append(line(" ", sa, sb, step(a, sa)!.event))
            case .removed(let sa):
                out.append(line("-", sa, nil, step(a, sa)!.event))
            case .inserted(let sb):
                out.append(line("+", nil, sb, step(b, sb)!.event))
            case .changed(let sa, let sb):
                out.append(line("-", sa, nil, step(a, sa)!.event))
                out.append(line("+", nil, sb, step(b, sb)!.event))
            }
            n += 1
        }
        return out.joined(separator: "\n")
    }
}
