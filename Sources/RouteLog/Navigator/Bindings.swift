@_spi(Tools) import RouteLogCore

/// A navigation stack as a get/set pair, for `NavigationStack(path:)`.
///
/// Writing a shorter path (the back button, a swipe back) records `pop(count)` with origin
/// `user`; a longer one (a `NavigationLink(value:)`) records one `push` per added route. A
/// path that diverges pops to the common prefix, then pushes.
public struct PathBinding<Route: Routable>: Sendable {
    /// The navigator the binding reads and writes.
    public let navigator: Navigator<Route>
    /// The frame whose stack it is.
    public let frame: FrameRef
    /// For one tab's root stack (``Navigator/pathBinding(inTab:)``), that tab; `nil` otherwise.
    public let tab: String?

    init(navigator: Navigator<Route>, frame: FrameRef, tab: String? = nil) {
        self.navigator = navigator
        self.frame = frame
        self.tab = tab
    }

    /// The frame's stack now (for a tab's binding, that tab's root stack, selected or not).
    @MainActor public func get() -> [Route] {
        if let tab { return navigator.path(inTab: tab) }
        return navigator.path(in: frame)
    }

    /// Records what it takes to turn the current stack into `newValue`. A tab's binding records
    /// only while its tab is selected (events name the selected tab's root): a write for another
    /// tab records nothing.
    ///
    /// - Returns: the results of the recorded calls, in order (empty when nothing changed).
    @MainActor @discardableResult
    public func set(_ newValue: [Route], file: String = #fileID, line: Int = #line) -> [CallResult] {
        if let tab, navigator.selectedTab != tab { return [] }
        let current = get()
        var common = 0
        while common < current.count, common < newValue.count, current[common] == newValue[common] { common += 1 }
        var results: [CallResult] = []
        if current.count > common {
            let r = navigator.pop(current.count - common, in: frame, origin: .user, file: file, line: line)
            results.append(r)
            guard r.isApplied else { return results }
        }
        for route in newValue[common...] {
            let r = navigator.push(route, in: frame, origin: .user, file: file, line: line)
            results.append(r)
            guard r.isApplied else { break }
        }
        return results
    }
}

/// One frame's presentation of one style as a get/set pair, for `sheet(item:)`,
/// `fullScreenCover(item:)`, `popover(item:)`, `alert` and `confirmationDialog`.
///
/// The binding remembers the presentation it was created for (``token``). SwiftUI writes `nil`
/// when the user dismisses it; that records `interactiveDismiss(token)`. If the presentation
/// is already gone or was replaced by then (a late write), the reducer rejects the event as
/// `stale` and the new presentation stays: a late write can never dismiss the wrong sheet.
/// Because the route is the item itself (one state, no Bool beside it), a sheet can never be
/// presented before its data exists.
public struct PresentationBinding<Route: Routable>: Sendable {
    /// The navigator the binding reads and writes.
    public let navigator: Navigator<Route>
    /// The presenting frame.
    public let frame: FrameRef
    /// The style this binding presents.
    public let style: PresentationStyle
    /// The presentation the binding was created for, if the frame presented one of this style then.
    public let token: UInt64?

    /// The route the frame presents with this binding's style, or `nil`.
    @MainActor public func get() -> Route? { presented?.route }

    /// The presentation the frame shows with this binding's style, or `nil`.
    @MainActor public var presented: Presented<Route>? {
        guard let p = navigator.presented(in: frame), p.style == style else { return nil }
        return p
    }

    /// Whether the user may dismiss it (for `interactiveDismissDisabled`); `true` when nothing is presented.
    @MainActor public var isDismissible: Bool { presented?.dismissible ?? true }

    /// `nil` records `interactiveDismiss(token)` for the presentation this binding was created
    /// for (token 0, which no presentation has, when there was none: the write is stale). A
    /// route presents it from the frame with origin `user`.
    ///
    /// The `nil` write's origin: `user` when the binding's presentation is the top-most one (the
    /// user swiped it away), `system` when it no longer is (a late write: SwiftUI catching up with
    /// a presentation that was already dismissed or replaced, which the reducer rejects as
    /// `stale`). So a query for refused swipes counts `origin = 'user'` and never SwiftUI's late nils.
    @MainActor @discardableResult
    public func set(_ newValue: Route?, file: String = #fileID, line: Int = #line) -> CallResult {
        if let route = newValue {
            return navigator.show(route, as: style, in: frame, origin: .user, file: file, line: line)
        }
        let token = token ?? 0
        let late = navigator.state.topPresentation?.token != token
        return navigator.send(.interactiveDismiss(token: token), origin: late ? .system : .user, file: file, line: line)
    }

    /// `get() != nil`, for `alert(_:isPresented:presenting:)` and `confirmationDialog`.
    @MainActor public func isPresented() -> Bool { get() != nil }

    /// Writing `false` is a `nil` write; writing `true` does nothing (SwiftUI never does).
    @MainActor @discardableResult
    public func setPresented(_ value: Bool, file: String = #fileID, line: Int = #line) -> CallResult? {
        value ? nil : set(nil, file: file, line: line)
    }
}

/// The selected tab as a get/set pair, for `TabView(selection:)`. A write records
/// `selectTab` with origin `user`.
public struct TabBinding<Route: Routable>: Sendable {
    /// The navigator the binding reads and writes.
    public let navigator: Navigator<Route>

    /// The selected tab, or `""` without tabs.
    @MainActor public func get() -> String { navigator.selectedTab ?? "" }

    /// Selects a tab.
    @MainActor @discardableResult
    public func set(_ id: String, file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.selectTab(id, origin: .user, file: file, line: line)
    }
}

extension Navigator {
    /// A binding to a frame's stack (the root's by default).
    public func pathBinding(in frame: FrameRef = .root) -> PathBinding<Route> {
        PathBinding(navigator: self, frame: frame)
    }

    /// A binding to the root stack of the tab `id`, for that tab's own `NavigationStack`: it reads
    /// the tab's stack whether or not the tab is selected (a `TabView` keeps every tab's view), and
    /// records the user's pushes and pops while the tab is selected.
    public func pathBinding(inTab id: String) -> PathBinding<Route> {
        PathBinding(navigator: self, frame: .root, tab: id)
    }

    /// A binding to what `frame` presents with `style`, remembering the presentation shown now.
    public func presentationBinding(in frame: FrameRef = .root, style: PresentationStyle) -> PresentationBinding<Route> {
        let p = state.frame(frame)?.presented
        return PresentationBinding(navigator: self, frame: frame, style: style, token: p?.style == style ? p?.token : nil)
    }

    /// A binding to the stack `push` goes to now: the active frame's (see ``activePath``).
    public func activePathBinding() -> PathBinding<Route> { pathBinding(in: activeFrame) }

    /// A binding to the selected tab.
    public var tabBinding: TabBinding<Route> { TabBinding(navigator: self) }
}
