@_spi(Tools) import RouteLogCore

// The stacks of a state as the screen tracker groups stack entries (ScreenTracker.swift).

/// One stack of the state: a frame, and the tab for a root frame with tabs.
struct StackKey: Hashable {
    var frame: FrameRef
    var tab: String?
}

extension ScreenID {
    /// The stack a stack entry is on (its frame and, for a tab's root, the tab).
    var stackKey: StackKey? {
        if case .stackEntry(let frame, _, _, let tab) = self { return StackKey(frame: frame, tab: tab) }
        return nil
    }
}
