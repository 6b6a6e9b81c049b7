@_spi(Tools) import RouteLogCore

// How typed snapshots print: `print`, `String(describing:)`, `dump` and custom-dump's
// `customDump` / `expectNoDifference` show what a reader of the snapshot wrote (path and
// presented), never the storage behind `presented`, and name the library's types without their
// module. The app's routes print as the app's type prints them.

extension Screen: CustomReflectable {
    /// `path` and `presented` (not the one-element array that stores `presented`).
    public var customMirror: Mirror {
        Mirror(self, children: [("path", path as Any), ("presented", presented as Any)], displayStyle: .struct)
    }
}

extension Screen: CustomStringConvertible {
    /// `Screen(path: [episode(id: 7)], presented: Presented(#3 sheet player(episode: 7), …))`.
    public var description: String {
        "Screen(path: [\(path.map { String(describing: $0) }.joined(separator: ", "))]"
            + (presented.map { ", presented: \($0)" } ?? "") + ")"
    }
}

extension Presented: CustomStringConvertible {
    /// `Presented(#3 sheet player(episode: 7), dismissible: false, content: Screen(path: []))`.
    public var description: String {
        "Presented(#\(token) \(style.rawValue) \(route)" + (dismissible ? "" : ", dismissible: false")
            + (content.map { ", content: \($0)" } ?? "") + ")"
    }
}

extension TabScreen: CustomStringConvertible {
    /// `TabScreen(library, Screen(path: []))`.
    public var description: String { "TabScreen(\(id), \(screen))" }
}

extension NavigationSnapshot: CustomStringConvertible {
    /// `NavigationSnapshot(root: Screen(…))`, or with tabs
    /// `NavigationSnapshot(tabs: [TabScreen(…), …], selectedTab: library)`.
    public var description: String {
        guard let tabs else { return "NavigationSnapshot(root: \(root))" }
        return "NavigationSnapshot(tabs: [\(tabs.map(\.description).joined(separator: ", "))], selectedTab: \(selectedTab ?? "nil"))"
    }
}
