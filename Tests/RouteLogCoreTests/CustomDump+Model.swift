import CustomDump
@_spi(Tools) import RouteLogCore

// Readable `expectNoDifference` diffs: states and frames dump as their public shape
// (`root` or `tabs` + `selectedTab`; `path` + `presented`), not their storage.

extension NavigationState: CustomDumpReflectable {
    public var customDumpMirror: Mirror {
        if let tabs {
            return Mirror(self, children: ["tabs": tabs, "selectedTab": selectedTab as Any], displayStyle: .struct)
        }
        return Mirror(self, children: ["root": root], displayStyle: .struct)
    }
}

extension Frame: CustomDumpReflectable {
    public var customDumpMirror: Mirror {
        Mirror(self, children: ["path": path, "presented": presented as Any], displayStyle: .struct)
    }
}

extension RawJSON: CustomDumpStringConvertible {
    public var customDumpDescription: String { text }
}
