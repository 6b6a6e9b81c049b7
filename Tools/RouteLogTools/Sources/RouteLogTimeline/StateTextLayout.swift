@_spi(Tools) import RouteLogCore

/// The layout of a state's canonical JSON text, kept beside a ``Timeline/Builder`` so that an
/// event's splice, changes and change ranges come from the part of the state the event touched,
/// not from serializing and comparing the whole state at every seq.
///
/// It holds every frame's path (its routes and where each route's text starts) and reads the
/// rest (tabs, presentation chains) from the state, which has few frames however deep a path
/// grows. An event other than `reset` and `setTabs` changes one thing: one frame's path grows or
/// shrinks at its end, or one frame's presentation appears, disappears, is replaced or is updated
/// in place, or the selected tab changes. Those are computed here in time proportional to the
/// change (plus the number of frames); anything else is computed from the whole texts.
struct StateTextLayout: Sendable {
    /// A frame's address: the root of a tab (the empty id without tabs) or a presentation's content.
    enum FrameKey: Hashable, Sendable {
        case root(String)
        case content(UInt64)
    }

    /// A frame's path and, for each route, where its text starts in the path's text.
    struct Path: Sendable {
        var routes: [RouteRef] = []
        /// `starts[i]`: the UTF-16 offset of route `i` in the path's text (routes joined by commas);
        /// one more entry than routes, as if each route were followed by a comma.
        var starts: [Int] = [0]

        init(_ routes: [RouteRef] = []) {
            self.routes.reserveCapacity(routes.count)
            for r in routes { append(r) }
        }

        /// The UTF-16 length of the routes joined by commas.
        var textLength: Int { routes.isEmpty ? 0 : starts[routes.count] - 1 }
        func length(of i: Int) -> Int { starts[i + 1] - starts[i] - 1 }

        mutating func append(_ r: RouteRef) {
            routes.append(r)
            starts.append(starts[starts.count - 1] + units(r.json.canonicalText) + 1)
        }

        mutating func removeLast(_ k: Int) {
            routes.removeLast(k)
            starts.removeLast(k)
        }
    }

    /// One presentation of a chain, as the layout needs it.
    struct Link: Equatable, Sendable {
        var token: UInt64
        var route: RouteRef
        var style: PresentationStyle
        var dismissible: Bool
        var hasContent: Bool
    }

    /// One root's chain: the path length of each frame (the root first, then each content frame)
    /// and the presentations between them.
    struct Chain: Equatable, Sendable {
        var counts: [Int]
        var links: [Link]
    }

    /// What the layout reads of a state: tabs, selection and chains (never a path's routes).
    struct Shape: Equatable, Sendable {
        var hasTabs: Bool
        var tabIDs: [String]
        var selected: String?
        var chains: [Chain]

        init(_ state: NavigationState) {
            let tabs = state.tabs ?? [Tab(id: "", root: state.root)]
            hasTabs = state.tabs != nil
            tabIDs = tabs.map(\.id)
            selected = state.selectedTab
            chains = tabs.map { tab in
                var counts = [tab.root.path.count], links: [Link] = []
                var frame = tab.root
                while let p = frame.presented {
                    links.append(Link(token: p.token, route: p.route, style: p.style, dismissible: p.dismissible, hasContent: p.content != nil))
                    guard let c = p.content else { break }
                    counts.append(c.path.count)
                    frame = c
                }
                return Chain(counts: counts, links: links)
            }
        }

        /// The key of frame `k` of tab `t`'s chain.
        func key(_ t: Int, _ k: Int) -> FrameKey { k == 0 ? .root(tabIDs[t]) : .content(chains[t].links[k - 1].token) }

        /// How StateDiff names frame `k` of tab `t`'s chain.
        func address(_ t: Int, _ k: Int) -> String {
            k > 0 ? "presented#\(chains[t].links[k - 1].token)" : hasTabs ? "tabs[\(tabIDs[t])]" : "root"
        }
    }

