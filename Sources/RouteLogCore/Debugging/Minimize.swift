/// Errors from ``Minimize``.
@_spi(Tools) public enum MinimizeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The full input does not satisfy the failure predicate, so there is nothing to minimize.
    case inputDoesNotFail(count: Int)

    /// A one-line message.
    public var description: String {
        switch self {
        case .inputDoesNotFail(let n): "the input (\(n) events) does not fail the predicate, so it cannot be minimized"
        }
    }
}

/// Shrinks a failing event list to a small one that still fails: Zeller and Hildebrandt's
/// delta debugging (ddmin), followed by a pass that guarantees 1-minimality.
///
/// The result still fails, and removing any single element from it makes the failure go away
/// (for a deterministic predicate). The search is deterministic: the same input and predicate
/// give the same result and the same number of predicate calls. Each distinct subset is tested at
/// most once.
///
/// Events refer to presentations by token, and a token is the seq of the event that created the
/// presentation, so dropping an event shifts every later token. `events(_:renumberingTokens:failing:)`
/// therefore renumbers token references in each candidate by default (see
/// ``subsequence(of:keeping:renumberingTokens:)``): a swipe on the sheet created by event 40 still
/// names that sheet once events before it are gone.
@_spi(Tools) public enum Minimize {
    /// A minimized list.
    public struct Result<Element: Sendable>: Sendable {
        /// The 1-minimal failing list.
        public var elements: [Element]
        /// The positions in the input of the elements kept, ascending.
        public var indices: [Int]
        /// How many times the predicate was called (including the check of the full input).
        public var predicateCalls: Int
    }

    /// Minimizes any list with ddmin.
    ///
    /// - Parameters:
    ///   - items: the failing input.
    ///   - failing: true when a candidate list still shows the failure.
    /// - Returns: a 1-minimal sublist (order kept) for which `failing` is true.
    /// - Throws: ``MinimizeError/inputDoesNotFail(count:)`` when `failing(items)` is false, or what
    ///   `failing` throws.
    public static func ddmin<Element: Sendable>(_ items: [Element], failing: ([Element]) throws -> Bool) throws -> Result<Element> {
        let (kept, calls) = try indices(count: items.count) { idx in try failing(idx.map { items[$0] }) }
        return Result(elements: kept.map { items[$0] }, indices: kept, predicateCalls: calls)
    }

    /// Minimizes a list of events.
    ///
    /// - Parameters:
    ///   - events: the failing session's events, in order (event `i` has seq `i + 1`).
    ///   - renumberingTokens: rewrite token references in each candidate so they keep naming the
    ///     same presentations (default true); see ``subsequence(of:keeping:renumberingTokens:)``.
    ///   - failing: true when a candidate list still shows the failure.
    /// - Returns: the 1-minimal failing list, as `failing` saw it (renumbered when asked).
    /// - Throws: ``MinimizeError/inputDoesNotFail(count:)`` or what `failing` throws.
    public static func events(_ events: [Event], renumberingTokens: Bool = true, failing: ([Event]) throws -> Bool) throws -> Result<Event> {
        let (kept, calls) = try indices(count: events.count) { idx in
            try failing(subsequence(of: events, keeping: idx, renumberingTokens: renumberingTokens))
        }
        return Result(elements: subsequence(of: events, keeping: kept, renumberingTokens: renumberingTokens), indices: kept, predicateCalls: calls)
    }

    /// Minimizes recorded events; the predicate sees the events without metadata, and the result
    /// keeps each event's metadata.
    public static func events(_ recorded: [RecordedEvent], renumberingTokens: Bool = true, failing: ([Event]) throws -> Bool) throws -> Result<RecordedEvent> {
        let plain = recorded.map(\.event)
        let r = try events(plain, renumberingTokens: renumberingTokens, failing: failing)
        let elements = zip(r.indices, r.elements).map { i, e in RecordedEvent(e, meta: recorded[i].meta) }
        return Result(elements: elements, indices: r.indices, predicateCalls: r.predicateCalls)
    }

