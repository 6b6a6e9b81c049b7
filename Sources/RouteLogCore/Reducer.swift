/// Where a frame sits in the state: a root frame (depth 0) or the content of the `depth`-th
/// presentation of that root's chain.
@usableFromInline
struct FrameLocation {
    @usableFromInline var tab: Int
    @usableFromInline var depth: Int
    @usableFromInline var address: FrameAddress
}

extension NavigationState {
    /// Applies one event: the reducer.
    ///
    /// Total, pure and deterministic: it reads only the state and the event, never a clock, and
    /// every event yields an ``Outcome``. A rejected event leaves the state unchanged.
    ///
    /// - Parameters:
    ///   - event: the event to apply.
    ///   - seq: the event's sequence number in its session (1-based, increasing). A presentation
    ///     created by this event takes `seq` as its token.
    /// - Returns: `applied` (possibly `updatedInPlace`) or `rejected(reason)`.
    @discardableResult
    public mutating func apply(_ event: Event, seq: UInt64) -> Outcome {
        apply(event, seq: seq, keepingDigest: true)
    }

    /// Applies one event without maintaining the digest: the pure fold, for measuring what the
    /// digest costs. Outcomes and the resulting state are the same as ``apply(_:seq:)``'s, but the
    /// state's ``digest`` is left stale (``computeDigest()`` still gives the right one).
    @_spi(Benchmarks)
    @discardableResult
    public mutating func applyWithoutDigest(_ event: Event, seq: UInt64) -> Outcome {
        apply(event, seq: seq, keepingDigest: false)
    }

    /// The reducer; `keepingDigest == false` skips every digest term (see ``applyWithoutDigest(_:seq:)``).
    @inline(__always)
    mutating func apply(_ event: Event, seq: UInt64, keepingDigest: Bool) -> Outcome {
        // Only a hand-built state with a missing selected tab fails this; `validate()` names it.
        guard roots.indices.contains(selectedIndex) else { return .rejected(.invalidState) }
        switch event {
        case .push(let route, let frame):
            if route.id.isEmpty { return .rejected(.emptyRouteID) }
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            var term = Digest.zero
            modifyFrame(loc) { f in
                if keepingDigest { term = Digest.pathTerm(loc.address, index: f.path.count, route: route) }
                f.path.append(route)
            }
            digestSum += term
            return .applied(.changed)

        case .pop(let count, let frame):
            if count < 1 { return .rejected(.invalidCount) }
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            if count > pathCount(at: loc) { return .rejected(.stackTooShort) }
            removeLast(count, at: loc, keepingDigest: keepingDigest)
            return .applied(.changed)

        case .popToRoot(let frame):
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            let n = pathCount(at: loc)
            if n == 0 { return .rejected(.alreadyAtRoot) }
            removeLast(n, at: loc, keepingDigest: keepingDigest)
            return .applied(.changed)

        case .show(let route, let style, let dismissible, let placement):
            if route.id.isEmpty { return .rejected(.emptyRouteID) }
            let new = Presentation(token: seq, route: route, style: style, dismissible: dismissible)
            switch placement {
            case .in(let ref):
                guard let loc = resolve(ref) else { return .rejected(.unknownFrame) }
                return present(new, at: loc, keepingDigest: keepingDigest)
            case .replacingTop:
                if let (top, _) = top() { return present(new, at: top.loc, keepingDigest: keepingDigest) }
                return present(new, at: rootLocation, keepingDigest: keepingDigest)
            case .onTop:
                guard let (top, sameRoute) = top(comparingRouteID: route.id) else { return present(new, at: rootLocation, keepingDigest: keepingDigest) }
                if sameRoute && top.style == style { return present(new, at: top.loc, keepingDigest: keepingDigest) }
                if top.style.isLeaf { return .rejected(.blockedByAlert) }
                return present(new, at: FrameLocation(tab: selectedIndex, depth: top.loc.depth + 1, address: .content(top.token)), keepingDigest: keepingDigest)
            }

        case .dismiss(let target):
            switch target {
            case .top:
                guard let (top, _) = top() else { return .rejected(.nothingToDismiss) }
                removePresentation(at: top.loc, keepingDigest: keepingDigest)
            case .token(let token):
                guard let loc = locate(token: token) else { return .rejected(.unknownToken) }
                removePresentation(at: loc, keepingDigest: keepingDigest)
            case .all:
                if roots[selectedIndex].root.presented == nil { return .rejected(.nothingToDismiss) }
                removePresentation(at: rootLocation, keepingDigest: keepingDigest)
            }
            return .applied(.changed)

        case .interactiveDismiss(let token):
            guard let (top, _) = top() else { return .rejected(.stale) }
            if let token, token != top.token { return .rejected(.stale) }
            if !top.style.allowsInteractiveDismiss { return .rejected(.notInteractive) }
            if !top.dismissible { return .rejected(.notDismissible) }
            removePresentation(at: top.loc, keepingDigest: keepingDigest)
            return .applied(.changed)

        case .setTabs(let ids, let selected):
            if ids.isEmpty || ids.contains(where: \.isEmpty) || Self.hasDuplicates(ids) { return .rejected(.invalidTabs) }
            if let selected, !ids.contains(selected) { return .rejected(.unknownTab) }
            setTabs(ids, selected: selected, keepingDigest: keepingDigest)
            return .applied(.changed)

        case .selectTab(let id):
            if id.isEmpty { return .rejected(.invalidTabs) }
            guard hasTabs, let index = roots.firstIndex(where: { $0.id == id }) else { return .rejected(.unknownTab) }
            if keepingDigest { digestSum -= Digest.layoutTerm(of: self) }
            selectedIndex = index
            if keepingDigest { digestSum += Digest.layoutTerm(of: self) }
            return .applied(.changed)

        case .reset(let state):
            if !state.validate().isEmpty { return .rejected(.invalidState) }
            if let max = state.allTokens().max(), max > seq { return .rejected(.invalidState) }
            self = state
            if keepingDigest { digestSum = Digest.terms(of: state) }
            return .applied(.changed)
        }
    }

