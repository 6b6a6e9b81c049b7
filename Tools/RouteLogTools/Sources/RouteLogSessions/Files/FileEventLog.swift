@_spi(Tools) import RouteLogCore

/// A fixture or export file's events as a read-only log of one session.
///
/// The events stay as the file gave them (no copy); outcomes and digests come from a replay, with
/// a state kept every ``snapshotInterval`` events, so a read or a state at any seq replays at most
/// that many events before its range. The session looks as it would in an in-memory log with a
/// fixed clock: the same id, label (the fixture's name), times 0, so output is deterministic.
package final class FileEventLog: FileSessionLog, @unchecked Sendable {
    package static let snapshotInterval: UInt64 = 1024

    package let info: SessionInfo
    /// The file's parsed content.
    package let document: Fixture
    package var events: [RecordedEvent] { document.events }
    /// The state after seq `k * snapshotInterval` at index `k - 1`.
    private let snapshots: [Snapshot]

    package init(_ doc: Fixture) {
        var r = Replayer()
        var snapshots: [Snapshot] = []
        for e in doc.events where r.apply(e.event).seq % Self.snapshotInterval == 0 {
            snapshots.append(Snapshot(seq: r.seq, state: r.state))
        }
        document = doc
        self.snapshots = snapshots
        info = Self.sessionInfo(of: doc, eventCount: r.seq, lastEventAt: doc.events.last?.meta.timestamp, headDigest: r.state.digest)
    }

    /// The session of a file with `doc`'s header, as an in-memory log with a fixed clock would
    /// show it (``FileStream`` shows the same).
    package static func sessionInfo(of doc: Fixture, eventCount: UInt64, lastEventAt: Int64?, headDigest: Digest) -> SessionInfo {
        // The id an in-memory log with a clock at 0 gives its first session.
        let id = SessionID.v7(milliseconds: 0, random: (1, 1 &* 0x9E37_79B9_7F4A_7C15))
        return SessionInfo(id: id, label: doc.name, createdAt: 0, eventCount: eventCount, lastEventAt: lastEventAt,
                           headDigest: headDigest, entryOrder: 1, enteredAt: 0)
    }

    package func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        let first = max(from, 1), last = min(through, info.eventCount)
        guard first <= last else { return }
        let start = try snapshot(id, atOrBefore: first - 1)
        var r = Replayer(state: start?.state ?? NavigationState(), seq: start?.seq ?? 0)
        let events = document.events
        while r.seq < last {
            let e = events[Int(r.seq)]
            let step = r.apply(e.event)
            if step.seq >= first, try !body(StoredEvent(seq: step.seq, recorded: e, outcome: step.outcome, digest: step.digest)) { return }
        }
    }

    package func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        let k = Int(min(seq, info.eventCount) / Self.snapshotInterval)
        return k >= 1 ? snapshots[k - 1] : nil
    }
}
