/// The reproduction of one run of a session (a launch that crashed, say) as a fixture of its own:
/// events that build the state the run started from, then the run's own events, so that a replay
/// from an empty state ends on the screens the run ended on.
///
/// A `reset` cannot stand for the start (a reset's tokens must not name seqs after it), so the
/// start state is built the way an app would build it: each tab selected in turn, each stack
/// pushed, each presentation shown from the frame it sits on. Presentations are numbered by the
/// seq that shows them, so the run's events are renumbered to keep naming the same presentations
/// (as ``Minimize`` renumbers a subsequence).
@_spi(Tools) public enum Reproduction {
    /// Events that build `state` from an empty state, and the token each presentation of `state`
    /// gets in them (by its token in `state`). Their replay has the layout of `state`
    /// (``ScreenLayout``); `nil` when it would not (a state the reducer cannot build by calls).
    public static func building(_ state: NavigationState) -> (events: [Event], tokens: [UInt64: UInt64])? {
        var events: [Event] = []
        var tokens: [UInt64: UInt64] = [:]
        func build(_ frame: Frame, in ref: FrameRef) {
            for route in frame.path { events.append(.push(route, frame: ref)) }
            guard let p = frame.presented else { return }
            events.append(.show(p.route, style: p.style, dismissible: p.dismissible, placement: .in(ref)))
            let token = UInt64(events.count)
            tokens[p.token] = token
            if let content = p.content { build(content, in: .presentation(token)) }
        }
        if let tabs = state.tabs {
            events.append(.setTabs(tabs.map(\.id), selected: state.selectedTab))
            for tab in tabs where tab.root != Frame() {
                events.append(.selectTab(tab.id))
                build(tab.root, in: .root)
            }
            if let selected = state.selectedTab, events.count > 1 { events.append(.selectTab(selected)) }
        } else {
            build(state.root, in: .root)
        }
        let built = replay(events)
        guard built.steps.allSatisfy(\.outcome.isApplied), ScreenLayout(built.state) == ScreenLayout(state) else { return nil }
        return (events, tokens)
    }

    /// The fixture of a run: the events that build `start` (the state after seq `firstSeq - 1`,
    /// with origin `system` and a note saying so), then `run` (the events from `firstSeq` on, their
    /// tokens renumbered), and an expect block replayed now. `nil` when `start` cannot be built
    /// (see ``building(_:)``).
    public static func fixture(name: String, description: String, session: Fixture.SessionHeader?,
                               start: NavigationState, firstSeq: UInt64, run: [RecordedEvent]) -> Fixture? {
        guard let (setup, tokens) = building(start) else { return nil }
        let offset = UInt64(setup.count)
        let total = offset + UInt64(run.count)
        // Tokens of the start state's presentations name their new shows; tokens made in the run
        // shift with it; any other (a presentation gone before the run) names nothing.
        let map: (UInt64) -> UInt64 = { t in
            if let new = tokens[t] { return new }
            if t >= firstSeq { return t - firstSeq + 1 + offset }
            return t == 0 ? 0 : total + t
        }
        let note = "rebuilds the state after seq \(firstSeq - 1), where the run starts"
        let events = setup.map { RecordedEvent($0, meta: EventMetadata(origin: .system, note: note)) }
            + run.map { RecordedEvent(Minimize.renumber($0.event, map), meta: $0.meta) }
        return Fixture(name: name, description: description, session: session, events: events,
                       expect: Fixture.Expectation(replay(events.map(\.event))))
    }

    /// The shortest list of `events` (a session from its start state, the empty one) whose replay
    /// ends on the screens of `target`, as ``shortestPath(_:reaching:limit:budget:progress:)``
    /// finds it with its default budget; `nil` when no prefix reaches them.
    public static func shortest(_ events: [RecordedEvent], reaching target: NavigationState,
                                limit: Int = shortestLimit) throws -> Minimize.Result<RecordedEvent>? {
        try shortestPath(events, reaching: target, limit: limit)?.result
    }