    // MARK: - Locating frames

    @usableFromInline var rootLocation: FrameLocation {
        FrameLocation(tab: selectedIndex, depth: 0, address: .root(hasTabs ? roots[selectedIndex].id : ""))
    }

    /// The top-most presentation of the selected chain and the location of the frame presenting it.
    @usableFromInline func topPresentation() -> (Presentation, FrameLocation)? {
        guard let (box, loc) = topBox() else { return nil }
        return (box.value, loc)
    }

    /// What the reducer reads of the top-most presentation, without copying it.
    @usableFromInline struct Top {
        @usableFromInline var token: UInt64
        @usableFromInline var style: PresentationStyle
        @usableFromInline var dismissible: Bool
        /// The location of the frame presenting it.
        @usableFromInline var loc: FrameLocation
    }

    /// The top-most presentation's fields and location; `routeID`, when given, is compared with the
    /// top's route id into `sameRoute` (so the caller never holds the box while it mutates).
    @usableFromInline func top(comparingRouteID routeID: String? = nil) -> (top: Top, sameRoute: Bool)? {
        guard let (box, loc) = topBox() else { return nil }
        let p = box
        return (Top(token: p.value.token, style: p.value.style, dismissible: p.value.dismissible, loc: loc),
                routeID.map { p.value.route.id == $0 } ?? false)
    }

    /// The box of the top-most presentation and the location of the frame presenting it, walking
    /// the boxes so that nothing on the way is copied.
    @usableFromInline func topBox() -> (Indirect<Presentation>.Box, FrameLocation)? {
        guard var box = roots[selectedIndex].root._presented?.box else { return nil }
        var depth = 0
        var presenter: UInt64 = 0
        while let next = box.value.content?._presented?.box {
            presenter = box.value.token
            depth += 1
            box = next
        }
        if depth == 0 { return (box, rootLocation) }
        return (box, FrameLocation(tab: selectedIndex, depth: depth, address: .content(presenter)))
    }

    /// The active frame: the content of the top-most presentation; the frame presenting it when
    /// that is an alert or dialog; the root when nothing is presented.
    @usableFromInline var activeLocation: FrameLocation {
        guard let (top, _) = top() else { return rootLocation }
        if top.style.isLeaf { return top.loc }
        return FrameLocation(tab: selectedIndex, depth: top.loc.depth + 1, address: .content(top.token))
    }

    /// Resolves an event's frame reference (`nil` = the active frame). A token resolves to the
    /// content of that presentation in any tab; an alert or dialog has no content and so no frame.
    @usableFromInline func resolve(_ ref: FrameRef?) -> FrameLocation? {
        switch ref {
        case nil: return activeLocation
        case .root: return rootLocation
        case .presentation(let token):
            guard let loc = locate(token: token) else { return nil }
            guard let box = presentedBox(at: loc), !box.value.style.isLeaf else { return nil }
            return FrameLocation(tab: loc.tab, depth: loc.depth + 1, address: .content(token))
        }
    }

    /// The location of the frame presenting `token`, searching the selected tab first.
    @usableFromInline func locate(token: UInt64) -> FrameLocation? {
        if let loc = locate(token: token, inTab: selectedIndex) { return loc }
        for t in roots.indices where t != selectedIndex {
            if let loc = locate(token: token, inTab: t) { return loc }
        }
        return nil
    }

