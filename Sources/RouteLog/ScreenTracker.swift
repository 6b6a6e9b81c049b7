@_spi(Tools) import RouteLogCore

// What is on screen beside the navigator's state, and the divergences between the two. The
// navigator holds one only once a screen has reported itself; before that a call pays one `nil`
// check. Its work per call is bounded by what changed and what is on screen (see `stateChanged`).

/// The screens on screen, the screens the state shows, and the disagreements waiting out the
/// grace period.
@MainActor
final class ScreenTracker {
    /// A disagreement found, reported once it has lasted the grace period.
    struct Pending {
        var kind: Divergence.Kind
        var seq: UInt64
        /// When it began (restarted when the navigator resumes or returns to the present).
        var since: Int64
        var cause: Divergence.Cause?
        var reported = false
    }

    /// The screens that reported themselves on screen, and when.
    private(set) var onScreen: [ScreenID: Int64] = [:]
    /// The screens the live state shows and that must be on screen, with the seq since which.
    private(set) var shown: [ScreenID: UInt64] = [:]
    private(set) var pending: [ScreenID: Pending] = [:]
    /// The earliest moment a pending disagreement can be reported, `nil` when none waits: a check
    /// before it does nothing.
    private var nextDeadline: Int64?
    private var selectedTab: String?
    /// The last change of the selected tab: its seq and when.
    private var tabSwitch: (seq: UInt64, at: Int64)?
    /// The grace period, in milliseconds.
    var grace: Int64 = 1000
    /// The reports so far (the last ``Navigator/maxDivergences``).
    private(set) var reports: [Divergence] = []
    var observers: [(id: UInt64, body: @MainActor (Divergence) -> Void)] = []
    private var nextObserverID: UInt64 = 0
    /// Whether a timer task waits to check.
    var timerScheduled = false

    init(state: NavigationState, seq: UInt64, now: Int64) {
        selectedTab = state.selectedTab
        stateChanged(state, seq: seq, now: now)
    }

    // MARK: Changes

    /// The live state changed at `seq` (an applied event). Compares the screens the state shows
    /// (the selected chain: at most a tab root and, per frame, one stack top and one presentation)
    /// with the previous ones, and checks each screen on screen against the state: the work is
    /// bounded by the presentation chain's depth and the number of screens on screen, never by the
    /// length of a path or of the session.
    func stateChanged(_ state: NavigationState, seq: UInt64, now: Int64) {
        let tab = state.selectedTab
        if tab != selectedTab {
            selectedTab = tab
            tabSwitch = (seq, now)
        }
        // Screens on screen that the state no longer has, or has again.
        var dismissing = false
        for id in onScreen.keys {
            let has = state.contains(id)
            if !has {
                if case .presentation = id { dismissing = true }
                if pending[id] == nil { add(id, Pending(kind: .stillOnScreen, seq: seq, since: now)) }
            } else if let p = pending[id], p.kind != .notOnScreen {
                pending[id] = nil
            }
        }
        let required = Self.requiredScreens(state)
        var next: [ScreenID: UInt64] = [:]
        next.reserveCapacity(required.count)
        for id in required {
            if let since = shown[id] {
                next[id] = since
                continue
            }
            next[id] = seq
            guard onScreen[id] == nil, pending[id] == nil else { continue }
            var cause: Divergence.Cause?
            if case .presentation = id, dismissing { cause = .presentedWhileDismissing }
            add(id, Pending(kind: .notOnScreen, seq: seq, since: now, cause: cause))
        }
        for id in shown.keys where next[id] == nil {
            if pending[id]?.kind == .notOnScreen { pending[id] = nil }
        }
        shown = next
    }

    /// A screen reported itself on screen (`id` already normalized).
    func appeared(_ id: ScreenID, state: NavigationState, head: UInt64, now: Int64) {
        guard onScreen[id] == nil else { return }
        onScreen[id] = now
        if pending[id]?.kind == .notOnScreen { pending[id] = nil }
        if pending[id] == nil && !state.contains(id) { add(id, Pending(kind: .unknownScreen, seq: head, since: now)) }
    }

