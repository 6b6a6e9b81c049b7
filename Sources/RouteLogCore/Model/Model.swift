/// A reference to one of the app's routes, as the reducer sees it.
///
/// The reducer reads only ``id``; ``type`` and ``payload`` travel with the route so that a
/// typed `Navigator` can decode it again. Two routes with the same ``id`` fill the same
/// presentation slot (an in-place update rather than a replacement).
public struct RouteRef: Hashable, Sendable {
    /// Presentation identity. Must not be empty.
    public var id: String
    /// The app's type name for the payload, if it recorded one.
    public var type: String?
    /// The app's route as canonical JSON, opaque to the reducer.
    public var payload: RawJSON?

    public init(id: String, type: String? = nil, payload: RawJSON? = nil) {
        self.id = id
        self.type = type
        self.payload = payload
    }
}

/// A value that is already canonical JSON text: sorted keys, no insignificant whitespace.
///
/// Build one from a ``JSONValue`` (``init(_:)``) or by parsing text (``init(parsing:)``); both
/// produce the canonical form, so two equal values always have equal bytes.
public struct RawJSON: Hashable, Sendable, CustomStringConvertible {
    /// The canonical JSON text.
    public let text: String

    /// Wraps text the caller guarantees is canonical (used by the binary decoder, whose bytes
    /// were written from a `RawJSON`).
    @usableFromInline
    init(uncheckedCanonical text: String) { self.text = text }

    public init(_ value: JSONValue) { self.text = value.canonicalText }

    /// Parses JSON text and stores its canonical form.
    public init(parsing text: String) throws(JSONError) {
        self.text = try JSONValue(parsing: text).canonicalText
    }

    /// The payload as a JSON value tree.
    public var value: JSONValue {
        // Canonical text always parses; a failure would mean memory corruption.
        (try? JSONValue(parsing: text)) ?? .null
    }

    public var description: String { text }
}

/// The visual style of a presentation.
public enum PresentationStyle: String, Hashable, Sendable, CaseIterable, Codable {
    case sheet
    case fullScreenCover
    case popover
    case alert
    case confirmationDialog

    /// Alerts and confirmation dialogs are leaves: they have no content frame of their own.
    @inlinable public var isLeaf: Bool { self == .alert || self == .confirmationDialog }

    /// Whether the user can dismiss it by a gesture (swipe, tap outside, a button).
    /// A full-screen cover cannot be swiped away.
    @inlinable public var allowsInteractiveDismiss: Bool { self != .fullScreenCover }
}

/// A navigation stack plus at most one presentation (SwiftUI presents one modal per view).
public struct Frame: Hashable, Sendable {
    /// The navigation stack, bottom first.
    public var path: [RouteRef]
    @usableFromInline var _presented: Indirect<Presentation>?

    public init(path: [RouteRef] = [], presented: Presentation? = nil) {
        self.path = path
        self._presented = presented.map(Indirect.init)
    }

    /// What this frame presents, if anything.
    @inlinable public var presented: Presentation? {
        get { _presented?.value }
        set { _presented = newValue.map(Indirect.init) }
    }

    /// Mutates the presentation in place (copy-on-write), if there is one.
    @inlinable
    public mutating func withPresented<R>(_ body: (inout Presentation) -> R) -> R? {
        guard _presented != nil else { return nil }
        return _presented!.modify(body)
    }
}

/// A modal presented from a frame.
public struct Presentation: Hashable, Sendable {
    /// Unique in the session: the seq of the event that created it.
    public var token: UInt64
    public var route: RouteRef
    public var style: PresentationStyle
    /// `false` mirrors `.interactiveDismissDisabled()`.
    public var dismissible: Bool
    /// The presentation's own stack and modal. `nil` for alerts and dialogs.
    public var content: Frame?

    public init(token: UInt64, route: RouteRef, style: PresentationStyle, dismissible: Bool = true, content: Frame? = nil) {
        self.token = token
        self.route = route
        self.style = style
        self.dismissible = dismissible
        self.content = style.isLeaf ? content : (content ?? Frame())
    }
}

/// One tab and its root frame.
public struct Tab: Hashable, Sendable {
    public var id: String
    public var root: Frame
    public init(id: String, root: Frame = Frame()) {
        self.id = id
        self.root = root
    }
}

/// The whole navigation state of a scene.
///
/// Without tabs there is one root frame; with tabs each tab has its own root frame and one
/// tab is selected. The chain of presentations from the selected root ends at the top-most
/// presentation; the *active frame* is the deepest frame of that chain.
public struct NavigationState: Sendable {
    /// With tabs, the tabs in order; without, exactly one entry whose id is ignored.
    @usableFromInline var roots: [Tab]
    @usableFromInline var selectedIndex: Int
    /// Whether the state has tabs.
    public internal(set) var hasTabs: Bool
    /// Running digest terms, maintained by the reducer (see ``Digest``).
    @usableFromInline var digestSum: Digest