    @usableFromInline func locate(token: UInt64, inTab t: Int) -> FrameLocation? {
        guard var box = roots[t].root._presented?.box else { return nil }
        var depth = 0
        var presenter: UInt64 = 0
        while true {
            if box.value.token == token {
                let address: FrameAddress = depth == 0 ? .root(hasTabs ? roots[t].id : "") : .content(presenter)
                return FrameLocation(tab: t, depth: depth, address: address)
            }
            guard let next = box.value.content?._presented?.box else { return nil }
            presenter = box.value.token
            depth += 1
            box = next
        }
    }

    /// The box of the presentation the frame at `loc` presents, if any, reached without copying frames.
    @usableFromInline func presentedBox(at loc: FrameLocation) -> Indirect<Presentation>.Box? {
        guard var box = roots[loc.tab].root._presented?.box else { return nil }
        for _ in 0..<loc.depth {
            guard let next = box.value.content?._presented?.box else { return nil }
            box = next
        }
        return box
    }

    /// The number of routes on the stack of the frame at `loc`.
    @usableFromInline func pathCount(at loc: FrameLocation) -> Int {
        if loc.depth == 0 { return roots[loc.tab].root.path.count }
        var box = roots[loc.tab].root._presented!.box
        for _ in 1..<loc.depth { box = box.value.content!._presented!.box }
        return box.value.content!.path.count
    }

    @usableFromInline func presentsLeaf(_ loc: FrameLocation) -> Bool {
        presentedBox(at: loc)?.value.style.isLeaf ?? false
    }

    @usableFromInline mutating func modifyFrame<R>(_ loc: FrameLocation, _ body: (inout Frame) -> R) -> R {
        Self.modify(&roots[loc.tab].root, depth: loc.depth, body)
    }

    @usableFromInline static func modify<R>(_ frame: inout Frame, depth: Int, _ body: (inout Frame) -> R) -> R {
        if depth == 0 { return body(&frame) }
        return frame.withPresented { p in modify(&p.content!, depth: depth - 1, body) }!
    }

    // MARK: - Mutations that keep the digest

    @usableFromInline mutating func removeLast(_ count: Int, at loc: FrameLocation, keepingDigest: Bool = true) {
        var removed = Digest.zero
        modifyFrame(loc) { f in
            let start = f.path.count - count
            if keepingDigest { for i in start..<f.path.count { removed += Digest.pathTerm(loc.address, index: i, route: f.path[i]) } }
            f.path.removeLast(count)
        }
        digestSum -= removed
    }

    /// Presents `new` from the frame at `loc`, replacing what it presents, or updates the current
    /// presentation in place when it has the same id and style.
    @usableFromInline mutating func present(_ new: Presentation, at loc: FrameLocation, keepingDigest: Bool = true) -> Outcome {
        if loc.depth >= Self.maxChainDepth {
            let old = presentedBox(at: loc)?.value
            if old?.route.id != new.route.id || old?.style != new.style { return .rejected(.chainTooDeep) }
        }
        var delta = (add: Digest.zero, remove: Digest.zero)
        var inPlace = false
        modifyFrame(loc) { f in
            if let old = f.presented {
                if keepingDigest { delta.remove += Digest.presentationTerm(loc.address, old) }
                if old.route.id == new.route.id && old.style == new.style {
                    inPlace = true
                    f.withPresented { p in
                        p.route = new.route
                        p.dismissible = new.dismissible
                        if keepingDigest { delta.add += Digest.presentationTerm(loc.address, p) }
                    }
                    return
                }
                if keepingDigest, let c = old.content { delta.remove += Digest.terms(of: c, at: .content(old.token)) }
            }
            f.presented = new
            if keepingDigest { delta.add += Digest.presentationTerm(loc.address, new) }
        }
        digestSum += delta.add
        digestSum -= delta.remove
        return .applied(inPlace ? .updatedInPlace : .changed)
    }

    @usableFromInline mutating func removePresentation(at loc: FrameLocation, keepingDigest: Bool = true) {
        var removed = Digest.zero
        modifyFrame(loc) { f in
            guard let old = f.presented else { return }
            guard keepingDigest else { f.presented = nil; return }
            removed += Digest.presentationTerm(loc.address, old)
            if let c = old.content { removed += Digest.terms(of: c, at: .content(old.token)) }
            f.presented = nil
        }
        digestSum -= removed
    }

