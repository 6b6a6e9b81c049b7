/// Folds events one at a time, as a ``Replayer`` does, while following each element of the state
/// (see ``Lifetime``). Feed it a session's events in order; read ``lifetimes`` at the end and
/// ``layout`` at any seq whose state is to be blamed.
@_spi(Tools) public struct LifetimeTracker: Sendable {
    public private(set) var state = NavigationState()
    public private(set) var seq: UInt64 = 0
    private var all: [Lifetime] = []
    private var rejected: [UInt64] = []
    /// Parallel to the state's roots: the element index of each tab, route and presentation.
    private var roots: [Blame.Root] = [Blame.Root(tab: nil, path: [], chain: [])]
    private var selection: Int?

    public init() {}

    /// Starts after `seq` at `state` (a part of a session that does not start at seq 1): the
    /// state's elements are taken as born at `seq`, put there by a reset, since the events that
    /// put them there are not followed.
    public init(state: NavigationState, seq: UInt64) {
        self.seq = seq
        self.state = state
        roots = adopt(state, .reset)
        selection = state.selectedTab.map { bear(tabLifetime(.selection, $0, .reset)) }
    }

    /// Every element so far.
    public var lifetimes: Lifetimes { Lifetimes(all: all, rejected: rejected, seq: seq) }

    /// The current state's elements, shaped as the state is.
    public var layout: Blame.Layout { Blame.Layout(selection: selection, roots: roots) }

    /// Applies the next event (its seq is `seq + 1`) and returns its outcome.
    @discardableResult
    public mutating func apply(_ event: Event) -> Outcome {
        seq += 1
        let seq = seq
        // Where the event acts, resolved against the state before it (as the reducer resolves it).
        var target: FrameRef.Resolved?
        var before: (hadTabs: Bool, ids: [String]) = (false, [])
        switch event {
        case .push(_, let frame), .pop(_, let frame), .popToRoot(let frame): target = state.resolve(frame)
        case .show(_, _, _, let placement):
            if case .in(let ref) = placement { target = state.resolve(ref) } else { target = state.top()?.top.loc }
        case .dismiss(.top), .interactiveDismiss: target = state.top()?.top.loc
        case .dismiss(.token(let token)): target = state.locate(token: token)
        case .dismiss(.all): target = state.rootLocation
        case .setTabs: before = (state.hasTabs, state.roots.map(\.id))
        case .selectTab, .reset: break
        }
        let outcome = state.apply(event, seq: seq)
        guard case .applied(let detail) = outcome else {
            rejected.append(seq)
            return outcome
        }
        let kind = event.kind
        switch event {
        case .push(let route, _):
            let loc = target!
            let index = withPath(loc) { $0.count }
            let i = born(.entry, route.id, loc, index: index, kind: kind)
            withPath(loc) { $0.append(i) }
        case .pop(let count, _):
            let gone = withPath(target!) { path in
                defer { path.removeLast(count) }
                return Array(path.suffix(count))
            }
            for i in gone { end(i, kind) }
        case .popToRoot:
            let gone = withPath(target!) { path in
                defer { path.removeAll() }
                return path
            }
            for i in gone { end(i, kind) }
        case .show(let route, let style, _, let placement):
            if detail == .updatedInPlace {
                let loc = target!
                all[roots[loc.tab].chain[loc.depth].presentation].updates.append(seq)
            } else {
                let loc = state.locate(token: seq)!
                removePresentations(tab: loc.tab, from: loc.depth, kind)
                var life = lifetime(.presentation, route.id, loc, kind: kind)
                life.style = style
                life.token = seq
                life.placement = placement
                all.append(life)
                roots[loc.tab].chain.append(Blame.Level(presentation: all.count - 1, path: []))
            }
        case .dismiss, .interactiveDismiss:
            let loc = target!
            removePresentations(tab: loc.tab, from: loc.depth, kind)
        case .setTabs(let ids, _):
            var next: [Blame.Root] = []
            next.reserveCapacity(ids.count)
            if before.hadTabs {
                for (j, id) in before.ids.enumerated() where !ids.contains(id) { endRoot(roots[j], kind) }
                for id in ids {
                    if let j = before.ids.lastIndex(of: id) { next.append(roots[j]) } else { next.append(newTab(id, kind)) }
                }
            } else {
                let selected = state.selectedTab!
                for id in ids {
                    var root = id == selected ? roots[0] : Blame.Root(tab: nil, path: [], chain: [])
                    root.tab = bear(tabLifetime(.tab, id, kind))
                    next.append(root)
                }
            }
            roots = next
        case .selectTab:
            break
        case .reset:
            for root in roots { endRoot(root, kind) }
            if let s = selection { end(s, kind); selection = nil }
            roots = adopt(state, kind)
        }
        if state.selectedTab != selection.map({ all[$0].routeID }) {
            if let s = selection { end(s, kind) }
            selection = state.selectedTab.map { bear(tabLifetime(.selection, $0, kind)) }
        }
        return outcome
    }

