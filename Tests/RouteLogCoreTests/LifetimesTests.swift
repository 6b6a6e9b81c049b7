import Testing
@_spi(Tools) @testable import RouteLogCore

/// `Lifetimes` and `Blame` (one pass) against a naive recomputation that keeps every state of the
/// session and follows each element from state to state by what it is and where it stands.
@Suite struct LifetimesTests {
    /// An element as the naive recomputation names it: by kind, place and id.
    enum Key: Hashable {
        case tab(String)
        case selection(String)
        /// A route at `index` of the stack of the root (`frame` 0) or of presentation `frame`'s content.
        case entry(tab: String?, frame: UInt64, index: Int, id: String)
        case presentation(tab: String?, token: UInt64, id: String)

        var kind: Lifetime.Kind {
            switch self {
            case .tab: .tab
            case .selection: .selection
            case .entry: .entry
            case .presentation: .presentation
            }
        }

        func moved(toTab tab: String?) -> Key {
            switch self {
            case .entry(nil, let f, let i, let id): .entry(tab: tab, frame: f, index: i, id: id)
            case .presentation(nil, let t, let id): .presentation(tab: tab, token: t, id: id)
            default: self
            }
        }
    }

    /// A state's elements in tree order: the selection, then per root its tab, stack and chain.
    static func elements(_ s: NavigationState) -> [Key] {
        var out: [Key] = []
        if let sel = s.selectedTab { out.append(.selection(sel)) }
        let roots = s.tabs ?? [Tab(id: "", root: s.root)]
        for t in roots {
            let tab: String? = s.hasTabs ? t.id : nil
            if s.hasTabs { out.append(.tab(t.id)) }
            for (i, r) in t.root.path.enumerated() { out.append(.entry(tab: tab, frame: 0, index: i, id: r.id)) }
            var frame = t.root
            while let p = frame.presented {
                out.append(.presentation(tab: tab, token: p.token, id: p.route.id))
                guard let c = p.content else { break }
                for (i, r) in c.path.enumerated() { out.append(.entry(tab: tab, frame: p.token, index: i, id: r.id)) }
                frame = c
            }
        }
        return out
    }

    struct Interval: Hashable, CustomStringConvertible {
        var key: Key
        /// Every key it had (a root's elements move into a tab when tabs appear).
        var keys: [Key] = []
        var start: UInt64
        var end: UInt64?
        var updates: [UInt64] = []
        var description: String { "\(key) \(start)...\(end.map(String.init) ?? "-") updates \(updates)" }
    }

    /// The presentation a show updated in place, read off the state before it.
    static func updatedToken(_ e: Event, before s: NavigationState) -> UInt64? {
        guard case .show(_, _, _, let placement) = e else { return nil }
        switch placement {
        case .in(.root): return s.root.presented?.token
        case .in(.presentation(let t)): return s.frame(.presentation(t))?.presented?.token
        default: return s.topPresentation?.token
        }
    }

    /// Every element's interval, following keys from each state to the next.
    static func naive(_ events: [Event]) -> (intervals: [Interval], states: [NavigationState]) {
        var states = [NavigationState()]
        var outcomes: [Outcome] = []
        var s = NavigationState()
        for (i, e) in events.enumerated() {
            outcomes.append(s.apply(e, seq: UInt64(i + 1)))
            states.append(s)
        }
        var intervals: [Interval] = []
        var open: [Key: Int] = [:]
        for k in 1..<states.count {
            let a = states[k - 1], b = states[k], e = events[k - 1], seq = UInt64(k)
            let present = Set(Self.elements(b))
            var next: [Key: Int] = [:]
            let isReset = outcomes[k - 1].isApplied && e.kind == .reset
            let updated = outcomes[k - 1] == .applied(.updatedInPlace) ? updatedToken(e, before: a) : nil
            for (key, i) in open {
                let moved = !a.hasTabs && b.hasTabs ? key.moved(toTab: b.selectedTab) : key
                if isReset || !present.contains(moved) {
                    intervals[i].end = seq
                } else {
                    if case .presentation(_, let t, _) = key, t == updated { intervals[i].updates.append(seq) }
                    intervals[i].key = moved
                    intervals[i].keys.append(moved)
                    next[moved] = i
                }
            }
            for key in Self.elements(b) where next[key] == nil {
                intervals.append(Interval(key: key, keys: [key], start: seq))
                next[key] = intervals.count - 1
            }
            open = next
        }
        return (intervals, states)
    }

    static func describe(_ l: Lifetime) -> String {
        "\(l.kind) \(l.routeID) \(l.start)...\(l.end.map(String.init) ?? "-") updates \(l.updates)"
            + (l.index.map { " at \($0)" } ?? "") + (l.token.map { " #\($0)" } ?? "")
    }

    static func describe(_ i: Interval) -> String {
        let (id, extra): (String, String) = switch i.key {
        case .tab(let t), .selection(let t): (t, "")
        case .entry(_, _, let index, let id): (id, " at \(index)")
        case .presentation(_, let token, let id): (id, " #\(token)")
        }
        return "\(i.key.kind) \(id) \(i.start)...\(i.end.map(String.init) ?? "-") updates \(i.updates)\(extra)"
    }

