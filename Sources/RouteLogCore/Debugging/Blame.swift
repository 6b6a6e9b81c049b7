/// A session's state at one seq with, for each of its elements, the event that put it there and the
/// event that later took it away (see ``Lifetime``): what `git blame` is to a file.
@_spi(Tools) public struct Blame: Hashable, Sendable {
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
