import Foundation
import RouteLogCore

// In-app time travel, beside Navigator.swift: travelling to a past seq, the checks that its routes
// still decode, and the in-memory history and route cache it reads.

extension Navigator {
    // MARK: - Time travel

    /// Whether the navigator shows a past state.
    public var isTravelling: Bool { past != nil }

    /// Shows the state after event `seq` (0 = before any event). Calls are refused until
    /// ``returnToPresent()``; the log is untouched. Travelling to ``headSeq`` is the same as resuming.
    ///
    /// - Throws: ``TimeTravelError``.
    public func travel(to seq: UInt64) throws(TimeTravelError) {
        guard seq <= headSeq else { throw .seqOutOfRange(seq: seq, headSeq: headSeq) }
        if seq == headSeq { returnToPresent(); return }
        let state: NavigationState
        if let s = history.state(at: seq) {
            state = s
        } else {
            do { state = try loggedState(at: seq) } catch { throw .logUnreadable("\(error)") }
        }
        do { try checkDecodable(state, through: seq) } catch let e as RouteDecodingError {
            throw .undecodableRoute(e)
        } catch {
            throw .logUnreadable("\(error)")
        }
        past = (seq, state)
    }

    /// The state after `seq`, older than the history window: the log's snapshot and events, then
    /// the events the recorder has not written yet (during an outage the backlog can be longer
    /// than the window). Reading never waits on the writer: the log's reads run beside its appends.
    private func loggedState(at seq: UInt64) throws -> NavigationState {
        let (written, unwritten) = recorder.unwritten(through: seq)
        guard seq > written else { return try log.state(of: session, at: seq) }
        var r = Replayer(state: try log.state(of: session, at: written), seq: written)
        for e in unwritten { r.apply(e.event) }
        return r.state
    }

    /// Moves one event back. Returns `false` at seq 0.
    @discardableResult
    public func stepBack() throws(TimeTravelError) -> Bool {
        let at = seq
        guard at > 0 else { return false }
        try travel(to: at - 1)
        return true
    }

    /// Moves one event forward; reaching the head resumes. Returns `false` when live.
    @discardableResult
    public func stepForward() throws(TimeTravelError) -> Bool {
        guard let at = past?.seq else { return false }
        try travel(to: at + 1)
        return true
    }

    /// Returns to the live head. (Not ``resume()``, which takes a suspended navigator's files back.)
    public func returnToPresent() {
        if past != nil { past = nil }
    }

    // MARK: - Decoding checks

    /// Throws if a route of `state` does not decode, naming the last event up to `through`
    /// that recorded it.
    private func checkDecodable(_ state: NavigationState, through: UInt64) throws {
        if everyRouteDecodes(state) { return }
        do {
            _ = try NavigationSnapshot<Route>(state)
        } catch {
            var seq: UInt64? = nil
            let bad = error.routeID
            try? log.read(session, from: 1, through: through) { stored in
                if stored.outcome.isApplied && stored.event.carries(routeID: bad) { seq = stored.seq }
                return true
            }
            if seq == nil { seq = history.lastSeq(carrying: bad, through: through) }
            var e = error
            e.seq = seq
            throw e
        }
    }
}

extension Navigator {
    /// Whether every route of `state` decodes as `Route` with its id: through the route cache, so
    /// travel decodes only the routes it has not seen.
    fileprivate func everyRouteDecodes(_ state: NavigationState) -> Bool {
        func decodes(_ f: Frame) -> Bool {
            for r in f.path where route(r) == nil { return false }
            guard let p = f.presented else { return true }
            return route(p.route) != nil && (p.content.map(decodes) ?? true)
        }
        if let tabs = state.tabs { return tabs.allSatisfy { decodes($0.root) } }
        return decodes(state.root)
    }
}

/// Why in-app time travel could not move.
public enum TimeTravelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The seq is past the head of the session.
    case seqOutOfRange(seq: UInt64, headSeq: UInt64)
    /// The past state holds a route that no longer decodes.
    case undecodableRoute(RouteDecodingError)
    /// The log could not be read.
    case logUnreadable(String)

    /// One line for logs and the demo.
    public var description: String {
        switch self {
        case .seqOutOfRange(let seq, let head): "seq \(seq) is past the head of the session (\(head))"
        case .undecodableRoute(let e): e.description
        case .logUnreadable(let m): "cannot read the log: \(m)"
        }
    }
}

extension Event {
    /// Whether the event carries a route with this id.
    func carries(routeID: String) -> Bool {
        switch self {
        case .push(let r, _), .show(let r, _, _, _): r.id == routeID
        case .reset(let s): NavigationState.routeIDs(of: s).contains(routeID)
        default: false
        }
    }
}

extension NavigationState {
    static func routeIDs(of s: NavigationState) -> Set<String> {
        var out = Set<String>()
        func walk(_ f: Frame) {
            for r in f.path { out.insert(r.id) }
            if let p = f.presented {
                out.insert(p.route.id)
                if let c = p.content { walk(c) }
            }
        }
        if let tabs = s.tabs { tabs.forEach { walk($0.root) } } else { walk(s.root) }
        return out
    }
}