    mutating func setTabs(_ ids: [String], selected: String?, keepingDigest: Bool = true) {
        if hasTabs {
            // A handful of tabs is the norm: a linear search beats hashing every id.
            var byID: [String: Frame] = [:]
            let linear = roots.count <= 16
            if !linear { for tab in roots { byID[tab.id] = tab.root } }
            let current = roots[selectedIndex].id
            if keepingDigest {
                var removed = Digest.layoutTerm(of: self)
                for tab in roots where !ids.contains(tab.id) { removed += Digest.terms(of: tab.root, at: .root(tab.id)) }
                digestSum -= removed
            }
            let old = roots
            roots = ids.map { id in
                Tab(id: id, root: (linear ? old.last(where: { $0.id == id })?.root : byID[id]) ?? Frame())
            }
            let sel = selected ?? (ids.contains(current) ? current : ids[0])
            selectedIndex = ids.firstIndex(of: sel)!
            if keepingDigest { digestSum += Digest.layoutTerm(of: self) }
        } else {
            let sel = selected ?? ids[0]
            let old = roots[selectedIndex].root
            if keepingDigest { digestSum -= Digest.layoutTerm(of: self) + Digest.terms(of: old, at: .root("")) }
            roots = ids.map { Tab(id: $0, root: $0 == sel ? old : Frame()) }
            selectedIndex = ids.firstIndex(of: sel)!
            hasTabs = true
            if keepingDigest { digestSum += Digest.layoutTerm(of: self) + Digest.terms(of: old, at: .root(sel)) }
        }
    }

    /// Whether `ids` holds an id twice (pairwise for a few ids, a set for many).
    static func hasDuplicates(_ ids: [String]) -> Bool {
        if ids.count > 16 { return Set(ids).count != ids.count }
        for i in ids.indices {
            for j in ids.index(after: i)..<ids.endIndex where ids[i] == ids[j] { return true }
        }
        return false
    }

    // MARK: - Invariants

    /// The most presentations one chain may hold. Deeper nesting is no app's navigation; the limit
    /// keeps every walk over a state shallow enough for any thread's stack (sanitizer builds and
    /// 512 KiB secondary threads included), and every state storable (``BinaryCodec/maxNesting``)
    /// and exportable as JSON (``JSONValue/maxDepth``).
    public static let maxChainDepth = 255

    /// Every presentation token in the state, in tree order.
    public func allTokens() -> [UInt64] {
        var out: [UInt64] = []
        func walk(_ f: Frame) {
            guard let p = f.presented else { return }
            out.append(p.token)
            if let c = p.content { walk(c) }
        }
        for tab in roots { walk(tab.root) }
        return out
    }

    /// Checks the invariants and returns every violation (empty when the state is valid):
    /// leaves have no content and other styles have one; tokens are unique; the selected tab
    /// exists; tab ids are non-empty and unique; route ids are non-empty.
    public func validate() -> [Violation] {
        var out: [Violation] = []
        var seen = Set<UInt64>()
        func walk(_ f: Frame, _ at: String) {
            for (i, r) in f.path.enumerated() where r.id.isEmpty { out.append(Violation(path: "\(at).path[\(i)].id", problem: "empty route id")) }
            guard let p = f.presented else { return }
            let here = "presented#\(p.token)"
            if !seen.insert(p.token).inserted { out.append(Violation(path: here, problem: "token \(p.token) is used twice")) }
            if p.route.id.isEmpty { out.append(Violation(path: "\(here).route.id", problem: "empty route id")) }
            if p.style.isLeaf, p.content != nil { out.append(Violation(path: "\(here).content", problem: "\(p.style.rawValue) is a leaf and cannot have content")) }
            if !p.style.isLeaf, p.content == nil { out.append(Violation(path: "\(here).content", problem: "\(p.style.rawValue) needs a content frame")) }
            if let c = p.content { walk(c, here) }
        }
        if hasTabs {
            if roots.isEmpty { out.append(Violation(path: "tabs", problem: "no tabs")) }
            var ids = Set<String>()
            for tab in roots {
                if tab.id.isEmpty { out.append(Violation(path: "tabs[]", problem: "empty tab id")) }
                if !ids.insert(tab.id).inserted { out.append(Violation(path: "tabs[\(tab.id)]", problem: "duplicate tab id")) }
            }
            if !roots.indices.contains(selectedIndex) { out.append(Violation(path: "selectedTab", problem: "the selected tab does not exist")) }
        }
        for tab in roots {
            walk(tab.root, hasTabs ? "tabs[\(tab.id)]" : "root")
            var depth = 0, frame = tab.root
            while let p = frame.presented {
                depth += 1
                guard let c = p.content else { break }
                frame = c
            }
            if depth > Self.maxChainDepth {
                out.append(Violation(path: hasTabs ? "tabs[\(tab.id)]" : "root", problem: "\(depth) nested presentations, more than \(Self.maxChainDepth)"))
            }
        }
        return out
    }

    /// One broken invariant, addressed by a readable path.
    public struct Violation: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var problem: String
        public var description: String { "\(path): \(problem)" }
    }
}