    /// An empty state: no tabs, an empty root frame.
    public init() {
        roots = [Tab(id: "")]
        selectedIndex = 0
        hasTabs = false
        digestSum = Digest.zero
        digestSum = Digest.terms(of: self)
    }

    /// A state without tabs.
    public init(root: Frame) {
        roots = [Tab(id: "", root: root)]
        selectedIndex = 0
        hasTabs = false
        digestSum = .zero
        digestSum = Digest.terms(of: self)
    }

    /// A state with tabs. `selectedTab` must name one of `tabs` for the state to be valid.
    public init(tabs: [Tab], selectedTab: String) {
        roots = tabs
        selectedIndex = tabs.firstIndex(where: { $0.id == selectedTab }) ?? -1
        hasTabs = true
        digestSum = .zero
        if selectedIndex >= 0 { digestSum = Digest.terms(of: self) }
    }

    /// The tabs, in order, or `nil` without tabs.
    public var tabs: [Tab]? { hasTabs ? roots : nil }

    /// The selected tab's id, or `nil` without tabs.
    public var selectedTab: String? { hasTabs && roots.indices.contains(selectedIndex) ? roots[selectedIndex].id : nil }

    /// The root frame of the selected tab (or the only root frame).
    public var root: Frame {
        get { roots.indices.contains(selectedIndex) ? roots[selectedIndex].root : Frame() }
        set {
            roots[selectedIndex].root = newValue
            digestSum = Digest.terms(of: self)
        }
    }

    /// The digest of this state: a stable 128-bit hash of its canonical form.
    public var digest: Digest { digestSum }
}

extension NavigationState: Hashable {
    public static func == (a: Self, b: Self) -> Bool {
        a.hasTabs == b.hasTabs && a.roots == b.roots && a.selectedTab == b.selectedTab
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hasTabs)
        hasher.combine(roots)
        hasher.combine(selectedTab)
    }
}

/// How a frame is named in events: the (selected) root, or the content of a presentation.
public enum FrameRef: Hashable, Sendable, CustomStringConvertible {
    case root
    case presentation(UInt64)

    public var description: String {
        switch self {
        case .root: "root"
        case .presentation(let token): "#\(token)"
        }
    }
}

/// Where a `show` presents its route.
public enum Placement: Hashable, Sendable {
    /// Router `show`: dismiss the top-most presentation (and all it contains) and present from
    /// the same frame; with nothing presented, present on the root. The default.
    case replacingTop
    /// Sheet Stack `push`: present on the active frame, above everything.
    case onTop
    /// A scoped router presenting in its own frame, replacing what that frame presents.
    case `in`(FrameRef)
}

/// What a `dismiss` removes.
public enum DismissTarget: Hashable, Sendable {
    /// The top-most presentation.
    case top
    /// This presentation and everything above it.
    case token(UInt64)
    /// The whole chain.
    case all
}

/// One navigation intent. The reducer folds events into ``NavigationState``.
public enum Event: Hashable, Sendable {
    case push(RouteRef, frame: FrameRef? = nil)
    case pop(count: Int = 1, frame: FrameRef? = nil)
    case popToRoot(frame: FrameRef? = nil)
    case show(RouteRef, style: PresentationStyle, dismissible: Bool = true, placement: Placement = .replacingTop)
    case dismiss(DismissTarget = .top)
    case interactiveDismiss(token: UInt64? = nil)
    case setTabs([String], selected: String? = nil)
    case selectTab(String)
    case reset(NavigationState)

    /// The event's kind as it is spelled in JSON and in predicates (`push`, `show`, …).
    public var kind: Kind {
        switch self {
        case .push: .push
        case .pop: .pop
        case .popToRoot: .popToRoot
        case .show: .show
        case .dismiss: .dismiss
        case .interactiveDismiss: .interactiveDismiss
        case .setTabs: .setTabs
        case .selectTab: .selectTab
        case .reset: .reset
        }
    }

    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case push, pop, popToRoot, show, dismiss, interactiveDismiss, setTabs, selectTab, reset
    }
}

/// Who caused an event.
public enum Origin: String, Hashable, Sendable, CaseIterable, Codable {
    /// The app's code called the navigator.
    case app
    /// The user acted through the UI (a swipe, a back button, a tap outside).
    case user
    /// The system: state restoration, and SwiftUI's own writes (a presentation binding's late
    /// `nil` for a presentation that is already gone).
    case system
    /// A deep link (a URL, a notification, a shortcut) opened by the app: the default origin of
    /// ``Event/reset(_:)`` calls made through the navigator. Added after `system`; stores and
    /// fixtures written before it never hold it, and read as before.
    case deepLink
}

/// A source location recorded with an event.
public struct CallSite: Hashable, Sendable {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }
}

