@_spi(Tools) import RouteLogCore

// What is on screen beside the navigator's state, and the divergences between the two. The
// navigator holds one only once a screen has reported itself; before that a call pays one `nil`
// check. Its work per call is bounded by what changed and what is on screen (see `stateChanged`).

/// The screens on screen, the screens the state shows, and the disagreements waiting out the
/// grace period.
///
/// Each screen it knows of (on screen, shown by the state, or with a disagreement pending) has one
/// place in three small parallel arrays (its id, a number made of its kind, token and index, and
/// its ``Slot``), found by comparing the numbers, then the ids: there are a handful, where a
/// dictionary would hash every route id on every lookup. Nothing here depends on the order of the
/// places: what reaches a divergence is sorted, or a minimum.
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

    /// What the tracker knows of a screen (at least one of on screen, shown, pending): a plain
    /// value, which the loops over screens copy and write without touching a reference count.
    struct Slot {
        /// When it reported itself on screen; `nil` while it is not.
        var appearedAt: Int64?
        /// Whether the live state shows it and it must be on screen (one of its required screens).
        var shown = false
        var pending: Pending?
        /// Scratch for ``Book/stateChanged(_:seq:now:)``: whether the new state requires it.
        var required = false

        var isOnScreen: Bool { appearedAt != nil }
        var isEmpty: Bool { appearedAt == nil && !shown && pending == nil }
    }

    /// What the tracker knows, as one value: a change is one access to the tracker's storage (a
    /// class's stored properties are checked for exclusive access at run time, at every access).
    private var book = Book()
    /// The reports so far (the last ``Navigator/maxDivergences``).
    private(set) var reports: [Divergence] = []
    var observers: [(id: UInt64, body: @MainActor (Divergence) -> Void)] = []
    private var nextObserverID: UInt64 = 0
    /// Whether a timer task waits to check.
    var timerScheduled = false

    /// Screen records made since the navigator last handed them to its recorder, oldest first.
    var unsent: [ScreenRecord] = []
    /// When the navigator last handed records over (its clock, ms).
    var lastSent: Int64 = .min
    /// A call hands the records over once this many wait, or ``sendInterval`` ms after the last
    /// hand-off.
    static let sendCount = 64
    static let sendInterval: Int64 = 100
    /// The navigator's head: the seq of its last recorded call (kept here, so that a report reads
    /// no observed property of the navigator; screen records name it).
    var head: UInt64

    init(state: NavigationState, seq: UInt64, now: Int64) {
        head = seq
        book.selectedTab = state.selectedTab
        book.stateChanged(state, seq: seq, now: now)
    }

    /// The grace period, in milliseconds.
    var grace: Int64 {
        get { book.grace }
        set { book.grace = newValue }
    }

    /// The earliest moment a pending disagreement can be reported, `nil` when none waits: a check
    /// before it does nothing.
    var nextDeadline: Int64? { book.nextDeadline }

    /// The screens that reported themselves on screen, and when.
    var onScreen: [ScreenID: Int64] {
        var out: [ScreenID: Int64] = [:]
        for i in book.ids.indices { if let at = book.slots[i].appearedAt { out[book.ids[i]] = at } }
        return out
    }

    // MARK: Changes

    /// The live state changed at `seq` (an applied event). See ``Book/stateChanged(_:seq:now:)``.
    func stateChanged(_ state: NavigationState, seq: UInt64, now: Int64) {
        book.stateChanged(state, seq: seq, now: now)
    }

    /// A screen reported itself on screen (`reported` as reported: see ``Book/normalized(_:)``).
    /// `state` (the live state) and `head` are read only for a screen the state does not show.
    /// Returns the screen as the tracker keeps it, which screen records store.
    func appeared(_ reported: ScreenID, state: @autoclosure () -> NavigationState, head: @autoclosure () -> UInt64, now: Int64) -> ScreenID {
        book.appeared(reported, state: state(), head: head(), now: now)
    }

    /// A screen reported itself gone: `reported` as reported, or else normalized (a root entry
    /// reported on screen before the state had tabs names none). `head` is read only when a
    /// screen the state shows leaves. Returns the screen normalized, which screen records store.
    func disappeared(_ reported: ScreenID, head: @autoclosure () -> UInt64, now: Int64) -> ScreenID {
        book.disappeared(reported, head: head(), now: now)
    }

    /// The grace period starts again for every disagreement not yet reported: the app was
    /// suspended, or showed a past state, meanwhile.
    func restartGrace(now: Int64) {
        book.restartGrace(now: now)
    }

    /// How long until the next report can be due, in milliseconds.
    func wait(now: Int64) -> Int64? { book.nextDeadline.map { max(0, $0 - now) } }

    // MARK: Checking

    /// The disagreements that have lasted the grace period at `now`, as divergences (each once),
    /// in seq order. Does nothing before the earliest deadline; reads `state` (the live state)
    /// only for a stack's depth.
    func check(_ state: @autoclosure () -> NavigationState, now: Int64) -> [Divergence] {
        guard let deadline = book.nextDeadline, now >= deadline else { return [] }
        let out = book.check(state(), now: now)
        for d in out {
            if reports.count == maxDivergencesKept { reports.removeFirst() }
            reports.append(d)
        }
        return out
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
        Book.updateRequiredScreens(state, in: &out)
        return out
    }
}

