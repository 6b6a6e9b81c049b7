@_spi(Tools) import RouteLogCore

// The navigator's vocabulary, beside Navigator.swift: reads named for what they read, `pop(to:)`,
// and the labels the core's events use. The verbs and where each one places are tabulated in the
// RouteLog guide ("Verbs").

extension Navigator {
    /// The stack ``push(_:in:origin:file:line:)`` goes to when it names no frame: the active
    /// frame's (the top-most presented screen's, or the root's when nothing with a stack is
    /// presented).
    public var activePath: [Route] { path(in: activeFrame) }

    /// The root stack of the selected tab (of the app without tabs): what is under every
    /// presentation. ``path`` is the same stack.
    public var rootPath: [Route] { path(in: .root) }

    /// The root stack of the tab `id`, selected or not (empty when there is no such tab): what a
    /// tab's own `NavigationStack` shows while another tab is selected.
    public func path(inTab id: String) -> [Route] {
        (state.tabs?.first { $0.id == id }?.root.path ?? []).compactMap(route)
    }

    /// Pops a frame's stack (the active frame's by default) back to the last `route` on it, which
    /// stays on top, as FlowStacks' `goBackTo` does. Records one `pop(count:)` event.
    ///
    /// - Returns: the result of the recorded pop, or `nil` when nothing was recorded: `route` is
    ///   already on top, or not on the stack at all.
    @discardableResult
    public func pop(to route: Route, in frame: FrameRef? = nil, origin: Origin = .app,
                    file: String = #fileID, line: Int = #line) -> CallResult? {
        let stack = path(in: frame ?? activeFrame)
        guard let i = stack.lastIndex(of: route), i < stack.count - 1 else { return nil }
        return pop(stack.count - 1 - i, in: frame, origin: origin, file: file, line: line)
    }

    /// The old spelling of ``interactiveDismiss(token:file:line:)``.
    @available(*, deprecated, renamed: "interactiveDismiss(token:file:line:)")
    @discardableResult
    public func interactiveDismiss(_ token: UInt64, file: String = #fileID, line: Int = #line) -> CallResult {
        interactiveDismiss(token: token, file: file, line: line)
    }

    /// A binding to the stack `push` goes to now: the active frame's (see ``activePath``).
    public func activePathBinding() -> PathBinding<Route> { pathBinding(in: activeFrame) }
}

extension ScopedRouter {
    /// Presents `route` from this frame, replacing what it presents: the navigator's
    /// ``Navigator/show(_:as:dismissible:in:origin:file:line:)`` in this frame, the core's
    /// `show(…, placement: .in(frame))`.
    @discardableResult
    public func show(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.show(route, as: style, dismissible: dismissible, in: frame, file: file, line: line)
    }

    /// Pops this frame's stack back to the last `route` on it (see ``Navigator/pop(to:in:origin:file:line:)``).
    @discardableResult
    public func pop(to route: Route, file: String = #fileID, line: Int = #line) -> CallResult? {
        navigator.pop(to: route, in: frame, file: file, line: line)
    }
}

extension NavigationSnapshot {
    /// The screen of the tab `id`, or `nil` without such a tab. Setting it replaces that tab's
    /// screen (setting `nil`, or a tab that does not exist, changes nothing), so a test can write
    /// `$0[tab: "library"]?.path = [.episode(id: 1)]`.
    public subscript(tab id: String) -> Screen<Route>? {
        get { tabs?.first { $0.id == id }?.screen }
        set {
            guard let newValue, let i = tabs?.firstIndex(where: { $0.id == id }) else { return }
            tabs![i].screen = newValue
        }
    }
}