    private(set) var paths: [FrameKey: Path] = [:]

    init(_ state: NavigationState) { rebuild(state) }

    mutating func rebuild(_ state: NavigationState) {
        paths = [:]
        let tabs = state.tabs ?? [Tab(id: "", root: state.root)]
        for tab in tabs {
            paths[.root(tab.id)] = Path(tab.root.path)
            var frame = tab.root
            while let p = frame.presented, let c = p.content {
                paths[.content(p.token)] = Path(c.path)
                frame = c
            }
        }
    }

    // MARK: - Lengths and offsets (UTF-16 units of the canonical text)

    // {"path":[ … ],"presented": … }
    static let pathOpen = 9, pathClose = 14, frameClose = 1, null = 4
    // {"content": … ,"dismissible": … ,"route": … ,"style": … ,"token": … }
    static let contentOpen = 11

    func pathLength(_ key: FrameKey) -> Int { paths[key]?.textLength ?? 0 }

    /// The length of frame `k` of tab `t`'s chain (with everything it presents).
    func frameLength(_ s: Shape, _ t: Int, _ k: Int) -> Int {
        let links = s.chains[t].links
        return Self.pathOpen + pathLength(s.key(t, k)) + Self.pathClose + (k < links.count ? presentationLength(s, t, k) : Self.null) + Self.frameClose
    }

    /// The length of the presentation frame `k` of tab `t`'s chain presents.
    func presentationLength(_ s: Shape, _ t: Int, _ k: Int) -> Int {
        let l = s.chains[t].links[k]
        return Self.contentOpen + (l.hasContent ? frameLength(s, t, k + 1) : Self.null) + units(Self.tail(l))
    }

    /// A presentation's text after its content: `,"dismissible":…,"route":…,"style":…,"token":…}`.
    static func tail(_ l: Link) -> String {
        ",\"dismissible\":" + (l.dismissible ? "true" : "false") + ",\"route\":" + l.route.json.canonicalText
            + ",\"style\":" + JSONValue.string(l.style.rawValue).canonicalText
            + ",\"token\":" + JSONValue.int(Int64(bitPattern: l.token)).canonicalText + "}"
    }

    /// Where the text of tab `t`'s root frame starts.
    func rootStart(_ s: Shape, _ t: Int) -> Int {
        guard s.hasTabs else { return 8 }  // {"root":
        // {"selectedTab":"…","tabs":[{"id":"…","root":…},…]}
        var at = 15 + units(JSONValue.string(s.selected ?? "").canonicalText) + 9
        for u in 0..<t { at += 6 + units(JSONValue.string(s.tabIDs[u]).canonicalText) + 8 + frameLength(s, u, 0) + 1 + 1 }
        return at + 6 + units(JSONValue.string(s.tabIDs[t]).canonicalText) + 8
    }

    /// The length of the whole text.
    func totalLength(_ s: Shape) -> Int {
        guard s.hasTabs, let last = s.tabIDs.indices.last else { return 8 + frameLength(s, 0, 0) + 1 }
        return rootStart(s, last) + frameLength(s, last, 0) + 3  // }]}
    }

    /// Where the path text of frame `k` of tab `t`'s chain starts.
    func pathStart(_ s: Shape, _ t: Int, _ k: Int) -> Int {
        var at = rootStart(s, t)
        for j in 0..<k { at += Self.pathOpen + pathLength(s.key(t, j)) + Self.pathClose + Self.contentOpen }
        return at + Self.pathOpen
    }

    // MARK: - An event's edit

    /// What one event did to the text, or nil when the layout cannot tell it from the part it
    /// touched (then the caller compares the whole texts and calls ``rebuild(_:)``).
    struct Edit {
        var splice: Timeline.Splice
        var changes: [StateDiff.Change]
        var ranges: [Timeline.ChangeRange]
    }

