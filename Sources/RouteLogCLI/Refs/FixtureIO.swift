import Foundation
import RouteLogCore

/// Fixture and export files as the CLI reads and writes them: the core's `routelog-fixture/1`
/// format (``Fixture``), with errors mapped to one-line CLI errors and exit codes.
extension Fixture {
    /// Loads and parses a file. A missing file is a usage error; anything unreadable or malformed is
    /// a data error naming the file and the place inside it (line and column, or event index and field).
    static func load(_ path: String) throws(CLIError) -> Fixture {
        do { return try Fixture(contentsOf: path) } catch { throw cliError(error, path) }
    }

    /// Checks a file as ``load(_:)`` does, in bounded memory: each event is handed to `event` and
    /// not kept (see ``Fixture/scan(contentsOf:event:)``).
    static func scan(_ path: String, event: (RecordedEvent) -> Void = { _ in }) throws(CLIError) -> (header: Fixture, eventCount: Int) {
        do { return try Fixture.scan(contentsOf: path, event: event) } catch { throw cliError(error, path) }
    }

    static func cliError(_ error: FixtureError, _ path: String) -> CLIError {
        switch error.problem {
        case .unreadable(let why) where why == "no such file": .usage("no such file: \(path)")
        case .unreadable(let why): .data("cannot read file: \(path): \(why)")
        default: .data("malformed fixture: \(error)")
        }
    }

    /// The expectation a replay with the current reducer gives.
    static func expectation(for events: [RecordedEvent]) -> Expectation {
        Expectation(replay(events.map(\.event)))
    }

    /// Writes the canonical text (atomically).
    func write(to path: String) throws(CLIError) {
        do { try write(toFile: path) } catch { throw .data(error.description) }
    }
}

/// A fixture or export file's events as a read-only log of one session.
///
/// The events stay as the file gave them (no copy); outcomes and digests come from a replay, with
/// a state kept every ``snapshotInterval`` events, so a read or a state at any seq replays at most
/// that many events before its range. The session looks as it would in an in-memory log with a
/// fixed clock: the same id, label (the fixture's name), times 0, so output is deterministic.
final class FileEventLog: EventLog, @unchecked Sendable {
    static let snapshotInterval: UInt64 = 1024

    let info: SessionInfo
    let events: [RecordedEvent]
    /// The state after seq `k * snapshotInterval` at index `k - 1`.
    private let snapshots: [Snapshot]

    init(_ doc: Fixture) {
        var r = Replayer()
        var snapshots: [Snapshot] = []
        for e in doc.events where r.apply(e.event).seq % Self.snapshotInterval == 0 {
            snapshots.append(Snapshot(seq: r.seq, state: r.state))
        }
        events = doc.events
        self.snapshots = snapshots
        // The id an in-memory log with a clock at 0 gives its first session.
        let id = SessionID.v7(milliseconds: 0, random: (1, 1 &* 0x9E37_79B9_7F4A_7C15))
        info = SessionInfo(id: id, label: doc.name, createdAt: 0, eventCount: r.seq, lastEventAt: doc.events.last?.meta.timestamp,
                           headDigest: r.state.digest, entryOrder: 1, enteredAt: 0)
    }

    func createSession(_ session: NewSession) throws -> SessionInfo { throw CLIError.data("\(info.label): a file's session is read-only") }

    func sessions() throws -> [SessionInfo] { [info] }

    func session(_ id: SessionID) throws -> SessionInfo {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        return info
    }

    func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        throw CLIError.data("\(info.label): a file's session is read-only")
    }

    func deleteSession(_ session: SessionID) throws {
        throw CLIError.data("\(info.label): a file's session is read-only")
    }

    func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        let first = max(from, 1), last = min(through, info.eventCount)
        guard first <= last else { return }
        let start = try snapshot(id, atOrBefore: first - 1)
        var r = Replayer(state: start?.state ?? NavigationState(), seq: start?.seq ?? 0)
        while r.seq < last {
            let e = events[Int(r.seq)]
            let step = r.apply(e.event)
            if step.seq >= first, try !body(StoredEvent(seq: step.seq, recorded: e, outcome: step.outcome, digest: step.digest)) { return }
        }
    }

    func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        guard id == info.id else { throw EventLogError.sessionNotFound(id) }
        let k = Int(min(seq, info.eventCount) / Self.snapshotInterval)
        return k >= 1 ? snapshots[k - 1] : nil
    }
}
