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
