@_spi(Tools) import RouteLogCore

// The navigator's reads, beside Navigator.swift: the state shown (live or travelled to), its
// stacks and presentations with typed routes, decoded through the route cache.

extension Navigator {
    // MARK: - Reads

    /// The state shown: the live head, or the past while travelling.
    public var state: NavigationState { past?.state ?? live }

    /// The seq of the state shown: ``headSeq``, or the travel position.
    public var seq: UInt64 { past?.seq ?? headSeq }

    /// The root navigation stack (of the selected tab), as ``rootPath``; ``activePath`` is the
    /// stack `push` goes to.
    public var path: [Route] { path(in: .root) }

    /// The navigation stack of a frame: `.root`, or the content of a presentation.
    public func path(in frame: FrameRef) -> [Route] {
        (state.frame(frame)?.path ?? []).compactMap(route)
    }

    /// The top-most presentation, if anything is presented.
    public var top: Presented<Route>? { state.topPresentation.flatMap(presented) }

    /// What a frame presents, if anything.
    public func presented(in frame: FrameRef = .root) -> Presented<Route>? {
        state.frame(frame)?.presented.flatMap(presented)
    }

    /// Every presentation of the selected tab, bottom first.
    public var presentations: [Presented<Route>] { state.presentationChain.compactMap(presented) }

    /// The frame calls target when they name none: the top-most presented screen, or the root.
    public var activeFrame: FrameRef { state.activeFrameRef }

    /// The tab ids in order, or `nil` without tabs.
    public var tabs: [String]? { state.tabs?.map(\.id) }

    /// The selected tab, or `nil` without tabs.
    public var selectedTab: String? { state.selectedTab }

    /// The whole state with typed routes.
    ///
    /// - Throws: ``RouteDecodingError`` if a route does not decode (possible only after a
    ///   `reset` to a core state holding foreign routes).
    public func snapshot() throws(RouteDecodingError) -> NavigationSnapshot<Route> {
        try NavigationSnapshot(state)
    }

    /// Decodes a stored route (cached).
    func route(_ ref: RouteRef) -> Route? {
        if let r = routeCache[ref] { return r }
        guard let r = try? ref.decode(as: Route.self) else { return nil }
        routeCache.insert(r, for: ref)
        return r
    }

    private func presented(_ p: Presentation) -> Presented<Route>? {
        guard let r = route(p.route) else { return nil }
        var content: Screen<Route>? = nil
        if let c = p.content { content = screen(c) }
        return Presented(token: p.token, route: r, style: p.style, dismissible: p.dismissible, content: content)
    }

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

    private func screen(_ f: Frame) -> Screen<Route> {
        Screen(path: f.path.compactMap(route), presented: f.presented.flatMap(presented))
    }
}