extension ScreenTracker {
    /// The screens, the required screens and the deadline: the tracker's work, on a value.
    struct Book {
        /// The screens tracked, the numbers they are found by (``key(_:)``), and what is known of
        /// them: one place in each per screen.
        var ids: [ScreenID] = []
        var keys: [UInt64] = []
        var slots: [Slot] = []
        /// The required screens of the state at the last change (rewritten in place).
        var required: [ScreenID] = []
        /// The earliest moment a pending disagreement can be reported, `nil` when none waits.
        var nextDeadline: Int64?
        /// The live state's selected tab (the tracker hears of every change of the live state).
        var selectedTab: String?
        /// The last change of the selected tab: its seq and when.
        var tabSwitch: (seq: UInt64, at: Int64)?
        /// The grace period, in milliseconds.
        var grace: Int64 = 1000

        /// A number equal for equal ids, and most often different for different ones: a screen's
        /// kind, token or frame, index and whether it names a tab (no string).
        static func key(_ id: ScreenID) -> UInt64 {
            switch id {
            case .presentation(let token, _):
                return token << 2 | 1
            case .stackEntry(let frame, let index, _, let tab):
                let f: UInt64 = switch frame {
                case .root: 0
                case .presentation(let token): token &+ 1
                }
                return (f << 20 ^ UInt64(truncatingIfNeeded: index)) << 3 | (tab == nil ? 2 : 6)
            case .tabRoot:
                return 3
            }
        }

        private func index(of id: ScreenID) -> Int? {
            let key = Self.key(id)
            for i in keys.indices where keys[i] == key && ids[i] == id { return i }
            return nil
        }

        private mutating func append(_ id: ScreenID, _ slot: Slot) {
            ids.append(id)
            keys.append(Self.key(id))
            slots.append(slot)
        }

        /// Forgets the screen at `i` if nothing is known of it (the last screen takes its place).
        private mutating func removeIfEmpty(_ i: Int) {
            guard slots[i].isEmpty else { return }
            let last = slots.count - 1
            if i != last {
                ids.swapAt(i, last)
                keys.swapAt(i, last)
                slots.swapAt(i, last)
            }
            ids.removeLast()
            keys.removeLast()
            slots.removeLast()
        }

        private mutating func add(_ i: Int, _ p: Pending) {
            slots[i].pending = p
            let deadline = p.since + grace
            if nextDeadline.map({ deadline < $0 }) ?? true { nextDeadline = deadline }
        }

        /// The live state changed at `seq` (an applied event). Compares the screens the state
        /// shows (the selected chain: at most a tab root and, per frame, one stack top and one
        /// presentation) with the previous ones, and checks each screen on screen against the
        /// state: the work is bounded by the presentation chain's depth and the number of screens
        /// tracked, never by the length of a path or of the session. A screen the state requires
        /// is in the state, so only the screens on screen that it does not require are looked up
        /// in it.
        mutating func stateChanged(_ state: NavigationState, seq: UInt64, now: Int64) {
            let tab = state.selectedTab
            if tab != selectedTab {
                selectedTab = tab
                tabSwitch = (seq, now)
            }
            // The state requires the screens it required, and every screen on screen is one of
            // them: none can have left the state, and none has a disagreement this would end
            // (a screen on screen that the state shows has none).
            if !Self.updateRequiredScreens(state, in: &required) && !slots.contains(where: { $0.isOnScreen && !$0.shown }) { return }
            for id in required {
                if let i = index(of: id) {
                    slots[i].required = true
                } else {
                    append(id, Slot(required: true))
                }
            }
            // Screens on screen that the state no longer has, or has again.
            var dismissing = false
            for i in slots.indices where slots[i].isOnScreen {
                if slots[i].required || state.contains(ids[i]) {
                    if let p = slots[i].pending, p.kind != .notOnScreen { slots[i].pending = nil }
                } else {
                    if case .presentation = ids[i] { dismissing = true }
                    if slots[i].pending == nil { add(i, Pending(kind: .stillOnScreen, seq: seq, since: now)) }
                }
            }
            // Screens the state shows from now on, or no longer (backwards: removing an entry
            // moves the last one, already seen, into its place).
            for i in slots.indices.reversed() {
                let isRequired = slots[i].required
                if isRequired != slots[i].shown {
                    if isRequired {
                        if !slots[i].isOnScreen && slots[i].pending == nil {
                            var cause: Divergence.Cause?
                            if dismissing, case .presentation = ids[i] { cause = .presentedWhileDismissing }
                            add(i, Pending(kind: .notOnScreen, seq: seq, since: now, cause: cause))
                        }
                    } else if slots[i].pending?.kind == .notOnScreen {
                        slots[i].pending = nil
                    }
                    slots[i].shown = isRequired
                }
                slots[i].required = false
                removeIfEmpty(i)
            }
        }