/// Facts about an event that the reducer never reads.
public struct EventMetadata: Hashable, Sendable {
    /// Wall-clock time, milliseconds since 1970-01-01T00:00:00Z.
    public var timestamp: Int64
    public var origin: Origin
    public var callSite: CallSite?
    public var note: String?

    public init(timestamp: Int64 = 0, origin: Origin = .app, callSite: CallSite? = nil, note: String? = nil) {
        self.timestamp = timestamp
        self.origin = origin
        self.callSite = callSite
        self.note = note
    }
}

/// An event with its metadata, as it is stored and exported.
public struct RecordedEvent: Hashable, Sendable {
    public var event: Event
    public var meta: EventMetadata
    public init(_ event: Event, meta: EventMetadata = EventMetadata()) {
        self.event = event
        self.meta = meta
    }
}

/// Why the reducer rejected an event. A rejected event leaves the state unchanged.
///
/// When several reasons apply, the reducer reports the first in this order: a malformed event
/// (``emptyRouteID``, ``invalidCount``, ``invalidTabs``, ``invalidState``); a target that cannot
/// be resolved (``unknownTab``, ``unknownFrame``, ``unknownToken``, ``stale``); ``blockedByAlert``;
/// then what does not apply to the state (``stackTooShort``, ``alreadyAtRoot``,
/// ``nothingToDismiss``, ``notInteractive``, ``notDismissible``).
public enum RejectionReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// A route with an empty id.
    case emptyRouteID
    /// `pop` with a count below 1.
    case invalidCount
    /// `setTabs` with no ids, an empty id or a duplicate; `selectTab` of an empty id.
    case invalidTabs
    /// `reset` to a state that breaks an invariant (see ``NavigationState/validate()``), or
    /// that holds a token larger than the reset's own seq.
    case invalidState
    /// `selectTab` or `setTabs(selected:)` naming a tab that does not exist.
    case unknownTab
    /// An event names a frame (a token) that is not presented, or is an alert or dialog.
    case unknownFrame
    /// `dismiss(token)` naming a presentation that is not in any chain.
    case unknownToken
    /// `interactiveDismiss` for a presentation that is not the top-most (already gone or replaced).
    case stale
    /// The target frame presents an alert or dialog, which blocks it.
    case blockedByAlert
    /// `pop(count)` with a count larger than the path.
    case stackTooShort
    /// `popToRoot` on an empty path.
    case alreadyAtRoot
    /// `dismiss` with nothing presented.
    case nothingToDismiss
    /// `interactiveDismiss` of a full-screen cover, which has no dismiss gesture.
    case notInteractive
    /// `interactiveDismiss` of a presentation shown with `dismissible: false`.
    case notDismissible
    /// A `show` that would nest presentations deeper than ``NavigationState/maxChainDepth``.
    /// Checked after every other reason; an in-place update never adds depth.
    case chainTooDeep
}

/// The result of applying one event.
public enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case applied(AppliedDetail = .changed)
    case rejected(RejectionReason)

    public enum AppliedDetail: String, Hashable, Sendable {
        /// The event changed the state as its rule says.
        case changed
        /// A `show` updated the presentation with the same id and style, keeping its token and content.
        case updatedInPlace
    }

    public var isApplied: Bool { if case .applied = self { true } else { false } }
    public var reason: RejectionReason? { if case .rejected(let r) = self { r } else { nil } }

    /// `applied`, `applied:updatedInPlace` or `rejected:<reason>`.
    public var description: String {
        switch self {
        case .applied(.changed): "applied"
        case .applied(let d): "applied:\(d.rawValue)"
        case .rejected(let r): "rejected:\(r.rawValue)"
        }
    }

    /// Parses the ``description`` form.
    public init?(_ text: String) {
        if text == "applied" { self = .applied(.changed); return }
        if text.hasPrefix("applied:"), let d = AppliedDetail(rawValue: String(text.dropFirst(8))) { self = .applied(d); return }
        if text.hasPrefix("rejected:"), let r = RejectionReason(rawValue: String(text.dropFirst(9))) { self = .rejected(r); return }
        return nil
    }
}

/// A copy-on-write box that gives a recursive struct its indirection.
@usableFromInline
struct Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    @usableFromInline final class Box: @unchecked Sendable {
        // Only reached through `Indirect`, which copies the box before any write to a shared one,
        // so the runtime exclusivity check on every access is pure overhead.
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }
    @usableFromInline var box: Box

    @usableFromInline init(_ value: Value) { box = Box(value) }

    @inlinable var value: Value {
        get { box.value }
        set {
            if isKnownUniquelyReferenced(&box) { box.value = newValue } else { box = Box(newValue) }
        }
    }

    @inlinable mutating func modify<R>(_ body: (inout Value) -> R) -> R {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
        return body(&box.value)
    }

    @usableFromInline static func == (a: Self, b: Self) -> Bool { a.box === b.box || a.box.value == b.box.value }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(box.value) }
}
