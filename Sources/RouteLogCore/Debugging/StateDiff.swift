/// The differences between two navigation states, as a list of addressed changes.
///
/// Build one with ``between(_:_:)``. Each ``Change`` names the place that changed with a
/// readable path:
///
/// - a root frame is `root` (no tabs) or `tabs[inbox]` (with tabs); the tab list is `tabs` and
///   the selected tab `selectedTab`;
/// - a path element is `root.path[2]`: the whole route when it was added or removed, or one field
///   (`root.path[2].id`, `.type`, `.payload`) when a route stayed at that index but changed;
/// - what a frame presents appears, disappears or is replaced as `<frame>.presented`
///   (`tabs[home].presented`, `presented#12.presented`), with the whole presentation as the value;
/// - a presentation that stays (same token) is addressed by its token, which is unique in a
///   session: `presented#12.route.id`, `presented#12.style`, `presented#12.dismissible`; its
///   content frame is `presented#12`, so its path elements are `presented#12.path[0]`.
///
/// Paths are compared by index, so a push shows as one added `path[n]` and a pop as removed
/// ones. Changes come in a fixed order: `tabs`, `selectedTab`, then each frame depth first (its
/// path by index, then its presentation's fields, then the presentation's content frame).
///
/// A diff renders as text in swift-custom-dump's style (``text(context:)``) and as JSON (``json``).
@_spi(Tools) public struct StateDiff: Hashable, Sendable {
    /// One difference between the two states.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        /// Whether something appeared, disappeared, or changed its value.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// Absent in the old state, present in the new one.
            case added
            /// Present in the old state, absent in the new one.
            case removed
            /// Present in both, with different values.
            case changed
        }

        /// Where the change is, e.g. `tabs[inbox].path[2]` or `presented#12.route.id`.
        public var path: String
        /// The value in the old state (`nil`: absent).
        public var old: JSONValue?
        /// The value in the new state (`nil`: absent).
        public var new: JSONValue?

        /// Creates a change. At least one of `old` and `new` should be non-nil.
        public init(path: String, old: JSONValue?, new: JSONValue?) {
            self.path = path
            self.old = old
            self.new = new
        }

        /// ``Kind/added`` when `old` is absent, ``Kind/removed`` when `new` is absent, otherwise
        /// ``Kind/changed``.
        public var kind: Kind {
            switch (old, new) {
            case (nil, _): .added
            case (_, nil): .removed
            default: .changed
            }
        }

        /// One line: `root.path[1]: added {"id":"detail"}`, `presented#4.style: "sheet" → "alert"`.
        public var description: String {
            switch (old, new) {
            case (nil, let n?): "\(path): added \(n.canonicalText)"
            case (let o?, nil): "\(path): removed \(o.canonicalText)"
            case (let o?, let n?): "\(path): \(o.canonicalText) → \(n.canonicalText)"
            case (nil, nil): "\(path): unchanged"
            }
        }

        /// `{"path": …, "kind": …, "old"?: …, "new"?: …}`; an absent side is left out.
        public var json: JSONValue {
            var o: [String: JSONValue] = ["path": .string(path), "kind": .string(kind.rawValue)]
            if let old { o["old"] = old }
            if let new { o["new"] = new }
            return .object(o)
        }
    }

    /// The state the diff starts from.
    public let old: NavigationState
    /// The state the diff leads to.
    public let new: NavigationState
    /// Every difference, in the documented order. Empty when the states are equal.
    public let changes: [Change]

    /// Whether the two states are equal.
    public var isEmpty: Bool { changes.isEmpty }

    /// The differences that lead from `a` to `b`.
    ///
    /// - Parameters:
    ///   - a: the old state.
    ///   - b: the new state.
    /// - Returns: a diff whose ``changes`` are empty exactly when `a == b`.
    public static func between(_ a: NavigationState, _ b: NavigationState) -> StateDiff {
        var c = Collector()
        c.states(a, b)
        return StateDiff(old: a, new: b, changes: c.changes)
    }

    /// The changes as JSON: `{"changes": [{"path": …, "kind": …, "old"?: …, "new"?: …}]}`.
    public var json: JSONValue {
        .object(["changes": .array(changes.map(\.json))])
    }

    /// One line per change (see ``Change/description``), or an empty string when there are none.
    public var summary: String {
        changes.map(\.description).joined(separator: "\n")
    }

    /// The two states as canonical pretty JSON, diffed line by line in swift-custom-dump's
    /// style: unchanged lines start with two spaces, removed lines with `- `, added lines with
    /// `+ `; runs of unchanged lines farther than `context` from a change collapse into one
    /// `… (N unchanged)` line at the run's indentation.
    ///
    /// - Parameter context: how many unchanged lines to keep around each change (default 2).
    /// - Returns: the rendered diff, or an empty string when the states are equal.
    public func text(context: Int = 2) -> String {
        if isEmpty { return "" }
        return LineDiff.render(old: old.json.prettyText, new: new.json.prettyText, context: context)
    }

    // MARK: - Computing the changes

    struct Collector {
        var changes: [Change] = []

        mutating func add(_ path: String, _ old: JSONValue?, _ new: JSONValue?) {
            if old != new { changes.append(Change(path: path, old: old, new: new)) }
        }

        mutating func states(_ a: NavigationState, _ b: NavigationState) {
            let aTabs = a.tabs, bTabs = b.tabs
            add("tabs", aTabs.map { .array($0.map { .string($0.id) }) }, bTabs.map { .array($0.map { .string($0.id) }) })
            add("selectedTab", a.selectedTab.map(JSONValue.string), b.selectedTab.map(JSONValue.string))
            switch (aTabs, bTabs) {
            case (nil, nil):
                frame("root", a.root, b.root)
            case (let ta?, let tb?):
                tabs(ta, tb)
            case (nil, let tb?):
                add("root", a.root.json, nil)
                tabs([], tb)
            case (let ta?, nil):
                add("root", nil, b.root.json)
                tabs(ta, [])
            }
        }

        /// Tabs in the old order, then tabs only in the new state in their order.
        mutating func tabs(_ a: [Tab], _ b: [Tab]) {
            var order = a.map(\.id)
            for t in b where !order.contains(t.id) { order.append(t.id) }
            for id in order {
                let fa = a.first { $0.id == id }?.root
                let fb = b.first { $0.id == id }?.root
                let at = "tabs[\(id)]"
                if let fa, let fb {
                    frame(at, fa, fb)
                } else {
                    add(at, fa?.json, fb?.json)
                }
            }
        }

        mutating func frame(_ at: String, _ a: Frame, _ b: Frame) {
            for i in 0..<max(a.path.count, b.path.count) {
                let here = "\(at).path[\(i)]"
                if i < a.path.count && i < b.path.count {
                    route(here, a.path[i], b.path[i])
                } else {
                    add(here, i < a.path.count ? a.path[i].json : nil, i < b.path.count ? b.path[i].json : nil)
                }
            }
            switch (a.presented, b.presented) {
            case (nil, nil):
                break
            case (let pa?, let pb?) where pa.token == pb.token:
                presentation(pa, pb)
            case (let pa, let pb):
                add("\(at).presented", pa?.json, pb?.json)
            }
        }

        mutating func route(_ at: String, _ a: RouteRef, _ b: RouteRef) {
            guard a != b else { return }
            add("\(at).id", .string(a.id), .string(b.id))
            add("\(at).type", a.type.map(JSONValue.string), b.type.map(JSONValue.string))
            add("\(at).payload", a.payload?.value, b.payload?.value)
        }

        mutating func presentation(_ a: Presentation, _ b: Presentation) {
            guard a != b else { return }
            let at = "presented#\(a.token)"
            route("\(at).route", a.route, b.route)
            add("\(at).style", .string(a.style.rawValue), .string(b.style.rawValue))
            add("\(at).dismissible", .bool(a.dismissible), .bool(b.dismissible))
            switch (a.content, b.content) {
            case (let ca?, let cb?): frame(at, ca, cb)
            case (let ca, let cb): add("\(at).content", ca?.json, cb?.json)
            }
        }
    }
}