        /// A screen reported itself on screen. A screen the state shows is in the state: only
        /// another is looked up in `state`.
        /// Returns the screen as the tracker keeps it (normalized).
        @discardableResult
        mutating func appeared(_ reported: ScreenID, state: @autoclosure () -> NavigationState, head: @autoclosure () -> UInt64,
                               now: Int64) -> ScreenID {
            let id = normalized(reported) ?? reported
            let i: Int
            if let found = index(of: id) {
                guard !slots[found].isOnScreen else { return id }
                i = found
            } else {
                append(id, Slot())
                i = slots.count - 1
            }
            slots[i].appearedAt = now
            if slots[i].pending?.kind == .notOnScreen { slots[i].pending = nil }
            if slots[i].pending == nil && !slots[i].shown && !state().contains(id) {
                add(i, Pending(kind: .unknownScreen, seq: head(), since: now))
            }
            return id
        }

        /// A screen reported itself gone: `reported` if it is on screen, or else normalized.
        /// Returns the screen normalized (as screen records store it).
        @discardableResult
        mutating func disappeared(_ reported: ScreenID, head: @autoclosure () -> UInt64, now: Int64) -> ScreenID {
            let normalizedID = normalized(reported)
            var found = index(of: reported)
            if found.map({ !slots[$0].isOnScreen }) ?? true, let id = normalizedID { found = index(of: id) }
            guard let i = found, slots[i].isOnScreen else { return normalizedID ?? reported }
            slots[i].appearedAt = nil
            if let p = slots[i].pending, p.kind != .notOnScreen { slots[i].pending = nil }
            if slots[i].shown && slots[i].pending == nil {
                var cause: Divergence.Cause?
                if case .presentation = ids[i] { cause = .removedWithoutWrite }
                add(i, Pending(kind: .notOnScreen, seq: head(), since: now, cause: cause))
            }
            removeIfEmpty(i)
            return normalizedID ?? reported
        }

        /// `screen` as the tracker keeps it, `nil` when that is `screen` itself: a root stack
        /// entry that names no tab names the selected one when the state has tabs; an entry of a
        /// presentation's stack names none (against the live state, whose selected tab the tracker
        /// keeps).
        func normalized(_ screen: ScreenID) -> ScreenID? {
            guard case .stackEntry(let frame, let index, let routeID, let tab) = screen else { return nil }
            switch frame {
            case .root:
                guard tab == nil, let selectedTab else { return nil }
                return .stackEntry(frame: .root, index: index, routeID: routeID, tab: selectedTab)
            case .presentation:
                return tab == nil ? nil : .stackEntry(frame: frame, index: index, routeID: routeID)
            }
        }

        mutating func restartGrace(now: Int64) {
            nextDeadline = nil
            for i in slots.indices {
                guard let p = slots[i].pending, !p.reported else { continue }
                slots[i].pending!.since = now
                nextDeadline = now + grace
            }
        }

