/// One element of a session's state over its whole life: a screen (a route on a path, a
/// presentation), a tab, or the selection of a tab.
///
/// An element is *born* by the event that put it there (a push, a show, a `setTabs`, a
/// `selectTab`, a reset) and *ends* with the event that took it away (a pop, a dismiss, a swipe, a
/// replacing show, a `setTabs` that drops its tab, a reset). A presentation updated in place by a
/// `show` of the same id and style keeps its life; the update's seq is added to ``updates``.
/// A reset ends every element and bears every element of its state anew, even one it leaves as it was.
public struct Lifetime: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A tab (``routeID`` is the tab id).
        case tab
        /// The selection of a tab (``routeID`` is the selected tab's id).
        case selection
        /// A route on a navigation stack.
        case entry
        /// A presentation: a sheet, cover, popover, alert or dialog.
        case presentation
    }

    // Stored widest first, so that a million of them pack without padding between the optionals.
    /// The route's id (the tab's id for tabs and the selection).
    public var routeID: String
    /// The tab it lives in when it is born; `nil` without tabs.
    public var tab: String?
    /// How many presentations lie between the root and ``frame`` (0: a root frame). A presentation's
    /// level in its chain is `depth + 1`.
    public var depth: Int
    /// The seq of the event that put it there (its kind is ``createdBy``).
    public var start: UInt64
    /// The seqs of the shows that updated it in place, in order.
    public var updates: [UInt64]
    /// An entry's position on its stack (0 at the bottom).
    public var index: Int?
    /// A presentation's token (its style is ``style``, its placement ``placement``).
    public var token: UInt64?
    /// The seq of the event that took it away, if any did (its kind is ``endedBy``).
    public var end: UInt64?
    /// The frame it lives in: an entry's stack, or the frame a presentation is presented from.
    public var frame: FrameRef
    /// A presentation's placement (`nil` when a reset made it).
    public var placement: Placement?
    public var kind: Kind
    /// A presentation's style.
    public var style: PresentationStyle?
    /// The kind of the event that put it there.
    public var createdBy: Event.Kind
    /// The kind of the event that took it away, if any did.
    public var endedBy: Event.Kind?

    /// The seq of the event that put it there in its present form: the last in-place update, else its birth.
    public var lastChange: UInt64 { updates.last ?? start }

    /// The seq of the event that put it there in the form it had at `seq`: the last in-place update
    /// up to `seq`, else its birth.
    public func lastChange(through seq: UInt64) -> UInt64 { updates.last(where: { $0 <= seq }) ?? start }

    /// Whether it is a screen (a route on a stack or a presentation) rather than a tab or a selection.
    public var isScreen: Bool { kind == .entry || kind == .presentation }
}

/// Every element's life over a session (see ``Lifetime``), from one pass over its events.
public struct Lifetimes: Hashable, Sendable {
    /// Every element, in the order they were born (ties in the state's tree order).
    public var all: [Lifetime]
    /// The seqs of the rejected events.
    public var rejected: [UInt64]
    /// The seq of the last event.
    public var seq: UInt64

    /// The screens only: routes on stacks and presentations.
    public var screens: [Lifetime] { all.filter(\.isScreen) }

    /// Folds `events` (seqs from 1) once: linear in the events plus the states' sizes.
    public init<S: Sequence>(events: S) where S.Element == Event {
        var tracker = LifetimeTracker()
        for e in events { tracker.apply(e) }
        self = tracker.lifetimes
    }

    public init(all: [Lifetime], rejected: [UInt64], seq: UInt64) {
        self.all = all
        self.rejected = rejected
        self.seq = seq
    }
}

/// A session's state at one seq with, for each of its elements, the event that put it there and the
/// event that later took it away (see ``Lifetime``): what `git blame` is to a file.
public struct Blame: Hashable, Sendable {
    /// The seq blamed (0 is the state before any event).
    public var seq: UInt64
    /// The state at ``seq``.
    public var state: NavigationState
    /// Every element of the whole session; the layout's numbers index it.
    public var lifetimes: Lifetimes
    /// The state's elements, in the state's tree order, as indices into `lifetimes.all`.
    public var layout: Layout

    /// The elements of a state, shaped as the state is.
    public struct Layout: Hashable, Sendable {
        /// The selected tab's selection element; `nil` without tabs.
        public var selection: Int?
        /// One per tab in order (exactly one without tabs).
        public var roots: [Root]
    }

    /// One root: its tab element (`nil` without tabs), its stack and its chain of presentations.
    public struct Root: Hashable, Sendable {
        public var tab: Int?
        public var path: [Int]
        public var chain: [Level]
    }

    /// One presentation of a chain and the stack of its content (empty for alerts and dialogs).
    public struct Level: Hashable, Sendable {
        public var presentation: Int
        public var path: [Int]
    }

    /// The lifetime an index of the layout names.
    public subscript(_ index: Int) -> Lifetime { lifetimes.all[index] }

    /// The seq of the event that put the element at `index` there in the form it has at ``seq``.
    public func put(_ index: Int) -> UInt64 { lifetimes.all[index].lastChange(through: seq) }

    /// Blames the state at `seq` of the session `events`, in one pass over all of them (removals
    /// are looked for up to the last event). A `seq` past the last event blames the last state.
    public init<S: Sequence>(events: S, at seq: UInt64) where S.Element == Event {
        var tracker = LifetimeTracker()
        var layout = tracker.layout
        var state = tracker.state
        var at: UInt64 = 0
        for e in events {
            tracker.apply(e)
            if tracker.seq == seq { layout = tracker.layout; state = tracker.state; at = seq }
        }
        if seq > tracker.seq { layout = tracker.layout; state = tracker.state; at = tracker.seq }
        self.init(seq: at, state: state, lifetimes: tracker.lifetimes, layout: layout)
    }

    public init(seq: UInt64, state: NavigationState, lifetimes: Lifetimes, layout: Layout) {
        self.seq = seq
        self.state = state
        self.lifetimes = lifetimes
        self.layout = layout
    }
}

/// Folds events one at a time, as a ``Replayer`` does, while following each element of the state
/// (see ``Lifetime``). Feed it a session's events in order; read ``lifetimes`` at the end and
/// ``layout`` at any seq whose state is to be blamed.
public struct LifetimeTracker: Sendable {
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
