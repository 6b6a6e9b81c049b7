/// The reproduction of one run of a session (a launch that crashed, say) as a fixture of its own:
/// events that build the state the run started from, then the run's own events, so that a replay
/// from an empty state ends on the screens the run ended on.
///
/// A `reset` cannot stand for the start (a reset's tokens must not name seqs after it), so the
/// start state is built the way an app would build it: each tab selected in turn, each stack
/// pushed, each presentation shown from the frame it sits on. Presentations are numbered by the
/// seq that shows them, so the run's events are renumbered to keep naming the same presentations
/// (as ``Minimize`` renumbers a subsequence).
public enum Reproduction {
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
    /// ends on the screens of `target` (the same ``ScreenLayout``): cut first at the first seq
    /// whose state has that layout, then delta debugging (ddmin) over the events, then pairs of
    /// neighbours dropped together (a push and its pop, a show and its dismiss: ddmin keeps either
    /// one alone) and ddmin again, until nothing more can go. Every event left is needed: dropping
    /// any one, or any neighbouring two, loses the screens. `nil` when no prefix reaches them.
    ///
    /// Each candidate is replayed, so the work grows with the square of the prefix: a prefix longer
    /// than `limit` events throws ``ShortestPathError/tooLong(events:limit:)`` rather than running for hours.
    public static func shortest(_ events: [RecordedEvent], reaching target: NavigationState,
                                limit: Int = shortestLimit) throws -> Minimize.Result<RecordedEvent>? {
        let layout = ScreenLayout(target)
        if ScreenLayout(NavigationState()) == layout { return Minimize.Result(elements: [], indices: [], predicateCalls: 0) }
        var r = Replayer()
        var cut: Int?
        for (i, e) in events.enumerated() {
            r.apply(e.event)
            if ScreenLayout(r.state) == layout { cut = i + 1; break }
        }
        guard let cut else { return nil }
        if cut > limit { throw ShortestPathError.tooLong(events: cut, limit: limit) }
        let reaches: ([Event]) -> Bool = { ScreenLayout(replay($0).state) == layout }
        // Tokens are seqs, so every candidate is taken from the prefix by `subsequence`, which
        // renumbers them: `indices` are positions in the prefix.
        let prefix = events[..<cut].map(\.event)
        var indices = Array(0..<cut)
        var calls = 0
        while true {
            let minimal = try Minimize.events(Minimize.subsequence(of: prefix, keeping: indices)) { reaches($0) }
            calls += minimal.predicateCalls
            indices = minimal.indices.map { indices[$0] }
            let current = Minimize.subsequence(of: prefix, keeping: indices)
            var dropped = false
            for i in 0..<max(0, indices.count - 1) {
                var keep = Array(0..<indices.count)
                keep.removeSubrange(i...i + 1)
                calls += 1
                if reaches(Minimize.subsequence(of: current, keeping: keep)) {
                    indices = keep.map { indices[$0] }
                    dropped = true
                    break
                }
            }
            if !dropped { break }
        }
        let kept = Minimize.subsequence(of: prefix, keeping: indices)
        let elements = zip(indices, kept).map { i, e in RecordedEvent(e, meta: events[i].meta) }
        return Minimize.Result(elements: elements, indices: indices, predicateCalls: calls)
    }
}

extension Reproduction {
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

extension Reproduction {
    /// The longest prefix ``shortest(_:reaching:limit:)`` minimizes by default.
    public static let shortestLimit = 10_000
}

/// Why no shortest path was searched for.
public enum ShortestPathError: Error, Hashable, Sendable, CustomStringConvertible {
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
