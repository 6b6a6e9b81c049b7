@_spi(Tools) import RouteLogCore

/// A screen as the navigation state knows it: what a view reports to
/// ``Navigator/screenAppeared(_:)`` and ``Navigator/screenDisappeared(_:)``.
///
/// A presented view is named by its presentation's token (the seq of the event that presented
/// it) and route id; a pushed view by the frame whose stack holds it, its index on that stack
/// (0 = the bottom) and its route id; a tab's root view by the tab's id.
public enum ScreenID: Hashable, Sendable, CustomStringConvertible {
    /// The view of a presentation: its token and its route's id.
    case presentation(token: UInt64, routeID: String)
    /// A view on a frame's stack: the frame (`.root` or a presentation's content), the index on
    /// its path (0 = bottom) and the route's id. `tab` names the tab whose root frame holds it,
    /// for `.root` in a state with tabs; `nil` there means the tab selected when it is reported.
    case stackEntry(frame: FrameRef, index: Int, routeID: String, tab: String? = nil)
    /// The root view of a tab.
    case tabRoot(String)

    /// `player (#12)`, `episode-3 at root[2]`, `episode-3 at root[2] of tab library`,
    /// `episode-3 at #12[0]`, `tab library`.
    public var description: String {
        switch self {
        case .presentation(let token, let routeID): "\(routeID) (#\(token))"
        case .stackEntry(let frame, let index, let routeID, let tab):
            "\(routeID) at \(frame)[\(index)]" + (tab.map { " of tab \($0)" } ?? "")
        case .tabRoot(let id): "tab \(id)"
        }
    }

    /// The stack a stack entry is on (its frame and, for a tab's root, the tab).
    var stackKey: StackKey? {
        if case .stackEntry(let frame, _, _, let tab) = self { return StackKey(frame: frame, tab: tab) }
        return nil
    }
}

/// One stack of the state: a frame, and the tab for a root frame with tabs.
struct StackKey: Hashable {
    var frame: FrameRef
    var tab: String?
}

/// A moment when what is on screen and the navigator's state disagree, as the navigator found it
/// from the screens' own reports (see ``Navigator/screenAppeared(_:)``).
///
/// Each case is reported once, when it has lasted the grace period
/// (``Navigator/divergenceGracePeriod``) while the app is active and live: a screen the state
/// shows that is not on screen, a screen still on screen after the state removed it, a screen on
/// screen that the state does not have, a stack showing a depth other than its path's.
///
/// ```
/// #7 not on screen: player (#7) (likely cause: a presentation requested while another was still dismissing)
/// ```
public struct Divergence: Hashable, Sendable, CustomStringConvertible {
    /// What disagrees.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The state shows the screen; it did not appear, or it disappeared and did not come back.
        case notOnScreen
        /// The screen is still on screen after the state removed it.
        case stillOnScreen
        /// A screen on screen that the state does not have.
        case unknownScreen
        /// A stack shows more or fewer screens than its path holds.
        case depthMismatch
    }

    /// What most likely caused it, when the reports tell.
    public enum Cause: String, Hashable, Sendable, CaseIterable {
        /// A presentation was requested while another, already removed from the state, was still
        /// on screen (dismissing): UIKit refuses to present over a view that is still presenting.
        case presentedWhileDismissing
        /// The stack's path was written while a tab switch was under way (within the grace period
        /// of the switch): SwiftUI can drop a path write that lands mid-transition.
        case pathWriteDuringTabSwitch
        /// The presentation left the screen while the state still shows it: the system removed it
        /// (a size-class change, a parent view torn down) without its binding's `nil` write.
        case removedWithoutWrite

        /// The cause in a few words.
        public var phrase: String {
            switch self {
            case .presentedWhileDismissing: "a presentation requested while another was still dismissing"
            case .pathWriteDuringTabSwitch: "a path write during a tab switch"
            case .removedWithoutWrite: "removed without its binding write"
            }
        }
    }

    /// What disagrees.
    public var kind: Kind
    /// The screen concerned; for ``Kind/depthMismatch`` the top screen the stack shows.
    public var screen: ScreenID
    /// The seq the divergence concerns: the event that made the state show the screen (or remove
    /// it, or change the stack's path); the head when the screen appeared or disappeared, when
    /// the screen did so on its own.
    public var seq: UInt64
    /// The likely cause, `nil` when the reports do not tell.
    public var cause: Cause?
    /// For ``Kind/depthMismatch``: how many screens the stack shows (the index of its top screen
    /// on screen, plus one); `nil` for the other kinds.
    public var visibleDepth: Int?
    /// For ``Kind/depthMismatch``: the length of the stack's path in the state; `nil` for the
    /// other kinds.
    public var stateDepth: Int?
    /// When the navigator found it: milliseconds since 1970 on the navigator's clock.
    public var detectedAt: Int64

    /// A divergence (the navigator makes them; tests and tools compare with them).
    public init(kind: Kind, screen: ScreenID, seq: UInt64, cause: Cause? = nil, visibleDepth: Int? = nil, stateDepth: Int? = nil,
                detectedAt: Int64) {
        self.kind = kind
        self.screen = screen
        self.seq = seq
        self.cause = cause
        self.visibleDepth = visibleDepth
        self.stateDepth = stateDepth
        self.detectedAt = detectedAt
    }

    /// One line: `#7 not on screen: player (#7)`, `#9 depth mismatch: episode-2 at root[1] (2 on
    /// screen, 1 in the state)`, with `(likely cause: …)` when known.
    public var description: String {
        var s = "#\(seq) "
        switch kind {
        case .notOnScreen: s += "not on screen: \(screen)"
        case .stillOnScreen: s += "still on screen: \(screen)"
        case .unknownScreen: s += "unknown screen: \(screen)"
        case .depthMismatch:
            s += "depth mismatch: \(screen) (\(visibleDepth ?? 0) on screen, \(stateDepth ?? 0) in the state)"
        }
        if let cause { s += " (likely cause: \(cause.phrase))" }
        return s
    }
}