    /// The edit from the state of shape `a` (this layout's state) to `after` (of shape `b`), and
    /// the layout moved to `after`. `before` is the state before, when the caller kept it (needed
    /// for an edit of a presentation: its old value).
    mutating func edit(from a: Shape, to b: Shape, after: NavigationState, before: NavigationState?) -> Edit? {
        guard a.hasTabs == b.hasTabs, a.tabIDs == b.tabIDs else { return nil }
        enum Kind { case path, presented, inPlace }
        var found: [(kind: Kind, t: Int, k: Int)] = []
        for t in a.chains.indices {
            let ca = a.chains[t], cb = b.chains[t]
            if ca == cb { continue }
            var k = 0
            while true {
                if ca.counts[k] != cb.counts[k] { found.append((.path, t, k)) }
                let la = k < ca.links.count ? ca.links[k] : nil, lb = k < cb.links.count ? cb.links[k] : nil
                guard let la, let lb, la.token == lb.token else {
                    if la != nil || lb != nil { found.append((.presented, t, k)) }
                    break
                }
                if la != lb { found.append((.inPlace, t, k)) }
                guard la.hasContent, lb.hasContent, k + 1 < ca.counts.count, k + 1 < cb.counts.count else { break }
                k += 1
            }
        }
        if a.selected != b.selected {
            guard found.isEmpty else { return nil }
            return selection(a, b)
        }
        guard found.count == 1 else { return found.isEmpty ? Edit(splice: .none, changes: [], ranges: []) : nil }
        let (kind, t, k) = found[0]
        switch kind {
        case .path: return path(a, b, t, k, after: after)
        case .presented:
            guard let before else { return nil }
            return presented(a, b, t, k, before: before, after: after)
        case .inPlace: return inPlace(a, b, t, k)
        }
    }

    /// The frame at `k` of tab `t`'s chain in `state`.
    static func frame(_ state: NavigationState, _ t: Int, _ k: Int) -> Frame {
        var f = state.tabs?[t].root ?? state.root
        for _ in 0..<k { f = f.presented?.content ?? Frame() }
        return f
    }

    private mutating func path(_ a: Shape, _ b: Shape, _ t: Int, _ k: Int, after: NavigationState) -> Edit {
        let key = a.key(t, k), at = a.address(t, k)
        let start = pathStart(a, t, k)
        let n = a.chains[t].counts[k], m = b.chains[t].counts[k]
        var p = paths[key] ?? Path()
        paths[key] = nil  // appended to without a copy
        var changes: [StateDiff.Change] = [], ranges: [Timeline.ChangeRange] = []
        let splice: Timeline.Splice
        if m > n {
            let added = Self.frame(after, t, k).path[n..<m]
            var inserted = ""
            for (i, r) in zip(n..<m, added) {
                p.append(r)
                let text = r.json.canonicalText
                if i > 0 { inserted += "," }
                inserted += text
                changes.append(StateDiff.Change(path: "\(at).path[\(i)]", old: nil, new: r.json))
                ranges.append(Timeline.ChangeRange(old: nil, new: (start + p.starts[i])..<(start + p.starts[i] + p.length(of: i))))
            }
            splice = Timeline.Splice(prefix: start + (n == 0 ? 0 : p.starts[n] - 1), removed: 0, inserted: inserted)
        } else {
            for i in m..<n {
                changes.append(StateDiff.Change(path: "\(at).path[\(i)]", old: p.routes[i].json, new: nil))
                ranges.append(Timeline.ChangeRange(old: (start + p.starts[i])..<(start + p.starts[i] + p.length(of: i)), new: nil))
            }
            let keep = m == 0 ? 0 : p.starts[m] - 1
            splice = Timeline.Splice(prefix: start + keep, removed: p.textLength - keep, inserted: "")
            p.removeLast(n - m)
        }
        paths[key] = p
        return Edit(splice: splice, changes: changes, ranges: ranges)
    }