    /// A screen reported itself gone: `id` as reported, or else `normalized` (a root entry reported
    /// on screen before the state had tabs names none).
    func disappeared(_ reported: ScreenID, normalized: ScreenID, head: UInt64, now: Int64) {
        let id = onScreen[reported] != nil ? reported : normalized
        guard onScreen.removeValue(forKey: id) != nil else { return }
        if let p = pending[id], p.kind != .notOnScreen { pending[id] = nil }
        if shown[id] != nil && pending[id] == nil {
            var cause: Divergence.Cause?
            if case .presentation = id { cause = .removedWithoutWrite }
            add(id, Pending(kind: .notOnScreen, seq: head, since: now, cause: cause))
        }
    }

    /// The grace period starts again for every disagreement not yet reported: the app was
    /// suspended, or showed a past state, meanwhile.
    func restartGrace(now: Int64) {
        nextDeadline = nil
        for (id, p) in pending where !p.reported {
            pending[id]!.since = now
            nextDeadline = now + grace
        }
    }

    private func add(_ id: ScreenID, _ p: Pending) {
        pending[id] = p
        let deadline = p.since + grace
        if nextDeadline.map({ deadline < $0 }) ?? true { nextDeadline = deadline }
    }

    /// Whether some disagreement waits to be reported.
    var isWaiting: Bool { nextDeadline != nil }
    /// How long until the next report can be due, in milliseconds.
    func wait(now: Int64) -> Int64? { nextDeadline.map { max(0, $0 - now) } }

    // MARK: Checking

    /// The disagreements that have lasted the grace period at `now`, as divergences (each once),
    /// in seq order. Does nothing before the earliest deadline.
    func check(_ state: NavigationState, now: Int64) -> [Divergence] {
        guard let deadline = nextDeadline, now >= deadline else { return [] }
        nextDeadline = nil
        var due: [ScreenID] = []
        for (id, p) in pending where !p.reported {
            if now - p.since >= grace { due.append(id) } else {
                let d = p.since + grace
                if nextDeadline.map({ d < $0 }) ?? true { nextDeadline = d }
            }
        }
        guard !due.isEmpty else { return [] }
        due.sort { a, b in
            let (pa, pb) = (pending[a]!, pending[b]!)
            return pa.seq != pb.seq ? pa.seq < pb.seq : a.description < b.description
        }
        var out: [Divergence] = []
        var stacks: [StackKey: [ScreenID]] = [:]
        var stackOrder: [StackKey] = []
        for id in due {
            guard let key = id.stackKey else { continue }
            if stacks[key] == nil { stackOrder.append(key) }
            stacks[key, default: []].append(id)
        }
        // A stack whose screens disagree: one report for the stack when its depth on screen is not
        // its path's, none when the presentation holding it is itself still on screen.
        for key in stackOrder {
            let ids = stacks[key]!
            if case .presentation(let token) = key.frame,
               pending.contains(where: { if case .presentation(token, _) = $0.key { $0.value.kind == .stillOnScreen } else { false } }) {
                for id in ids { pending[id]!.reported = true }
                continue
            }
            let visible = visibleTop(of: key)
            guard let top = visible, let depth = state.pathCount(key), top.index + 1 != depth else { continue }
            let seq = ids.map { pending[$0]!.seq }.max()!
            let cause = ids.lazy.compactMap { self.tabSwitchCause(self.pending[$0]!) }.first
            for id in ids { pending[id]!.reported = true }
            out.append(Divergence(kind: .depthMismatch, screen: top.id, seq: seq, cause: cause, visibleDepth: top.index + 1,
                                  stateDepth: depth, detectedAt: now))
        }
        for id in due where !pending[id]!.reported {
            var p = pending[id]!
            p.reported = true
            pending[id] = p
            var cause = p.cause
            if cause == nil, id.stackKey != nil { cause = tabSwitchCause(p) }
            out.append(Divergence(kind: p.kind, screen: id, seq: p.seq, cause: cause, detectedAt: now))
        }
        out.sort { a, b in a.seq != b.seq ? a.seq < b.seq : a.description < b.description }
        for d in out {
            if reports.count == maxDivergencesKept { reports.removeFirst() }
            reports.append(d)
        }
        return out
    }