    /// A shortest path and whether its search ran to its end.
    public struct ShortestPath: Sendable {
        /// The events (renumbered as a session of their own), their positions in the session, and
        /// how many candidate lists were replayed.
        public var result: Minimize.Result<RecordedEvent>
        /// `false` when the search stopped at its budget: the events then reach the screens, but
        /// fewer might.
        public var complete: Bool
        /// The work done, in events folded (what the budget counts).
        public var folds: Int
    }

    /// The shortest list of `events` (a session from its start state, the empty one) whose replay
    /// ends on the screens of `target` (the same ``ScreenLayout``), in two steps:
    ///
    /// 1. Cut at the first seq whose state has that layout, then one pass over the states the
    ///    session went through: whenever a state comes back (the same digest: a push and its pop,
    ///    a show and its dismiss, a detour through other tabs), the events between are not needed.
    ///    The fewest events from the start to each state seen, each state reached by the event
    ///    after an earlier visit of the state before it, is a shortest path through the states the
    ///    session visited; the pass folds each event once.
    /// 2. That path is then reduced further by delta debugging (ddmin) and by dropping pairs of
    ///    neighbours, until every event left is needed (dropping any one, or any neighbouring two,
    ///    loses the screens), unless its length already equals the least a path can have (each
    ///    `push` adds one route and each `show` one presentation, when no `reset` can add more).
    ///
    /// Step 2 replays candidates, so it is bounded by `budget`: at most that many events folded in
    /// all (a count, not a time, so the answer is the same on every machine). When the budget runs
    /// out, the shortest list found so far is the answer, with ``ShortestPath/complete`` false.
    /// `progress` is called now and then with the folds done and the budget.
    ///
    /// `nil` when no prefix reaches the screens; a prefix longer than `limit` events throws
    /// ``ShortestPathError/tooLong(events:limit:)``.
    public static func shortestPath(_ events: [RecordedEvent], reaching target: NavigationState, limit: Int = shortestLimit,
                                    budget: Int = shortestBudget,
                                    progress: ((_ folds: Int, _ budget: Int) -> Void)? = nil) throws -> ShortestPath? {
        let layout = ScreenLayout(target)
        if ScreenLayout(NavigationState()) == layout {
            return ShortestPath(result: Minimize.Result(elements: [], indices: [], predicateCalls: 0), complete: true, folds: 0)
        }
        // Step 1: one fold of the prefix, keeping the fewest events to each state (by digest).
        var r = Replayer()
        var cut: Int?
        // Nodes of the paths found: the event taken (a position) and the node before it (-1: none).
        var nodes: [(event: Int, parent: Int, length: Int)] = []
        var best: [Digest: Int] = [:]   // digest → node (-1 for the start state)
        best[r.state.digest] = -1
        var folds = 0
        for (i, e) in events.enumerated() {
            if i >= limit {
                // Only whether the screens are reached later matters now, for the error.
                r.apply(e.event)
                if mayShow(r.state, target), ScreenLayout(r.state) == layout { throw ShortestPathError.tooLong(events: i + 1, limit: limit) }
                continue
            }
            let before = r.state.digest
            r.apply(e.event)
            folds += 1
            let from = best[before] ?? -1
            let length = (from < 0 ? 0 : nodes[from].length) + 1
            let after = r.state.digest
            if let known = best[after], known < 0 || nodes[known].length <= length {
                // Reached before with no more events.
            } else {
                nodes.append((i, from, length))
                best[after] = nodes.count - 1
            }
            if mayShow(r.state, target), ScreenLayout(r.state) == layout { cut = i + 1; break }
        }
        guard let cut else { return nil }
        let prefix = events[..<cut].map(\.event)
        var indices: [Int] = []
        var node = best[r.state.digest] ?? -1
        while node >= 0 { indices.append(nodes[node].event); node = nodes[node].parent }
        indices.reverse()
        let reaches: ([Event]) -> Bool = { ScreenLayout(replay($0).state) == layout }
        // A digest collision could join two different states: the path is checked, and the cut
        // prefix (which reaches the screens) stands in for one that does not.
        folds += indices.count
        if !reaches(Minimize.subsequence(of: prefix, keeping: indices)) { indices = Array(0..<cut) }

        // Step 2: ddmin and pairs over the path, within the budget.
        var complete = true
        var calls = 1
        let canAdd = !prefix.contains { if case .reset = $0 { true } else { false } }
        if !(canAdd && indices.count <= leastEvents(layout, tabs: target.tabs != nil)) {
            var search = BudgetedSearch(prefix: prefix, reaches: reaches, budget: budget, folds: folds, progress: progress)
            do {
                indices = try search.reduce(indices)
            } catch is BudgetedSearch.OutOfBudget {
                indices = search.best ?? indices
                complete = false
            }
            folds = search.folds
            calls += search.calls
        }
        let kept = Minimize.subsequence(of: prefix, keeping: indices)
        let elements = zip(indices, kept).map { i, e in RecordedEvent(e, meta: events[i].meta) }
        return ShortestPath(result: Minimize.Result(elements: elements, indices: indices, predicateCalls: calls),
                            complete: complete, folds: folds)
    }