/// The recent past a navigator keeps in memory for in-app time travel: the last `capacity`
/// events with their outcomes, and a checkpoint (the state) every ``checkpointInterval`` events.
///
/// Every buffer is allocated once, at its full size, and then overwritten in a ring: appending
/// never grows or copies an array, and the memory held does not depend on the session's length.
/// States older than the window come from the log (its snapshots and events).
struct History {
    static let checkpointInterval: UInt64 = 256
    /// The default window: 4,096 events (16 checkpoints).
    static let defaultCapacity = 4_096

    /// Events kept (a multiple of ``checkpointInterval``, at least one interval).
    let capacity: Int
    /// The seq the navigator opened at: checkpoints fall on `origin + k × checkpointInterval`.
    let origin: UInt64
    /// The seq of the last event appended.
    private(set) var headSeq: UInt64
    private var events: [Event] = []
    private var outcomes: [Outcome] = []
    private var checkpoints: [Snapshot] = []

    /// A history holding only `base`, keeping at most `capacity` events (rounded up to a whole
    /// number of checkpoint intervals).
    init(base: Snapshot, capacity: Int = History.defaultCapacity) {
        let interval = Int(Self.checkpointInterval)
        self.capacity = max(1, (capacity + interval - 1) / interval) * interval
        origin = base.seq
        headSeq = base.seq
        events.reserveCapacity(self.capacity)
        outcomes.reserveCapacity(self.capacity)
        checkpoints.reserveCapacity(checkpointSlots)
        checkpoints.append(base)
    }

    /// One more checkpoint than the window spans, so the oldest one stays until the events after
    /// it are overwritten.
    private var checkpointSlots: Int { capacity / Int(Self.checkpointInterval) + 1 }

    /// The oldest seq whose state the window can give.
    var baseSeq: UInt64 {
        let span = headSeq - origin
        guard span > UInt64(capacity) else { return origin }
        let k = (span - UInt64(capacity) + Self.checkpointInterval - 1) / Self.checkpointInterval
        return origin + k * Self.checkpointInterval
    }

    /// Events held in memory (at most ``capacity``).
    var eventCount: Int { events.count }
    /// Checkpoints held in memory (at most `capacity / checkpointInterval + 1`).
    var checkpointCount: Int { checkpoints.count }

    private func slot(ofEvent seq: UInt64) -> Int { Int((seq - origin - 1) % UInt64(capacity)) }
    private func slot(ofCheckpoint k: UInt64) -> Int { Int(k % UInt64(checkpointSlots)) }

    mutating func append(_ event: Event, outcome: Outcome, after state: NavigationState, seq: UInt64) {
        precondition(seq == headSeq + 1, "history events must be appended in order")
        headSeq = seq
        if events.count < capacity {
            events.append(event)
            outcomes.append(outcome)
        } else {
            let i = slot(ofEvent: seq)
            events[i] = event
            outcomes[i] = outcome
        }
        let offset = seq - origin
        if offset % Self.checkpointInterval == 0 {
            let k = offset / Self.checkpointInterval
            if checkpoints.count < checkpointSlots {
                checkpoints.append(Snapshot(seq: seq, state: state))
            } else {
                checkpoints[slot(ofCheckpoint: k)] = Snapshot(seq: seq, state: state)
            }
        }
    }

    /// The state after `seq`, or `nil` when it is outside the window.
    func state(at seq: UInt64) -> NavigationState? {
        guard seq >= baseSeq, seq <= headSeq else { return nil }
        let cp = checkpoints[slot(ofCheckpoint: (seq - origin) / Self.checkpointInterval)]
        var r = Replayer(state: cp.state, seq: cp.seq)
        var s = cp.seq
        while s < seq {
            s += 1
            r.apply(events[slot(ofEvent: s)])
        }
        return r.state
    }

    /// The outcomes of the events after `seq` that the window holds, in order.
    func outcomes(after seq: UInt64) -> [Outcome] {
        let first = max(seq, headSeq - UInt64(events.count)) + 1
        guard first <= headSeq else { return [] }
        return (first...headSeq).map { outcomes[slot(ofEvent: $0)] }
    }

    /// The last seq through `through` in the window whose event carries `routeID`.
    func lastSeq(carrying routeID: String, through: UInt64) -> UInt64? {
        var s = min(through, headSeq)
        let oldest = headSeq - UInt64(events.count)
        while s > oldest {
            if events[slot(ofEvent: s)].carries(routeID: routeID) { return s }
            s -= 1
        }
        return nil
    }
}

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. Holds at most ``capacity`` routes; the oldest entry goes first, one at a time, so
/// no call ever empties a large table.
struct RouteCache<Route> {
    static var capacity: Int { 1_024 }
    private var routes: [RouteRef: Route] = [:]
    private var order: [RouteRef] = []
    private var next = 0

    init() {
        routes.reserveCapacity(Self.capacity)
        order.reserveCapacity(Self.capacity)
    }

    var count: Int { routes.count }

    subscript(ref: RouteRef) -> Route? { routes[ref] }

    mutating func insert(_ route: Route, for ref: RouteRef) {
        if routes.updateValue(route, forKey: ref) != nil { return }
        if order.count < Self.capacity {
            order.append(ref)
        } else {
            routes.removeValue(forKey: order[next])
            order[next] = ref
            next = (next + 1) % Self.capacity
        }
    }
}
