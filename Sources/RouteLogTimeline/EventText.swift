import RouteLogCore

/// One-line descriptions of events, in the form `routelog log` prints them: `push thread-42`,
/// `show sheet composer onTop`, `interactiveDismiss #12`.
public enum EventText {
    /// The compact description of `event`.
    public static func describe(_ event: Event) -> String {
        func frame(_ f: FrameRef) -> String {
            switch f {
            case .root: "root"
            case .presentation(let t): "#\(t)"
            }
        }
        switch event {
        case .push(let r, let f):
            return "push \(r.id)" + (f.map { " in \(frame($0))" } ?? "")
        case .pop(let count, let f):
            return "pop" + (count == 1 ? "" : " \(count)") + (f.map { " in \(frame($0))" } ?? "")
        case .popToRoot(let f):
            return "popToRoot" + (f.map { " in \(frame($0))" } ?? "")
        case .show(let r, let style, let dismissible, let placement):
            var s = "show \(style.rawValue) \(r.id)"
            if !dismissible { s += " undismissible" }
            switch placement {
            case .replacingTop: break
            case .onTop: s += " onTop"
            case .in(let f): s += " in \(frame(f))"
            }
            return s
        case .dismiss(let target):
            switch target {
            case .top: return "dismiss"
            case .token(let t): return "dismiss #\(t)"
            case .all: return "dismiss all"
            }
        case .interactiveDismiss(let token):
            return "interactiveDismiss" + (token.map { " #\($0)" } ?? "")
        case .setTabs(let ids, let selected):
            return "setTabs \(ids.joined(separator: ","))" + (selected.map { " [\($0)]" } ?? "")
        case .selectTab(let id):
            return "selectTab \(id)"
        case .reset:
            return "reset"
        }
    }
}