    /// Whether `state` can have the layout of `target`, by what costs no walk of a stack: the same
    /// tabs, the same selection, stacks as deep at their roots and presentations at the same roots.
    /// (A `ScreenLayout` copies every stack; this keeps a fold of a deep session linear.)
    static func mayShow(_ state: NavigationState, _ target: NavigationState) -> Bool {
        guard state.selectedTab == target.selectedTab else { return false }
        func same(_ a: Frame, _ b: Frame) -> Bool { a.path.count == b.path.count && (a.presented == nil) == (b.presented == nil) }
        switch (state.tabs, target.tabs) {
        case (nil, nil): return same(state.root, target.root)
        case let (a?, b?): return a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id && same($0.root, $1.root) }
        default: return false
        }
    }

    /// The fewest events that can build `layout` without a `reset`: one `push` a route and one
    /// `show` a presentation, and a `setTabs` when it has tabs.
    static func leastEvents(_ layout: ScreenLayout, tabs: Bool) -> Int {
        layout.tabs.reduce(tabs ? 1 : 0) { n, tab in
            tab.levels.reduce(n) { $0 + $1.path.count + ($1.presented == nil ? 0 : 1) }
        }
    }

    /// Step 2 of ``shortestPath(_:reaching:limit:budget:progress:)``: ddmin and pair drops over
    /// positions in `prefix`, each candidate replayed and counted against the budget.
    struct BudgetedSearch {
        struct OutOfBudget: Error {}
        let prefix: [Event]
        let reaches: ([Event]) -> Bool
        let budget: Int
        var folds: Int
        let progress: ((Int, Int) -> Void)?
        var calls = 0
        /// The shortest candidate seen that reaches the screens.
        var best: [Int]?
        private var lastReport = 0

        init(prefix: [Event], reaches: @escaping ([Event]) -> Bool, budget: Int, folds: Int, progress: ((Int, Int) -> Void)?) {
            self.prefix = prefix
            self.reaches = reaches
            self.budget = budget
            self.folds = folds
            self.progress = progress
        }

        /// Whether the events at `candidate` (positions in the prefix) reach the screens.
        mutating func test(_ candidate: [Int]) throws -> Bool {
            // A candidate costs its own events and the renumbering of the list it is taken from.
            let cost = candidate.count + 1
            if folds + cost > budget { throw OutOfBudget() }
            folds += cost
            calls += 1
            if folds - lastReport >= 1_000_000 { lastReport = folds; progress?(folds, budget) }
            let ok = reaches(Minimize.subsequence(of: prefix, keeping: candidate))
            if ok, candidate.count < (best?.count ?? Int.max) { best = candidate }
            return ok
        }

        /// `start` (which reaches the screens) reduced until no event, and no two neighbours, can go.
        mutating func reduce(_ start: [Int]) throws -> [Int] {
            var indices = start
            best = start
            while true {
                let current = indices
                let (kept, _) = try Minimize.indices(count: current.count) { idx in try test(idx.map { current[$0] }) }
                indices = kept.map { current[$0] }
                var dropped = false
                for i in 0..<max(0, indices.count - 1) {
                    var candidate = indices
                    candidate.removeSubrange(i...i + 1)
                    if try test(candidate) {
                        indices = candidate
                        dropped = true
                        break
                    }
                }
                if !dropped { return indices }
            }
        }
    }
}