    /// A path write within the grace period after a tab switch (not the switch itself).
    private func tabSwitchCause(_ p: Pending) -> Divergence.Cause? {
        guard p.kind != .unknownScreen, let s = tabSwitch, p.seq > s.seq, p.since >= s.at, p.since - s.at <= grace else { return nil }
        return .pathWriteDuringTabSwitch
    }

    /// The top-most entry of a stack on screen.
    private func visibleTop(of key: StackKey) -> (id: ScreenID, index: Int)? {
        var best: (id: ScreenID, index: Int)?
        for id in onScreen.keys {
            guard case .stackEntry(let frame, let index, _, let tab) = id, frame == key.frame, tab == key.tab else { continue }
            if best.map({ index > $0.index }) ?? true { best = (id, index) }
        }
        return best
    }

    func addObserver(_ body: @escaping @MainActor (Divergence) -> Void) -> UInt64 {
        nextObserverID += 1
        observers.append((nextObserverID, body))
        return nextObserverID
    }

    func removeObserver(_ id: UInt64) {
        observers.removeAll { $0.id == id }
    }

    // MARK: What the state shows

    /// The screens the state shows that must be on screen: the selected tab's root, and along the
    /// selected chain each frame's top stack entry and each presentation other than an alert or
    /// confirmation dialog (SwiftUI gives those no appearance of their own). What a full-screen
    /// cover hides is not required (it may leave the screen), though the state still has it.
    static func requiredScreens(_ state: NavigationState) -> [ScreenID] {
        var out: [ScreenID] = []
        let tab = state.selectedTab
        if let tab { out.append(.tabRoot(tab)) }
        let rootPath = state.root.path
        if let last = rootPath.last { out.append(.stackEntry(frame: .root, index: rootPath.count - 1, routeID: last.id, tab: tab)) }
        for p in state.presentationChain {
            if p.style.isLeaf { continue }
            if p.style == .fullScreenCover { out.removeAll(keepingCapacity: true) }
            out.append(.presentation(token: p.token, routeID: p.route.id))
            if let path = p.content?.path, let last = path.last {
                out.append(.stackEntry(frame: .presentation(p.token), index: path.count - 1, routeID: last.id))
            }
        }
        return out
    }
}

/// How many divergences a navigator keeps (``Navigator/maxDivergences``).
let maxDivergencesKept = 100

extension NavigationState {
    /// Whether the state has `screen` (anywhere, shown or not).
    func contains(_ screen: ScreenID) -> Bool {
        switch screen {
        case .presentation(let token, let routeID):
            return presentation(token: token)?.route.id == routeID
        case .stackEntry(_, let index, let routeID, _):
            guard let key = screen.stackKey, let path = path(of: key), path.indices.contains(index) else { return false }
            return path[index].id == routeID
        case .tabRoot(let id):
            return tabs?.contains { $0.id == id } ?? false
        }
    }

    /// The path of a stack, `nil` when the state has no such stack.
    func path(of key: StackKey) -> [RouteRef]? {
        if case .root = key.frame, let tab = key.tab {
            return tabs?.first { $0.id == tab }?.root.path
        }
        return path(of: key.frame)
    }

    func pathCount(_ key: StackKey) -> Int? { path(of: key)?.count }

    /// `screen` as the tracker keeps it: a root stack entry that names no tab names the selected
    /// one when the state has tabs; an entry of a presentation's stack names none.
    func normalized(_ screen: ScreenID) -> ScreenID {
        guard case .stackEntry(let frame, let index, let routeID, let tab) = screen else { return screen }
        switch frame {
        case .root: return tab == nil && hasTabs ? .stackEntry(frame: .root, index: index, routeID: routeID, tab: selectedTab) : screen
        case .presentation: return tab == nil ? screen : .stackEntry(frame: frame, index: index, routeID: routeID)
        }
    }
}
