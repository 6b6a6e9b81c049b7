import Foundation
@_spi(Tools) import RouteLogCore

/// A log whose appends fold with a chosen reducer: the app's reducer before and after an update.
final class SwappableReducerLog: EventLog, @unchecked Sendable {
    enum Reducer {
        /// Today's rules.
        case current
        /// An older rule: pushing the route already on top of the root stack was rejected.
        case rejectingRepeatedPush
        /// An older rule: an interactive dismiss ignored `dismissible`.
        case interactiveDismissIgnoresDismissible

        func apply(_ e: Event, to state: inout NavigationState, seq: UInt64) -> Outcome {
            switch (self, e) {
            case (.rejectingRepeatedPush, .push(let r, nil)) where state.root.path.last?.id == r.id && state.root.presented == nil:
                return .rejected(.invalidCount)
            case (.interactiveDismissIgnoresDismissible, .interactiveDismiss(nil)):
                return state.apply(.dismiss(.top), seq: seq)
            default:
                return state.apply(e, seq: seq)
            }
        }
    }

    private let lock = NSLock()
    private var _reducer: Reducer
    private var info: SessionInfo?
    private var stored: [StoredEvent] = []
    private var snapshots: [Snapshot] = []
    let snapshotInterval: UInt64

    init(snapshotInterval: UInt64, reducer: Reducer) {
        self.snapshotInterval = snapshotInterval
        self._reducer = reducer
    }

    var reducer: Reducer {
        get { lock.withLock { _reducer } }
        set { lock.withLock { _reducer = newValue } }
    }

    func createSession(_ session: NewSession) throws -> SessionInfo {
        lock.withLock {
            let i = SessionInfo(id: SessionID("00000000-0000-7000-8000-000000000001"), label: session.label, appVersion: session.appVersion, createdAt: 0)
            info = i
            return i
        }
    }
    func sessions() throws -> [SessionInfo] { lock.withLock { info.map { [$0] } ?? [] } }
    func session(_ id: SessionID) throws -> SessionInfo {
        try lock.withLock {
            guard let info, info.id == id else { throw EventLogError.sessionNotFound(id) }
            return info
        }
    }
    func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try lock.withLock {
            guard var i = info, i.id == id else { throw EventLogError.sessionNotFound(id) }
            guard i.eventCount == expectedSeq else { throw EventLogError.conflict(session: id, expected: expectedSeq, actual: i.eventCount) }
            // Like a store reopened by the updated app: the head is the latest snapshot plus a
            // fold of the events since, with the running app's reducer.
            let snap = snapshots.last ?? Snapshot(seq: 0, state: NavigationState())
            var state = snap.state
            for e in stored[Int(snap.seq)...] { _ = _reducer.apply(e.event, to: &state, seq: e.seq) }
            var out: [StoredEvent] = []
            for e in events {
                let seq = UInt64(stored.count) + 1
                let outcome = _reducer.apply(e.event, to: &state, seq: seq)
                let s = StoredEvent(seq: seq, recorded: e, outcome: outcome, digest: state.digest)
                stored.append(s)
                out.append(s)
                if seq % snapshotInterval == 0 { snapshots.append(Snapshot(seq: seq, state: state)) }
            }
            i.eventCount = UInt64(stored.count)
            i.headDigest = state.digest
            info = i
            return out
        }
    }
    func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        let slice: [StoredEvent] = try lock.withLock {
            guard info?.id == id else { throw EventLogError.sessionNotFound(id) }
            let lo = Int(max(from, 1)) - 1, hi = Int(min(through, UInt64(stored.count)))
            return lo < hi ? Array(stored[lo..<hi]) : []
        }
        for e in slice where try !body(e) { return }
    }
    func deleteSession(_ id: SessionID) throws {
        try lock.withLock {
            guard let info, info.id == id else { throw EventLogError.sessionNotFound(id) }
            self.info = nil
            stored = []
            snapshots = []
        }
    }

    func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        lock.withLock { snapshots.last { $0.seq <= seq } }
    }
}
