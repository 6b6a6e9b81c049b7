#if canImport(os)
import os
import RouteLogCore

// Signposts, beside Navigator.swift: on Apple platforms every recorded call is an `OSSignposter`
// event, so an Instruments recording shows navigation on the timeline of SwiftUI's updates.

/// Where navigators emit their signposts by default.
public enum NavigationSignposts {
    /// `dev.routelog`: RouteLog's own subsystem, as a framework's signposts carry the framework's.
    public static let subsystem = "dev.routelog"

    /// A signposter for `subsystem` in the `DynamicTracing` category: its signposts are disabled,
    /// and ``OSSignposter/isEnabled`` is `false`, except while Instruments records, so a call
    /// pays one check when nothing records.
    public static func signposter(subsystem: String = subsystem) -> OSSignposter {
        OSSignposter(subsystem: subsystem, category: .dynamicTracing)
    }
}

extension Navigator {
    /// Emits a call's signpost: an event named for its kind (`push`, `show`,
    /// `interactiveDismiss`…) whose message is the breadcrumb's line,
    /// `push episode-42: home → episode-42 (applied, #17, run 3)`. Called only while the signposter
    /// is enabled; route payloads are never emitted, only route ids.
    func emitSignpost(_ crumb: NavigationBreadcrumb) {
        let s = signposter
        // Formatted here, once: only while Instruments records.
        let m = crumb.description
        switch crumb.kind {
        case .push: s.emitEvent("push", "\(m, privacy: .public)")
        case .pop: s.emitEvent("pop", "\(m, privacy: .public)")
        case .popToRoot: s.emitEvent("popToRoot", "\(m, privacy: .public)")
        case .show: s.emitEvent("show", "\(m, privacy: .public)")
        case .dismiss: s.emitEvent("dismiss", "\(m, privacy: .public)")
        case .interactiveDismiss: s.emitEvent("interactiveDismiss", "\(m, privacy: .public)")
        case .setTabs: s.emitEvent("setTabs", "\(m, privacy: .public)")
        case .selectTab: s.emitEvent("selectTab", "\(m, privacy: .public)")
        case .reset: s.emitEvent("reset", "\(m, privacy: .public)")
        }
    }
}
#endif
