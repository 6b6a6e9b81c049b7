/// Read-only queries over a state, shared by the reducer, the navigator and the CLI.
///
/// A frame is named by a ``FrameRef``: `.root` is the selected tab's root frame (the only root
/// without tabs), `.presentation(token)` is the content frame of that presentation, which is
/// looked up in the selected tab first, then in the other tabs in order. Alerts and confirmation
/// dialogs have no content frame, so a reference to one names no frame.
extension NavigationState {
    /// The presentations of the selected root's chain, bottom first; the last is the top-most.
    public var presentationChain: [Presentation] {
        var out: [Presentation] = []
        _ = walkChain(tab: selectedIndex) { box, _, _ -> Never? in
            out.append(box.value)
            return nil
        }
        return out
    }

    /// The top-most presentation of the selected chain, or `nil` when nothing is presented.
    public var topPresentation: Presentation? { topBox()?.box.value }

    /// The frame events target when they name none: the content of the top-most presentation;
    /// the frame presenting it when that is an alert or dialog; the root when nothing is presented.
    public var activeFrameRef: FrameRef { activeLocation.ref }

    /// The frame ``activeFrameRef`` names.
    public var activeFrame: Frame { frame(activeFrameRef) ?? root }

    /// The presentation with `token`, searching the selected tab first, then the others in order.
    public func presentation(token: UInt64) -> Presentation? {
        guard let loc = locate(token: token) else { return nil }
        return presentedBox(at: loc)?.value
    }

    /// The frame a reference names, or `nil` when the token is unknown or names an alert or
    /// dialog (which have no frame).
    public func frame(_ ref: FrameRef) -> Frame? {
        guard let loc = resolve(ref) else { return nil }
        if loc.depth == 0 { return roots[loc.tab].root }
        return presentedBox(inTab: loc.tab, depth: loc.depth - 1)?.value.content
    }

    /// The navigation stack of the frame a reference names, bottom first; `nil` when it names no frame.
    public func path(of ref: FrameRef) -> [RouteRef]? { frame(ref)?.path }
}

extension FrameRef {
    /// A reference resolved against one state: the root it hangs from (``tab``), how many
    /// presentations deep it is (0 for a root frame), and the reference itself. Valid only for the
    /// state it was resolved against, until that state changes. Plain numbers, nothing counted:
    /// the reducer copies it freely (the tab id the digest terms take is looked up when they are
    /// computed, see ``NavigationState/tabID(at:)``).
    @usableFromInline
    struct Resolved {
        @usableFromInline var tab: Int
        @usableFromInline var depth: Int
        @usableFromInline var ref: FrameRef

        @inlinable init(tab: Int, depth: Int, ref: FrameRef) {
            self.tab = tab
            self.depth = depth
            self.ref = ref
        }
    }
}

extension NavigationState {
    /// The tab id the digest terms of the frame at `loc` take: its root's tab id, empty without
    /// tabs and for a presentation's content (whose terms name its token instead).
    @usableFromInline func tabID(at loc: FrameRef.Resolved) -> String {
        loc.depth == 0 && hasTabs ? roots[loc.tab].id : ""
    }
}

// MARK: - Walking the chain

extension NavigationState {
    /// The one walk over a presentation chain: calls `body` with each presentation of root `tab`'s
    /// chain, bottom first, as its box (nothing on the way is copied), its depth (0 = presented by
    /// the root) and the token of the presentation whose content presents it (0 at depth 0).
    /// Stops at, and returns, the first non-`nil` result.
    @inlinable @inline(__always)
    func walkChain<R>(tab: Int, _ body: (Indirect<Presentation>.Box, _ depth: Int, _ presenter: UInt64) -> R?) -> R? {
        guard var box = roots[tab].root._presented?.box else { return nil }
        var depth = 0
        var presenter: UInt64 = 0
        while true {
            if let r = body(box, depth, presenter) { return r }
            guard let next = box.value.content?._presented?.box else { return nil }
            presenter = box.value.token
            depth += 1
            box = next
        }
    }

    /// Where the frame presenting a presentation at `depth` of root `tab`'s chain is.
    @inlinable func presenterLocation(tab: Int, depth: Int, presenter: UInt64) -> FrameRef.Resolved {
        depth == 0
            ? FrameRef.Resolved(tab: tab, depth: 0, ref: .root)
            : FrameRef.Resolved(tab: tab, depth: depth, ref: .presentation(presenter))
    }

    @usableFromInline var rootLocation: FrameRef.Resolved { presenterLocation(tab: selectedIndex, depth: 0, presenter: 0) }