    static let sessions: [(UInt64, SessionGenerator.Mix)] = [(1, .realistic), (2, .realistic), (3, .adversarial), (4, .adversarial), (0xBEEF, .adversarial)]

    @Test(arguments: 0..<5)
    func lifetimesMatchTheNaiveRecomputation(_ n: Int) {
        let (seed, mix) = Self.sessions[n]
        var g = SessionGenerator(seed: seed, mix: mix)
        let events = g.events(mix == .realistic ? 1500 : 800)
        let fast = Lifetimes(events: events)
        let (intervals, _) = Self.naive(events)
        #expect(fast.all.map(Self.describe).sorted() == intervals.map(Self.describe).sorted(), "seed \(seed) \(mix)")
        #expect(fast.all.contains { $0.kind == .presentation && !$0.updates.isEmpty } || mix == .adversarial, "seed \(seed): no update in place was exercised")
        #expect(fast.all.contains { $0.createdBy == .reset } || mix == .realistic, "seed \(seed): no reset was exercised")
        #expect(fast.seq == UInt64(events.count))
        var s = NavigationState()
        let rejected = events.enumerated().compactMap { i, e in s.apply(e, seq: UInt64(i + 1)).isApplied ? nil : UInt64(i + 1) }
        #expect(fast.rejected == rejected)
    }

    @Test(arguments: 0..<5)
    func blameMatchesTheNaiveRecomputation(_ n: Int) {
        let (seed, mix) = Self.sessions[n]
        var g = SessionGenerator(seed: seed, mix: mix)
        let events = g.events(600)
        let (intervals, states) = Self.naive(events)
        var rng = SplitMix64(seed: seed)
        let seqs: [UInt64] = [0, 1, UInt64(events.count)] + (0..<8).map { _ in rng.next() % UInt64(events.count) }
        for seq in seqs {
            let blame = Blame(events: events, at: seq)
            #expect(blame.state == states[Int(seq)])
            var fast: [String] = []
            let layout = blame.layout
            func line(_ i: Int) -> String {
                let l = blame[i]
                return "\(l.kind) \(l.routeID) put \(blame.put(i)) removed \(l.end.map(String.init) ?? "-")"
            }
            if let s = layout.selection { fast.append(line(s)) }
            for root in layout.roots {
                if let t = root.tab { fast.append(line(t)) }
                fast += root.path.map(line)
                for level in root.chain { fast.append(line(level.presentation)); fast += level.path.map(line) }
            }
            let naive: [String] = Self.elements(states[Int(seq)]).map { key in
                guard let i = intervals.last(where: { $0.keys.contains(key) && $0.start <= seq && ($0.end ?? .max) > seq }) else {
                    Issue.record("seed \(seed) at \(seq): no interval holds \(key): \(intervals.filter { $0.key == key })")
                    return "?"
                }
                let put = ([i.start] + i.updates.filter { $0 <= seq }).max()!
                let id: String = switch key {
                case .tab(let t), .selection(let t): t
                case .entry(_, _, _, let id), .presentation(_, _, let id): id
                }
                return "\(key.kind) \(id) put \(put) removed \(i.end.map(String.init) ?? "-")"
            }
            #expect(fast == naive, "seed \(seed) \(mix) at seq \(seq)")
        }
    }

    @Test func aHandWrittenSessionNamesEachCause() {
        let events: [Event] = [
            .setTabs(["home", "cart"]),                                   // 1
            .push(RouteRef(id: "list")),                                  // 2
            .push(RouteRef(id: "detail")),                                // 3
            .show(RouteRef(id: "checkout"), style: .fullScreenCover),     // 4
            .push(RouteRef(id: "address")),                               // 5
            .show(RouteRef(id: "checkout"), style: .fullScreenCover, dismissible: false, placement: .in(.root)), // 6: in place
            .pop(),                                                       // 7: pops address
            .selectTab("cart"),                                           // 8
            .dismiss(.all),                                               // 9: nothing in cart: rejected
            .selectTab("home"),                                           // 10
            .dismiss(.all),                                               // 11: removes checkout
        ]
        let blame = Blame(events: events, at: 6)
        let home = blame.layout.roots[0]
        #expect(home.path.map { blame[$0].start } == [2, 3])
        let cover = blame[home.chain[0].presentation]
        #expect(cover.start == 4 && cover.lastChange == 6 && cover.updates == [6] && cover.end == 11 && cover.endedBy == .dismiss)
        #expect(blame[home.chain[0].path[0]].end == 7)
        #expect(blame[blame.layout.selection!].routeID == "home" && blame[blame.layout.selection!].end == 8)
        #expect(blame.lifetimes.rejected == [9])
        #expect(blame.lifetimes.all.filter { $0.kind == .selection }.map(\.start) == [1, 8, 10])
        // Blamed before its update, the cover was put there by its show.
        let early = Blame(events: events, at: 5)
        #expect(early.put(early.layout.roots[0].chain[0].presentation) == 4)
    }
}