    /// The events at `indices` (ascending positions in `events`), as a session of their own.
    ///
    /// With `renumberingTokens`, every token an event names (a `dismiss` or `interactiveDismiss`
    /// token, a frame `.presentation(token)`, and the tokens inside a `reset` state) is rewritten:
    /// a token `T` that was created by the kept event at seq `T` becomes that event's new seq; a
    /// token whose creating event was dropped becomes `events.count + T`, which names nothing in
    /// the shorter session (so that reference fails as it would for a presentation that never
    /// appeared); token 0 and tokens above `events.count` are kept. With every event kept, the
    /// events are returned unchanged.
    ///
    /// - Precondition: `indices` are ascending, distinct positions in `events`.
    public static func subsequence(of events: [Event], keeping indices: [Int], renumberingTokens: Bool = true) -> [Event] {
        precondition(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 } && indices.allSatisfy(events.indices.contains),
                     "subsequence(of:keeping:) needs ascending, distinct positions within the events")
        let picked = indices.map { events[$0] }
        guard renumberingTokens, indices.count != events.count else { return picked }
        var newSeq = [UInt64](repeating: 0, count: events.count)
        for (n, i) in indices.enumerated() { newSeq[i] = UInt64(n + 1) }
        let total = UInt64(events.count)
        let map: (UInt64) -> UInt64 = { t in
            guard t >= 1, t <= total else { return t }
            let s = newSeq[Int(t - 1)]
            return s != 0 ? s : total + t
        }
        return picked.map { renumber($0, map) }
    }

    // MARK: - ddmin

    /// ddmin over the positions `0..<count`; returns the kept positions and the number of calls.
    static func indices(count: Int, test: ([Int]) throws -> Bool) throws -> (kept: [Int], calls: Int) {
        // Keyed by a stable 128-bit hash of the subset, so the cache stays small on long inputs.
        var cache: [Digest: Bool] = [:]
        var calls = 0
        func fails(_ c: [Int]) throws -> Bool {
            var h = StableHasher()
            h.combine(UInt64(c.count))
            for i in c { h.combine(UInt64(i)) }
            let key = h.finalize()
            if let known = cache[key] { return known }
            calls += 1
            let r = try test(c)
            cache[key] = r
            return r
        }
        var c = Array(0..<count)
        guard try fails(c) else { throw MinimizeError.inputDoesNotFail(count: count) }
        var n = 2
        while c.count >= 2 {
            let chunks = split(c, into: n)
            var reduced = false
            for chunk in chunks where try fails(chunk) {
                c = chunk
                n = 2
                reduced = true
                break
            }
            if !reduced && n > 2 {
                for k in chunks.indices {
                    let complement = chunks.enumerated().filter { $0.offset != k }.flatMap(\.element)
                    if try fails(complement) {
                        c = complement
                        n = max(n - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if n >= c.count { break }
                n = min(n * 2, c.count)
            }
        }
        // 1-minimality: no single removal (down to the empty list) may still fail.
        var changed = true
        while changed {
            changed = false
            for k in c.indices {
                var candidate = c
                candidate.remove(at: k)
                if try fails(candidate) {
                    c = candidate
                    changed = true
                    break
                }
            }
        }
        return (c, calls)
    }

    /// `items` cut into `n` contiguous chunks whose sizes differ by at most one (larger first).
    static func split(_ items: [Int], into n: Int) -> [[Int]] {
        let n = max(1, min(n, items.count))
        let base = items.count / n, extra = items.count % n
        var out: [[Int]] = []
        var start = 0
        for k in 0..<n {
            let size = base + (k < extra ? 1 : 0)
            out.append(Array(items[start..<(start + size)]))
            start += size
        }
        return out
    }

    // MARK: - Token renumbering

    static func renumber(_ event: Event, _ map: (UInt64) -> UInt64) -> Event {
        func frame(_ f: FrameRef?) -> FrameRef? {
            if case .presentation(let t)? = f { return .presentation(map(t)) }
            return f
        }
        switch event {
        case .push(let route, let f): return .push(route, frame: frame(f))
        case .pop(let count, let f): return .pop(count: count, frame: frame(f))
        case .popToRoot(let f): return .popToRoot(frame: frame(f))
        case .show(let route, let style, let dismissible, let placement):
            if case .in(let f) = placement { return .show(route, style: style, dismissible: dismissible, placement: .in(frame(f)!)) }
            return event
        case .dismiss(.token(let t)): return .dismiss(.token(map(t)))
        case .dismiss: return event
        case .interactiveDismiss(let t): return .interactiveDismiss(token: t.map(map))
        case .setTabs, .selectTab: return event
        case .reset(let state): return .reset(renumber(state, map))
        }
    }

    static func renumber(_ state: NavigationState, _ map: (UInt64) -> UInt64) -> NavigationState {
        func frame(_ f: Frame) -> Frame {
            guard var p = f.presented else { return f }
            p.token = map(p.token)
            p.content = p.content.map(frame)
            var out = f
            out.presented = p
            return out
        }
        var s = state
        s.roots = state.roots.map { Tab(id: $0.id, root: frame($0.root)) }
        if s.roots.indices.contains(s.selectedIndex) { s.digestSum = Digest.terms(of: s) }
        return s
    }
}
