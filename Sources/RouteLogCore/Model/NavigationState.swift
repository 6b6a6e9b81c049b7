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