@_spi(Tools) extension Reproduction {
    /// The fixture of `run` of the session `info` in `log`: ``fixture(name:description:session:start:firstSeq:run:)``
    /// of its events up to `lastSeq` (the run's last event), or, when its start state cannot be
    /// built by calls, the session's events from seq 1 to `lastSeq`. Its description says which
    /// run of which session, how the run ended and which events rebuild the start.
    public static func fixture(of run: RunInfo, lastSeq: UInt64, session info: SessionInfo, in log: any EventLog,
                               name: String) throws -> Fixture {
        let header = Fixture.SessionHeader(label: info.label, app: info.appName, appVersion: run.appVersion ?? info.appVersion,
                                           created: info.createdAt)
        var what = "Run \(run.number) of session \(info.id.rawValue)"
        if let v = run.appVersion { what += " (app \(v)" + (run.build.map { ", build \($0)" } ?? "") + ")" }
        what += ", seqs \(run.firstSeq)…\(lastSeq); the run ended \(run.end.name)."
        let events = try log.events(info.id, from: run.firstSeq, through: lastSeq).map(\.recorded)
        let start = try log.state(of: info.id, at: run.firstSeq - 1)
        if let built = fixture(name: name, description: what, session: header, start: start, firstSeq: run.firstSeq, run: events) {
            let setup = built.events.count - events.count
            if setup > 0 {
                var doc = built
                doc.description += " Its first \(setup) event\(setup == 1 ? "" : "s") (origin system) rebuild the state the run started from."
                return doc
            }
            return built
        }
        let all = try log.events(info.id, from: 1, through: lastSeq).map(\.recorded)
        return Fixture(name: name, description: what + " The session's events from seq 1 (its start state cannot be built by calls).",
                       session: header, events: all, expect: Fixture.Expectation(replay(all.map(\.event))))
    }
}

@_spi(Tools) extension Reproduction {
    /// The longest prefix ``shortest(_:reaching:limit:)`` minimizes by default.
    public static let shortestLimit = 10_000
    /// The events ``shortestPath(_:reaching:limit:budget:progress:)`` folds at most by default
    /// (a few seconds of work).
    public static let shortestBudget = 5_000_000
}

/// Why no shortest path was searched for.
@_spi(Tools) public enum ShortestPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The session reaches the screens only after `events` events, more than `limit`.
    case tooLong(events: Int, limit: Int)

    public var description: String {
        switch self {
        case .tooLong(let events, let limit):
            "the session reaches these screens only after \(events) events; the shortest path is searched in at most \(limit)"
        }
    }
}

extension Array where Element == RunInfo {
    /// The last seq of `run`, one of these runs (oldest first) of a session whose last seq is
    /// `head`: a crashed run's recorded last seq, else the seq before the next run's first, else `head`.
    public func lastSeq(of run: RunInfo, head: UInt64) -> UInt64 {
        if case .crashed(_, let last) = run.end { return Swift.min(last, head) }
        if let next = first(where: { $0.number > run.number }) { return next.firstSeq - 1 }
        return head
    }
}
