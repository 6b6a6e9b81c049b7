/// One element of a session's state over its whole life: a screen (a route on a path, a
/// presentation), a tab, or the selection of a tab.
///
/// An element is *born* by the event that put it there (a push, a show, a `setTabs`, a
/// `selectTab`, a reset) and *ends* with the event that took it away (a pop, a dismiss, a swipe, a
/// replacing show, a `setTabs` that drops its tab, a reset). A presentation updated in place by a
/// `show` of the same id and style keeps its life; the update's seq is added to ``updates``.
/// A reset ends every element and bears every element of its state anew, even one it leaves as it was.
@_spi(Tools) public struct Lifetime: Hashable, Sendable {
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
@_spi(Tools) public struct Lifetimes: Hashable, Sendable {
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