    // MARK: - Births and ends

    private func lifetime(_ k: Lifetime.Kind, _ id: String, _ loc: FrameRef.Resolved, index: Int? = nil, kind: Event.Kind) -> Lifetime {
        Lifetime(
            routeID: id, tab: state.hasTabs ? state.roots[loc.tab].id : nil, depth: loc.depth, start: seq, updates: [],
            index: index, token: nil, end: nil, frame: loc.ref, placement: nil, kind: k, style: nil, createdBy: kind, endedBy: nil
        )
    }

    private func tabLifetime(_ k: Lifetime.Kind, _ id: String, _ kind: Event.Kind) -> Lifetime {
        Lifetime(
            routeID: id, tab: id, depth: 0, start: seq, updates: [], index: nil, token: nil, end: nil, frame: .root,
            placement: nil, kind: k, style: nil, createdBy: kind, endedBy: nil
        )
    }

    private mutating func bear(_ life: Lifetime) -> Int {
        all.append(life)
        return all.count - 1
    }

    private mutating func born(_ k: Lifetime.Kind, _ id: String, _ loc: FrameRef.Resolved, index: Int?, kind: Event.Kind) -> Int {
        bear(lifetime(k, id, loc, index: index, kind: kind))
    }

    private mutating func end(_ i: Int, _ kind: Event.Kind) {
        all[i].end = seq
        all[i].endedBy = kind
    }

    private mutating func newTab(_ id: String, _ kind: Event.Kind) -> Blame.Root {
        Blame.Root(tab: bear(tabLifetime(.tab, id, kind)), path: [], chain: [])
    }

    /// Ends the presentation presented by the frame at `depth` of root `tab`, and all above it.
    private mutating func removePresentations(tab: Int, from depth: Int, _ kind: Event.Kind) {
        let chain = roots[tab].chain
        guard depth < chain.count else { return }
        for level in chain[depth...] {
            end(level.presentation, kind)
            for i in level.path { end(i, kind) }
        }
        roots[tab].chain.removeSubrange(depth...)
    }

    private mutating func endRoot(_ root: Blame.Root, _ kind: Event.Kind) {
        if let t = root.tab { end(t, kind) }
        for i in root.path { end(i, kind) }
        for level in root.chain {
            end(level.presentation, kind)
            for i in level.path { end(i, kind) }
        }
    }

    /// The stack of the frame at `loc`, mutated in place.
    private mutating func withPath<R>(_ loc: FrameRef.Resolved, _ body: (inout [Int]) -> R) -> R {
        loc.depth == 0 ? body(&roots[loc.tab].path) : body(&roots[loc.tab].chain[loc.depth - 1].path)
    }

    private mutating func stack(_ f: Frame, _ loc: FrameRef.Resolved, _ kind: Event.Kind) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(f.path.count)
        for (i, r) in f.path.enumerated() { out.append(born(.entry, r.id, loc, index: i, kind: kind)) }
        return out
    }

    /// Bears every element of a state a reset put in place, in tree order.
    private mutating func adopt(_ s: NavigationState, _ kind: Event.Kind) -> [Blame.Root] {
        var out: [Blame.Root] = []
        for (t, tab) in s.roots.enumerated() {
            var root = Blame.Root(tab: s.hasTabs ? bear(tabLifetime(.tab, tab.id, kind)) : nil, path: [], chain: [])
            root.path = stack(tab.root, s.presenterLocation(tab: t, depth: 0, presenter: 0), kind)
            var frame = tab.root, depth = 0, presenter: UInt64 = 0
            while let p = frame.presented {
                var life = lifetime(.presentation, p.route.id, s.presenterLocation(tab: t, depth: depth, presenter: presenter), kind: kind)
                life.style = p.style
                life.token = p.token
                let index = bear(life)
                let content = p.content ?? Frame()
                let path = stack(content, FrameRef.Resolved(tab: t, depth: depth + 1, ref: .presentation(p.token)), kind)
                root.chain.append(Blame.Level(presentation: index, path: path))
                guard p.content != nil else { break }
                frame = content
                depth += 1
                presenter = p.token
            }
            out.append(root)
        }
        return out
    }
}
