@_spi(Tools) import RouteLogCore

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
