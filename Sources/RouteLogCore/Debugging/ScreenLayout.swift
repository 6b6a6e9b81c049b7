/// What is on screen in a state, without the tokens that number its presentations: for each tab
/// (one unnamed tab without tabs), each level of its presentation chain with that level's stack and
/// what it presents. Two states with the same layout show the same screens, however (and in which
/// seqs) they were reached: what a reproduction compares.
public struct ScreenLayout: Hashable, Sendable, CustomStringConvertible {
    /// One frame of a chain: its stack, and the presentation over it, if any.
    public struct Level: Hashable, Sendable {
        public var path: [RouteRef]
        public var presented: RouteRef?
        public var style: PresentationStyle?
        public var dismissible: Bool
    }

    /// A tab and its chain, the root first.
    public struct TabLayout: Hashable, Sendable {
        public var id: String
        public var levels: [Level]
    }

    public var tabs: [TabLayout]
    public var selectedTab: String?

    /// The layout of `state`.
    public init(_ state: NavigationState) {
        tabs = (state.tabs ?? [Tab(id: "", root: state.root)]).map { tab in
            var levels: [Level] = []
            var frame: Frame? = tab.root
            while let f = frame {
                let p = f.presented
                levels.append(Level(path: f.path, presented: p?.route, style: p?.style, dismissible: p?.dismissible ?? true))
                frame = p?.content
            }
            return TabLayout(id: tab.id, levels: levels)
        }
        selectedTab = state.selectedTab
    }

    /// The screens on one line, for a log line or a crash report: each tab's id in brackets (the
    /// selected one starred) and its chain, the tabs separated by `; `; each level's stack joined
    /// by ` ▸ `, what it presents after ` ┃ ` with its style; `root` for a tab with nothing on it.
    /// Without tabs, the chain alone.
    ///
    /// `[home*] inbox ▸ thread-42 ┃ sheet composer ▸ attachments; [search] root`
    public var description: String {
        tabs.map { tab in
            let chain = tab.levels.map { level -> String in
                var s = level.path.map(\.id).joined(separator: " ▸ ")
                if let route = level.presented, let style = level.style {
                    s += (s.isEmpty ? "" : " ┃ ") + "\(style.rawValue) \(route.id)"
                }
                return s
            }.filter { !$0.isEmpty }.joined(separator: " ▸ ")
            let name = tab.id.isEmpty ? "" : "[\(tab.id)\(tab.id == selectedTab ? "*" : "")] "
            return name + (chain.isEmpty ? "root" : chain)
        }.joined(separator: "; ")
    }
}