    /// The box of the top-most presentation and where the frame presenting it is.
    @inlinable func topBox() -> (box: Indirect<Presentation>.Box, loc: FrameRef.Resolved)? {
        var last: (Indirect<Presentation>.Box, Int, UInt64)?
        _ = walkChain(tab: selectedIndex) { box, depth, presenter -> Never? in
            last = (box, depth, presenter)
            return nil
        }
        guard let (box, depth, presenter) = last else { return nil }
        return (box, presenterLocation(tab: selectedIndex, depth: depth, presenter: presenter))
    }

    /// What the reducer reads of the top-most presentation, without copying it.
    @usableFromInline struct Top {
        @usableFromInline var token: UInt64
        @usableFromInline var style: PresentationStyle
        @usableFromInline var dismissible: Bool
        /// Where the frame presenting it is.
        @usableFromInline var loc: FrameRef.Resolved
    }

    /// The top-most presentation's fields and location; `routeID`, when given, is compared with the
    /// top's route id into `sameRoute` (so the caller never holds the box while it mutates).
    @usableFromInline func top(comparingRouteID routeID: String? = nil) -> (top: Top, sameRoute: Bool)? {
        guard let (box, loc) = topBox() else { return nil }
        let p = box.value
        return (Top(token: p.token, style: p.style, dismissible: p.dismissible, loc: loc),
                routeID.map { p.route.id == $0 } ?? false)
    }

    /// The active frame: the content of the top-most presentation; the frame presenting it when
    /// that is an alert or dialog; the root when nothing is presented.
    @usableFromInline var activeLocation: FrameRef.Resolved {
        guard let (top, _) = top() else { return rootLocation }
        if top.style.isLeaf { return top.loc }
        return FrameRef.Resolved(tab: selectedIndex, depth: top.loc.depth + 1, ref: .presentation(top.token))
    }

    /// Resolves an event's frame reference (`nil` = the active frame). A token resolves to the
    /// content of that presentation in any tab; an alert or dialog has no content and so no frame.
    @usableFromInline func resolve(_ ref: FrameRef?) -> FrameRef.Resolved? {
        switch ref {
        case nil: return activeLocation
        case .root: return rootLocation
        case .presentation(let token):
            guard let loc = locate(token: token) else { return nil }
            guard let box = presentedBox(at: loc), !box.value.style.isLeaf else { return nil }
            return FrameRef.Resolved(tab: loc.tab, depth: loc.depth + 1, ref: .presentation(token))
        }
    }

    /// Where the frame presenting `token` is, searching the selected tab first.
    @usableFromInline func locate(token: UInt64) -> FrameRef.Resolved? {
        if let loc = locate(token: token, inTab: selectedIndex) { return loc }
        for t in roots.indices where t != selectedIndex {
            if let loc = locate(token: token, inTab: t) { return loc }
        }
        return nil
    }

    @usableFromInline func locate(token: UInt64, inTab t: Int) -> FrameRef.Resolved? {
        walkChain(tab: t) { box, depth, presenter in
            box.value.token == token ? presenterLocation(tab: t, depth: depth, presenter: presenter) : nil
        }
    }

    /// The box of the presentation at `depth` of root `tab`'s chain.
    @inlinable func presentedBox(inTab tab: Int, depth: Int) -> Indirect<Presentation>.Box? {
        walkChain(tab: tab) { box, d, _ in d == depth ? box : nil }
    }

    /// The box of the presentation the frame at `loc` presents, if any.
    @usableFromInline func presentedBox(at loc: FrameRef.Resolved) -> Indirect<Presentation>.Box? {
        presentedBox(inTab: loc.tab, depth: loc.depth)
    }

    /// The number of routes on the stack of the frame at `loc`.
    @usableFromInline func pathCount(at loc: FrameRef.Resolved) -> Int {
        if loc.depth == 0 { return roots[loc.tab].root.path.count }
        return presentedBox(inTab: loc.tab, depth: loc.depth - 1)!.value.content!.path.count
    }

    @usableFromInline func presentsLeaf(_ loc: FrameRef.Resolved) -> Bool {
        presentedBox(at: loc)?.value.style.isLeaf ?? false
    }

    /// Mutates the frame at `loc` in place. The write-side counterpart of ``walkChain(tab:_:)``:
    /// it descends through `inout` frames so that every shared box on the way is copied first
    /// (copy-on-write), which a read walk must never do.
    @usableFromInline mutating func modifyFrame<R>(_ loc: FrameRef.Resolved, _ body: (inout Frame) -> R) -> R {
        Self.descend(&roots[loc.tab].root, depth: loc.depth, body)
    }

    @usableFromInline static func descend<R>(_ frame: inout Frame, depth: Int, _ body: (inout Frame) -> R) -> R {
        if depth == 0 { return body(&frame) }
        return frame.withPresented { p in descend(&p.content!, depth: depth - 1, body) }!
    }
}
