@_spi(Tools) import RouteLogCore

/// One screen of a typed snapshot: a navigation stack and at most one presentation.
public struct Screen<Route: Routable>: Hashable, Sendable {
    /// The navigation stack, bottom first.
    public var path: [Route]
    // An array gives the recursive type its indirection; it holds zero or one element.
    private var _presented: [Presented<Route>]

    /// - Parameters:
    ///   - path: the navigation stack, bottom first.
    ///   - presented: what the screen presents, if anything.
    public init(path: [Route] = [], presented: Presented<Route>? = nil) {
        self.path = path
        self._presented = presented.map { [$0] } ?? []
    }

    /// What the screen presents, if anything.
    public var presented: Presented<Route>? {
        get { _presented.first }
        set { _presented = newValue.map { [$0] } ?? [] }
    }
}

/// A presentation in a typed snapshot.
public struct Presented<Route: Routable>: Hashable, Sendable {
    /// The seq of the event that created the presentation.
    public var token: UInt64
    /// The presented route.
    public var route: Route
    /// How it is presented.
    public var style: PresentationStyle
    /// `false` when the user cannot swipe it away (`.interactiveDismissDisabled()`).
    public var dismissible: Bool
    /// The presented screen's own stack and modal; `nil` for alerts and confirmation dialogs.
    public var content: Screen<Route>?

    /// A presentation; `content` defaults to an empty screen for sheets, covers and popovers
    /// and is always `nil` for alerts and dialogs.
    public init(token: UInt64, route: Route, style: PresentationStyle, dismissible: Bool = true, content: Screen<Route>? = nil) {
        self.token = token
        self.route = route
        self.style = style
        self.dismissible = dismissible
        self.content = style.isLeaf ? nil : (content ?? Screen())
    }
}

/// One tab of a typed snapshot.
public struct TabScreen<Route: Routable>: Hashable, Sendable {
    /// The tab's id.
    public var id: String
    /// The tab's root screen.
    public var screen: Screen<Route>

    /// A tab with its screen.
    public init(id: String, screen: Screen<Route> = Screen()) {
        self.id = id
        self.screen = screen
    }
}

/// The navigation state with the app's own route type: what tests compare and deep links build.
///
/// Without tabs, ``root`` is the whole state and ``tabs`` is `nil`. With tabs, each tab has its
/// own screen, ``selectedTab`` names one, and ``root`` is left empty; ``selectedScreen`` reads
/// and writes the selected tab's screen (or ``root`` without tabs).
public struct NavigationSnapshot<Route: Routable>: Hashable, Sendable {
    /// The root screen of an app without tabs.
    public var root: Screen<Route>
    /// The tabs in order, or `nil` without tabs.
    public var tabs: [TabScreen<Route>]?
    /// The selected tab, or `nil` without tabs.
    public var selectedTab: String?

    /// A state without tabs.
    public init(root: Screen<Route> = Screen()) {
        self.root = root
        self.tabs = nil
        self.selectedTab = nil
    }

    /// A state with tabs.
    public init(tabs: [TabScreen<Route>], selectedTab: String) {
        self.root = Screen()
        self.tabs = tabs
        self.selectedTab = selectedTab
    }

    /// The screen of the selected tab, or ``root`` without tabs.
    public var selectedScreen: Screen<Route> {
        get {
            guard let tabs else { return root }
            return tabs.first { $0.id == selectedTab }?.screen ?? Screen()
        }
        set {
            guard tabs != nil else { root = newValue; return }
            if let i = tabs!.firstIndex(where: { $0.id == selectedTab }) { tabs![i].screen = newValue }
        }
    }

    /// Reads a core state, decoding every route.
    ///
    /// - Throws: ``RouteDecodingError`` for the first route that does not decode.
    public init(_ state: NavigationState) throws(RouteDecodingError) {
        func screen(_ f: Frame) throws(RouteDecodingError) -> Screen<Route> {
            var s = Screen<Route>()
            for r in f.path { s.path.append(try r.decode(as: Route.self)) }
            if let p = f.presented {
                var content: Screen<Route>? = nil
                if let c = p.content { content = try screen(c) }
                s.presented = Presented(token: p.token, route: try p.route.decode(as: Route.self), style: p.style,
                                        dismissible: p.dismissible, content: content)
            }
            return s
        }
        if let tabs = state.tabs {
            var out: [TabScreen<Route>] = []
            for t in tabs { out.append(TabScreen(id: t.id, screen: try screen(t.root))) }
            self.init(tabs: out, selectedTab: state.selectedTab ?? "")
        } else {
            self.init(root: try screen(state.root))
        }
    }

    /// The core state this snapshot describes, with the tokens it holds.
    ///
    /// - Throws: ``RouteEncodingError`` for a route that has no JSON form.
    public func coreState() throws(RouteEncodingError) -> NavigationState {
        func frame(_ s: Screen<Route>) throws(RouteEncodingError) -> Frame {
            var f = Frame()
            for r in s.path { f.path.append(try RouteRef(r)) }
            if let p = s.presented {
                var content: Frame? = nil
                if let c = p.content { content = try frame(c) }
                f.presented = Presentation(token: p.token, route: try RouteRef(p.route), style: p.style,
                                           dismissible: p.dismissible, content: content)
            }
            return f
        }
        if let tabs {
            var out: [Tab] = []
            for t in tabs { out.append(Tab(id: t.id, root: try frame(t.screen))) }
            return NavigationState(tabs: out, selectedTab: selectedTab ?? "")
        }
        return NavigationState(root: try frame(root))
    }

    /// The same snapshot with its presentation tokens renumbered so that the deepest
    /// presentation takes `seq`, the next `seq - 1`, and so on (tree order, tab by tab), as a
    /// `reset` at `seq` needs: tokens must be unique and no larger than the reset's seq.
    func renumbered(endingAt seq: UInt64) -> NavigationSnapshot {
        var count: UInt64 = 0
        func countIn(_ s: Screen<Route>) {
            guard let p = s.presented else { return }
            count += 1
            if let c = p.content { countIn(c) }
        }
        if let tabs { tabs.forEach { countIn($0.screen) } } else { countIn(root) }
        var next = seq >= count ? seq - count + 1 : 1
        func renumber(_ s: inout Screen<Route>) {
            guard var p = s.presented else { return }
            p.token = next
            next += 1
            if var c = p.content { renumber(&c); p.content = c }
            s.presented = p
        }
        var copy = self
        if copy.tabs != nil {
            for i in copy.tabs!.indices { renumber(&copy.tabs![i].screen) }
        } else {
            renumber(&copy.root)
        }
        return copy
    }

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