    private mutating func presented(_ a: Shape, _ b: Shape, _ t: Int, _ k: Int, before: NavigationState, after: NavigationState) -> Edit {
        let at = pathStart(a, t, k) + pathLength(a.key(t, k)) + Self.pathClose
        let oldLength = k < a.chains[t].links.count ? presentationLength(a, t, k) : Self.null
        let old = Self.frame(before, t, k).presented, new = Self.frame(after, t, k).presented
        let newText = new?.json.canonicalText ?? "null"
        // The frames under the old presentation are gone; those under the new one are added.
        for j in (k + 1)..<max(k + 1, a.chains[t].counts.count) { paths[a.key(t, j)] = nil }
        if let new, let content = new.content {
            paths[.content(new.token)] = Path(content.path)
            var frame = content
            while let p = frame.presented, let c = p.content {
                paths[.content(p.token)] = Path(c.path)
                frame = c
            }
        }
        let change = StateDiff.Change(path: "\(a.address(t, k)).presented", old: old?.json, new: new?.json)
        let range = Timeline.ChangeRange(old: old == nil ? nil : at..<(at + oldLength), new: new == nil ? nil : at..<(at + units(newText)))
        return Edit(splice: Timeline.Splice(prefix: at, removed: oldLength, inserted: newText), changes: [change], ranges: [range])
    }

    private func inPlace(_ a: Shape, _ b: Shape, _ t: Int, _ k: Int) -> Edit {
        let la = a.chains[t].links[k], lb = b.chains[t].links[k]
        let start = pathStart(a, t, k) + pathLength(a.key(t, k)) + Self.pathClose + Self.contentOpen
            + (la.hasContent ? frameLength(a, t, k + 1) : Self.null)
        let oldTail = Self.tail(la), newTail = Self.tail(lb)
        var splice = Timeline.Splice.between(oldTail, newTail)
        splice.prefix += start
        // The changes StateDiff names for a presentation that keeps its token (its content is unchanged).
        let here = "presented#\(la.token)"
        var changes: [StateDiff.Change] = []
        func add(_ path: String, _ old: JSONValue?, _ new: JSONValue?) {
            if old != new { changes.append(StateDiff.Change(path: path, old: old, new: new)) }
        }
        if la.route != lb.route {
            add("\(here).route.id", .string(la.route.id), .string(lb.route.id))
            add("\(here).route.type", la.route.type.map(JSONValue.string), lb.route.type.map(JSONValue.string))
            add("\(here).route.payload", la.route.payload?.value, lb.route.payload?.value)
        }
        add("\(here).style", .string(la.style.rawValue), .string(lb.style.rawValue))
        add("\(here).dismissible", .bool(la.dismissible), .bool(lb.dismissible))
        let o = Array(oldTail.utf16), n = Array(newTail.utf16)
        func shift(_ r: Range<Int>?) -> Range<Int>? { r.map { ($0.lowerBound + start)..<($0.upperBound + start) } }
        let ranges = changes.map { c in
            Timeline.ChangeRange(old: shift(c.old.flatMap { Timeline.find(Array($0.canonicalText.utf16), in: o) }),
                                 new: shift(c.new.flatMap { Timeline.find(Array($0.canonicalText.utf16), in: n) }))
        }
        return Edit(splice: splice, changes: changes, ranges: ranges)
    }

    private func selection(_ a: Shape, _ b: Shape) -> Edit {
        let old = JSONValue.string(a.selected ?? ""), new = JSONValue.string(b.selected ?? "")
        let ol = units(old.canonicalText), nl = units(new.canonicalText)
        // {"selectedTab":"…"
        return Edit(splice: Timeline.Splice(prefix: 15, removed: ol, inserted: new.canonicalText),
                    changes: [StateDiff.Change(path: "selectedTab", old: old, new: new)],
                    ranges: [Timeline.ChangeRange(old: 15..<(15 + ol), new: 15..<(15 + nl))])
    }
}

/// The UTF-16 length of `s` (the page's string units).
func units(_ s: String) -> Int { s.utf16.count }
