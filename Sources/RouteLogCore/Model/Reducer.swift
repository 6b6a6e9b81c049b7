extension NavigationState {
    /// A reducer as a value: applies one event (with its seq) to a state and returns the outcome.
    /// ``apply(_:seq:)`` is the current one; the tools' `verify` takes another to show that a
    /// changed rule is caught.
    @_spi(Tools) public typealias Reducer = (inout NavigationState, Event, UInt64) -> Outcome

    /// Applies one event: the reducer.
    ///
    /// Total, pure and deterministic: it reads only the state and the event, never a clock, and
    /// every event yields an ``Outcome``. A rejected event leaves the state unchanged. The state's
    /// ``digest`` is kept up to date as the event changes it (see ``Digest``).
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

    /// Applies one event as ``apply(_:seq:)`` does, with the same outcome and state, but without
    /// keeping the digest up to date: ``digest`` is stale after it until ``refreshDigest()``.
    /// A fold that needs the digest only at its end (a store checking a batch its caller folded)
    /// skips the hashing of every term the events add and remove.
    @_spi(Tools) @discardableResult
    public mutating func applyWithoutDigest(_ event: Event, seq: UInt64) -> Outcome {
        apply(event, seq: seq, keepingDigest: false)
    }

    /// Recomputes ``digest`` from scratch (after ``applyWithoutDigest(_:seq:)``) and returns it.
    @_spi(Tools) @discardableResult
    public mutating func refreshDigest() -> Digest {
        digestSum = computeDigest()
        return digestSum
    }

    /// The reducer; `keep` says whether the digest is kept up to date (a constant at each call, so
    /// each caller's copy has no branch left on it).
    @inline(__always)
    mutating func apply(_ event: Event, seq: UInt64, keepingDigest keep: Bool) -> Outcome {
        // Only a hand-built state with a missing selected tab fails this; `validate()` names it.
        guard roots.indices.contains(selectedIndex) else { return .rejected(.invalidState) }
        switch event {
        case .push(let route, let frame):
            if route.id.isEmpty { return .rejected(.emptyRouteID) }
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            var term = Digest.zero
            let tabID = keep ? tabID(at: loc) : ""
            modifyFrame(loc) { f in
                if keep { term = Digest.pathTerm(loc.ref, tabID: tabID, index: f.path.count, route: route) }
                f.path.append(route)
            }
            if keep { digestSum += term }
            return .applied(.changed)

        case .pop(let count, let frame):
            if count < 1 { return .rejected(.invalidCount) }
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            if count > pathCount(at: loc) { return .rejected(.stackTooShort) }
            removeLast(count, at: loc, keepingDigest: keep)
            return .applied(.changed)

        case .popToRoot(let frame):
            guard let loc = resolve(frame) else { return .rejected(.unknownFrame) }
            if presentsLeaf(loc) { return .rejected(.blockedByAlert) }
            let n = pathCount(at: loc)
            if n == 0 { return .rejected(.alreadyAtRoot) }
            removeLast(n, at: loc, keepingDigest: keep)
            return .applied(.changed)

        case .show(let route, let style, let dismissible, let placement):
            if route.id.isEmpty { return .rejected(.emptyRouteID) }
            let new = Presentation(token: seq, route: route, style: style, dismissible: dismissible)
            switch placement {
            case .in(let ref):
                guard let loc = resolve(ref) else { return .rejected(.unknownFrame) }
                return present(new, at: loc, keepingDigest: keep)
            case .replacingTop:
                if let (top, _) = top() { return present(new, at: top.loc, keepingDigest: keep) }
                return present(new, at: rootLocation, keepingDigest: keep)
            case .onTop:
                guard let (top, sameRoute) = top(comparingRouteID: route.id) else { return present(new, at: rootLocation, keepingDigest: keep) }
                if sameRoute && top.style == style { return present(new, at: top.loc, keepingDigest: keep) }
                if top.style.isLeaf { return .rejected(.blockedByAlert) }
                return present(new, at: FrameRef.Resolved(tab: selectedIndex, depth: top.loc.depth + 1, ref: .presentation(top.token)), keepingDigest: keep)
            }

        case .dismiss(let target):
            switch target {
            case .top:
                guard let (top, _) = top() else { return .rejected(.nothingToDismiss) }
                removePresentation(at: top.loc, keepingDigest: keep)
            case .token(let token):
                guard let loc = locate(token: token) else { return .rejected(.unknownToken) }
                removePresentation(at: loc, keepingDigest: keep)
            case .all:
                if roots[selectedIndex].root.presented == nil { return .rejected(.nothingToDismiss) }
                removePresentation(at: rootLocation, keepingDigest: keep)
            }
            return .applied(.changed)

        case .interactiveDismiss(let token):
            guard let (top, _) = top() else { return .rejected(.stale) }
            if let token, token != top.token { return .rejected(.stale) }
            if !top.style.allowsInteractiveDismiss { return .rejected(.notInteractive) }
            if !top.dismissible { return .rejected(.notDismissible) }
            removePresentation(at: top.loc, keepingDigest: keep)
            return .applied(.changed)

        case .setTabs(let ids, let selected):
            if ids.isEmpty || ids.contains(where: \.isEmpty) || Self.hasDuplicates(ids) { return .rejected(.invalidTabs) }
            if let selected, !ids.contains(selected) { return .rejected(.unknownTab) }
            setTabs(ids, selected: selected, keepingDigest: keep)
            return .applied(.changed)

        case .selectTab(let id):
            if id.isEmpty { return .rejected(.invalidTabs) }
            guard hasTabs, let index = roots.firstIndex(where: { $0.id == id }) else { return .rejected(.unknownTab) }
            if keep { digestSum -= Digest.layoutTerm(of: self) }
            selectedIndex = index
            if keep { digestSum += Digest.layoutTerm(of: self) }
            return .applied(.changed)

        case .reset(let state):
            if !state.validate().isEmpty { return .rejected(.invalidState) }
            if let max = state.allTokens().max(), max > seq { return .rejected(.invalidState) }
            self = state
            if keep { digestSum = Digest.terms(of: state) }
            return .applied(.changed)
        }
    }

    // MARK: - Mutations that keep the digest

    @usableFromInline mutating func removeLast(_ count: Int, at loc: FrameRef.Resolved, keepingDigest keep: Bool = true) {
        var removed = Digest.zero
        let tabID = keep ? tabID(at: loc) : ""
        modifyFrame(loc) { f in
            let start = f.path.count - count
            if keep {
                for i in start..<f.path.count { removed += Digest.pathTerm(loc.ref, tabID: tabID, index: i, route: f.path[i]) }
            }
            f.path.removeLast(count)
        }
        if keep { digestSum -= removed }
    }

    /// Presents `new` from the frame at `loc`, replacing what it presents, or updates the current
    /// presentation in place when it has the same id and style.
    @usableFromInline mutating func present(_ new: Presentation, at loc: FrameRef.Resolved, keepingDigest keep: Bool = true) -> Outcome {
        if loc.depth >= Self.maxChainDepth {
            let old = presentedBox(at: loc)?.value
            if old?.route.id != new.route.id || old?.style != new.style { return .rejected(.chainTooDeep) }
        }
        var delta = (add: Digest.zero, remove: Digest.zero)
        var inPlace = false
        let tabID = keep ? tabID(at: loc) : ""
        modifyFrame(loc) { f in
            if let old = f.presented {
                if keep { delta.remove += Digest.presentationTerm(loc.ref, tabID: tabID, old) }
                if old.route.id == new.route.id && old.style == new.style {
                    inPlace = true
                    f.withPresented { p in
                        p.route = new.route
                        p.dismissible = new.dismissible
                        if keep { delta.add += Digest.presentationTerm(loc.ref, tabID: tabID, p) }
                    }
                    return
                }
                if keep, let c = old.content { delta.remove += Digest.terms(of: c, at: .presentation(old.token), tabID: "") }
            }
            f.presented = new
            if keep { delta.add += Digest.presentationTerm(loc.ref, tabID: tabID, new) }
        }
        if keep {
            digestSum += delta.add
            digestSum -= delta.remove
        }
        return .applied(inPlace ? .updatedInPlace : .changed)
    }

    @usableFromInline mutating func removePresentation(at loc: FrameRef.Resolved, keepingDigest keep: Bool = true) {
        var removed = Digest.zero
        let tabID = keep ? tabID(at: loc) : ""
        modifyFrame(loc) { f in
            guard let old = f.presented else { return }
            if keep {
                removed += Digest.presentationTerm(loc.ref, tabID: tabID, old)
                if let c = old.content { removed += Digest.terms(of: c, at: .presentation(old.token), tabID: "") }
            }
            f.presented = nil
        }
        if keep { digestSum -= removed }
    }

    mutating func setTabs(_ ids: [String], selected: String?, keepingDigest keep: Bool = true) {
        if hasTabs {
            // A handful of tabs is the norm: a linear search beats hashing every id.
            var byID: [String: Frame] = [:]
            let linear = roots.count <= 16
            if !linear { for tab in roots { byID[tab.id] = tab.root } }
            let current = roots[selectedIndex].id
            if keep {
                var removed = Digest.layoutTerm(of: self)
                for tab in roots where !ids.contains(tab.id) { removed += Digest.terms(of: tab.root, at: .root, tabID: tab.id) }
                digestSum -= removed
            }
            let old = roots
            roots = ids.map { id in
                Tab(id: id, root: (linear ? old.last(where: { $0.id == id })?.root : byID[id]) ?? Frame())
            }
            let sel = selected ?? (ids.contains(current) ? current : ids[0])
            selectedIndex = ids.firstIndex(of: sel)!
            if keep { digestSum += Digest.layoutTerm(of: self) }
        } else {
            let sel = selected ?? ids[0]
            let old = roots[selectedIndex].root
            if keep { digestSum -= Digest.layoutTerm(of: self) + Digest.terms(of: old, at: .root, tabID: "") }
            roots = ids.map { Tab(id: $0, root: $0 == sel ? old : Frame()) }
            selectedIndex = ids.firstIndex(of: sel)!
            hasTabs = true
            if keep { digestSum += Digest.layoutTerm(of: self) + Digest.terms(of: old, at: .root, tabID: sel) }
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
    @_spi(Tools) public static let maxChainDepth = 255

    /// Every presentation token in the state, in tree order.
    @_spi(Tools) public func allTokens() -> [UInt64] {
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
    @_spi(Tools) public func validate() -> [Violation] {
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
    @_spi(Tools) public struct Violation: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var problem: String
        public var description: String { "\(path): \(problem)" }
    }
}