        /// The disagreements that have lasted the grace period at `now` (the deadline has come),
        /// marked reported, in seq order.
        mutating func check(_ state: @autoclosure () -> NavigationState, now: Int64) -> [Divergence] {
            nextDeadline = nil
            var due: [Int] = []
            for i in slots.indices {
                guard let p = slots[i].pending, !p.reported else { continue }
                if now - p.since >= grace { due.append(i) } else {
                    let d = p.since + grace
                    if nextDeadline.map({ d < $0 }) ?? true { nextDeadline = d }
                }
            }
            guard !due.isEmpty else { return [] }
            due.sort { a, b in
                let (pa, pb) = (slots[a].pending!, slots[b].pending!)
                return pa.seq != pb.seq ? pa.seq < pb.seq : ids[a].description < ids[b].description
            }
            var out: [Divergence] = []
            var stacks: [StackKey: [Int]] = [:]
            var stackOrder: [StackKey] = []
            for i in due {
                guard let key = ids[i].stackKey else { continue }
                if stacks[key] == nil { stackOrder.append(key) }
                stacks[key, default: []].append(i)
            }
            let state = stackOrder.isEmpty ? nil : state()
            // A stack whose screens disagree: one report for the stack when its depth on screen is
            // not its path's, none when the presentation holding it is itself still on screen.
            for key in stackOrder {
                let members = stacks[key]!
                if case .presentation(let token) = key.frame,
                   self.ids.indices.contains(where: { if case .presentation(token, _) = self.ids[$0] { slots[$0].pending?.kind == .stillOnScreen } else { false } }) {
                    for i in members { slots[i].pending!.reported = true }
                    continue
                }
                let visible = visibleTop(of: key)
                guard let top = visible, let depth = state?.pathCount(key), top.index + 1 != depth else { continue }
                let seq = members.map { slots[$0].pending!.seq }.max()!
                var cause: Divergence.Cause?
                for i in members where cause == nil { cause = tabSwitchCause(slots[i].pending!) }
                for i in members { slots[i].pending!.reported = true }
                out.append(Divergence(kind: .depthMismatch, screen: top.id, seq: seq, cause: cause, visibleDepth: top.index + 1,
                                      stateDepth: depth, detectedAt: now))
            }
            for i in due where !slots[i].pending!.reported {
                slots[i].pending!.reported = true
                let p = slots[i].pending!
                var cause = p.cause
                if cause == nil, ids[i].stackKey != nil { cause = tabSwitchCause(p) }
                out.append(Divergence(kind: p.kind, screen: ids[i], seq: p.seq, cause: cause, detectedAt: now))
            }
            out.sort { a, b in a.seq != b.seq ? a.seq < b.seq : a.description < b.description }
            return out
        }

        /// A path write within the grace period after a tab switch (not the switch itself).
        private func tabSwitchCause(_ p: Pending) -> Divergence.Cause? {
            guard p.kind != .unknownScreen, let s = tabSwitch, p.seq > s.seq, p.since >= s.at, p.since - s.at <= grace else { return nil }
            return .pathWriteDuringTabSwitch
        }

        /// The top-most entry of a stack on screen; of two at the same index (a stray one), the one
        /// whose description sorts first, so that the report does not depend on the order of the places.
        private func visibleTop(of key: StackKey) -> (id: ScreenID, index: Int)? {
            var best: (id: ScreenID, index: Int)?
            for i in ids.indices where slots[i].isOnScreen {
                guard case .stackEntry(let frame, let index, _, let tab) = ids[i], frame == key.frame, tab == key.tab else { continue }
                if best.map({ index > $0.index || (index == $0.index && ids[i].description < $0.id.description) }) ?? true {
                    best = (ids[i], index)
                }
            }
            return best
        }

        /// Rewrites `out` in place to ``ScreenTracker/requiredScreens(_:)``, walking the chain
        /// without copying it out; returns `false` only when `out` held them already (in order).
        @discardableResult
        static func updateRequiredScreens(_ state: NavigationState, in out: inout [ScreenID]) -> Bool {
            var count = 0
            var changed = false
            func put(_ id: ScreenID) {
                if count < out.count {
                    if out[count] != id {
                        out[count] = id
                        changed = true
                    }
                } else {
                    out.append(id)
                    changed = true
                }
                count += 1
            }
            let tab = state.selectedTab
            if let tab { put(.tabRoot(tab)) }
            var frame = state.root
            if !frame.path.isEmpty {
                put(.stackEntry(frame: .root, index: frame.path.count - 1, routeID: frame.path[frame.path.count - 1].id, tab: tab))
            }
            while let p = frame.presented {
                let isLeaf = p.style.isLeaf
                if !isLeaf {
                    // What a full-screen cover hides is not required: start again.
                    if p.style == .fullScreenCover && count > 0 {
                        count = 0
                        changed = true
                    }
                    put(.presentation(token: p.token, routeID: p.route.id))
                }
                guard let content = p.content else { break }
                if !isLeaf && !content.path.isEmpty {
                    put(.stackEntry(frame: .presentation(p.token), index: content.path.count - 1, routeID: content.path[content.path.count - 1].id))
                }
                frame = content
            }
            if count < out.count {
                out.removeLast(out.count - count)
                changed = true
            }
            return changed
        }
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
}
