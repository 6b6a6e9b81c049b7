#if canImport(os)
import os
@_spi(Tools) import RouteLogCore

// Signposts, beside Navigator.swift: on Apple platforms every recorded call is a signpost event,
// so an Instruments recording shows navigation on the timeline of SwiftUI's updates.

/// Where navigators emit their signposts by default.
public enum NavigationSignposts {
    /// `dev.routelog`: RouteLog's own subsystem, as a framework's signposts carry the framework's.
    public static let subsystem = "dev.routelog"

    /// A log for `subsystem` in the `DynamicTracing` category (`OSLog.Category.dynamicTracing`):
    /// its signposts are disabled, and `signpostsEnabled` is `false`, except while
    /// Instruments records, so a call pays one check when nothing records. Wrap it in an
    /// `OSSignposter(logHandle:)` to emit the app's own signposts beside the navigator's.
    public static func log(subsystem: String = subsystem) -> OSLog {
        OSLog(subsystem: subsystem, category: .dynamicTracing)
    }
}

extension Navigator {
    /// Emits a call's signpost event (what `OSSignposter.emitEvent` emits), named for the event's
    /// kind (`push`, `show`, `interactiveDismiss`…), whose message is the breadcrumb's line,
    /// `push episode-42: home → episode-42 (applied, #17, run 3)`. Called only while the log's
    /// signposts are enabled; route payloads are never emitted, only route ids.
    ///
    /// The message is formatted here, once, and passed as a C string (`%{public}s`) rather than
    /// through an `OSLogMessage` interpolation.
    func emitSignpost(_ crumb: NavigationBreadcrumb) {
        let log = signpostLog
        crumb.description.withCString { m in
            switch crumb.kind {
            case .push: os_signpost(.event, log: log, name: "push", "%{public}s", m)
            case .pop: os_signpost(.event, log: log, name: "pop", "%{public}s", m)
            case .popToRoot: os_signpost(.event, log: log, name: "popToRoot", "%{public}s", m)
            case .show: os_signpost(.event, log: log, name: "show", "%{public}s", m)
            case .dismiss: os_signpost(.event, log: log, name: "dismiss", "%{public}s", m)
            case .interactiveDismiss: os_signpost(.event, log: log, name: "interactiveDismiss", "%{public}s", m)
            case .setTabs: os_signpost(.event, log: log, name: "setTabs", "%{public}s", m)
            case .selectTab: os_signpost(.event, log: log, name: "selectTab", "%{public}s", m)
            case .reset: os_signpost(.event, log: log, name: "reset", "%{public}s", m)
            }
        }
    }
}
#endif
