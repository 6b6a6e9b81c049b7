import Foundation

/// An ``EventLog`` in memory, for tests and previews. Thread-safe.
public final class InMemoryEventLog: EventLog, @unchecked Sendable {
    struct Session {
        var info: SessionInfo
        var events: [StoredEvent] = []
        var head = Replayer()
        var snapshots: [Snapshot] = []
        var screens: [ScreenRecord] = []
    }

    private let lock = NSLock()
    private var store: [SessionID: Session] = [:]
    private var order: [SessionID] = []
    private let clock: @Sendable () -> Int64
    /// A snapshot is kept every `snapshotInterval` events.
    public let snapshotInterval: UInt64
    private var counter: UInt64 = 0

    /// An empty log that keeps a snapshot every `snapshotInterval` events (K ≥ 1); sessions get
    /// their times from the wall clock.
    public convenience init(snapshotInterval: UInt64 = 1024) {
        self.init(snapshotInterval: snapshotInterval, clock: WallClock.milliseconds)
    }

    /// - Parameters:
    ///   - snapshotInterval: keep a snapshot every K events (K ≥ 1).
    ///   - clock: milliseconds since 1970, used only for session metadata and ids.
    @_spi(Tools) public init(snapshotInterval: UInt64 = 1024, clock: @escaping @Sendable () -> Int64) {
        precondition(snapshotInterval >= 1, "snapshotInterval must be at least 1")
        self.snapshotInterval = snapshotInterval
        self.clock = clock
    }

    fileprivate func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    public func createSession(_ new: NewSession) throws -> SessionInfo {
        locked {
            let now = clock()
            counter += 1
            // Time-ordered and unique within this log; the counter stands in for randomness.
            let id = SessionID.v7(milliseconds: now, random: (counter, counter &* 0x9E37_79B9_7F4A_7C15))
            let info = SessionInfo(id: id, label: new.label, appName: new.appName, appVersion: new.appVersion, createdAt: now,
                                   entryOrder: counter, enteredAt: now)
            store[id] = Session(info: info)
            order.append(id)
            return info
        }
    }

    public func sessions() throws -> [SessionInfo] { locked { order.map { store[$0]!.info } } }

    public func session(_ id: SessionID) throws -> SessionInfo {
        try locked {
            guard let s = store[id] else { throw EventLogError.sessionNotFound(id) }
            return s.info
        }
    }

    @discardableResult
    public func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try locked {
            guard var s = store[id] else { throw EventLogError.sessionNotFound(id) }
            guard s.info.eventCount == expectedSeq else {
                throw EventLogError.conflict(session: id, expected: expectedSeq, actual: s.info.eventCount)
            }
            var out: [StoredEvent] = []
            out.reserveCapacity(events.count)
            for e in events {
                let step = s.head.apply(e.event)
                let stored = StoredEvent(seq: step.seq, recorded: e, outcome: step.outcome, digest: step.digest)
                s.events.append(stored)
                out.append(stored)
                if step.seq % snapshotInterval == 0 { s.snapshots.append(Snapshot(seq: step.seq, state: s.head.state)) }
            }
            s.info.eventCount = s.head.seq
            s.info.headDigest = s.head.state.digest
            if let last = events.last { s.info.lastEventAt = last.meta.timestamp }
            store[id] = s
            return out
        }
    }

    public func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        let events: ArraySlice<StoredEvent> = try locked {
            guard let s = store[id] else { throw EventLogError.sessionNotFound(id) }
            let lo = Int(max(from, 1)) - 1
            let hi = Int(min(through, UInt64(s.events.count)))
            return lo < hi ? s.events[lo..<hi] : []
        }
        for e in events where try !body(e) { return }
    }

    public func deleteSession(_ id: SessionID) throws {
        try locked {
            guard store.removeValue(forKey: id) != nil else { throw EventLogError.sessionNotFound(id) }
            order.removeAll { $0 == id }
        }
    }

    public func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        try locked {
            guard let s = store[id] else { throw EventLogError.sessionNotFound(id) }
            // Snapshots are at multiples of the interval, so the index is direct.
            let k = Int(seq / snapshotInterval)
            return k >= 1 && k <= s.snapshots.count ? s.snapshots[k - 1] : nil
        }
    }
}

@_spi(Tools) extension InMemoryEventLog: ScreenRecordingEventLog {
    public func appendScreenRecords(_ records: [ScreenRecord], to id: SessionID) throws {
        try locked {
            guard store[id] != nil else { throw EventLogError.sessionNotFound(id) }
            store[id]!.screens.append(contentsOf: records)
        }
    }

    public func readScreenRecords(_ id: SessionID, _ body: (ScreenRecord) throws -> Bool) throws {
        let records: [ScreenRecord] = try locked {
            guard let s = store[id] else { throw EventLogError.sessionNotFound(id) }
            return s.screens
        }
        for r in records where try !body(r) { return }
    }
}
