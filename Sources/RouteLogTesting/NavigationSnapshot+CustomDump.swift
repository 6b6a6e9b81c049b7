import CustomDump
@_spi(Tools) import RouteLog

// How typed snapshots show in custom-dump's `customDump` and `expectNoDifference` diffs: what a
// reader of the snapshot wrote, never the storage behind `presented`.

extension Screen: CustomDumpReflectable {
    /// Shows `path` and `presented` (not the storage behind `presented`).
    public var customDumpMirror: Mirror {
        Mirror(self, children: [("path", path as Any), ("presented", presented as Any)], displayStyle: .struct)
    }
}

extension NavigationSnapshot: CustomDumpReflectable {
    /// Shows `root` without tabs, `tabs` and `selectedTab` with them.
    public var customDumpMirror: Mirror {
        if let tabs {
            return Mirror(self, children: [("tabs", tabs as Any), ("selectedTab", selectedTab as Any)], displayStyle: .struct)
        }
        return Mirror(self, children: [("root", root as Any)], displayStyle: .struct)
    }
}
