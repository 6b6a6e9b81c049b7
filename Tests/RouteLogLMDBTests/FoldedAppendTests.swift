import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// Appends that take the caller's fold (`appendFolded`): the same records as an append the store
/// folds, and a caller whose digests are not its events' fold is refused at the batch.
@Suite("LMDBEventLog folded appends")
struct FoldedAppendTests {
    /// Each test's own directory, removed after it.
    let dir: TempDir

    init() throws { dir = try TempDir() }

    /// The digests after each of `events`, folded from `state` at seq `seq`.
    func digests(_ events: [RecordedEvent], from state: NavigationState = NavigationState(), seq: UInt64 = 0) -> [Digest] {
        var r = Replayer(state: state, seq: seq)
        return events.map { r.apply($0.event).digest }
    }

    @Test func aFoldedAppendStoresWhatAnAppendTheStoreFoldsStores() throws {
        let folded = try LMDBEventLog.open(at: dir.path("folded"), options: testOptions(snapshotInterval: 16))
        let plain = try LMDBEventLog.open(at: dir.path("plain"), options: testOptions(snapshotInterval: 16))
        let generated = generatedEvents(520, seed: 43)
        let events = Array(generated[0..<500])
        let all = digests(events)
        let f = try folded.createSession(NewSession(label: "folded"))
        let p = try plain.createSession(NewSession(label: "plain"))
        var seq = 0
        for size in [1, 2, 15, 16, 17, 100, 349] {
            let batch = Array(events[seq..<(seq + size)])
            try folded.appendFolded(batch, digests: Array(all[seq..<(seq + size)]), to: f.id, expectedSeq: UInt64(seq))
            try plain.append(batch, to: p.id, expectedSeq: UInt64(seq))
            seq += size
        }
        #expect(seq == events.count)
        #expect(try folded.events(f.id) == plain.events(p.id))
        #expect(try folded.session(f.id).headDigest == all.last)
        for at: UInt64 in [0, 15, 16, 17, 250, 500] {
            #expect(try folded.snapshot(f.id, atOrBefore: at) == plain.snapshot(p.id, atOrBefore: at), "snapshot at or before \(at)")
        }
        #expect(try folded.verify(session: f.id).failure == nil)
        // A plain append after folded ones (an import's, a recovery's) folds from the same head.
        let more = Array(generated[500...])
        #expect(try folded.append(more, to: f.id, expectedSeq: 500) == plain.append(more, to: p.id, expectedSeq: 500))
        #expect(try folded.verify(session: f.id).failure == nil)
    }

    @Test func aWrongLastDigestRefusesTheWholeBatch() throws {
        let (log, s) = try storeWithSession(at: dir)
        let events = generatedEvents(40, seed: 5)
        let all = digests(events)
        try log.appendFolded(Array(events[0..<10]), digests: Array(all[0..<10]), to: s.id, expectedSeq: 0)
        let hash = try log.headHash(of: s.id)
        var lie = Array(all[10..<30])
        lie[19] = Digest(hi: lie[19].hi, lo: lie[19].lo ^ 1)
        #expect(throws: FoldMismatch(session: s.id, seq: 30, given: lie[19], folded: all[29])) {
            try log.appendFolded(Array(events[10..<30]), digests: lie, to: s.id, expectedSeq: 10)
        }
        // Nothing of it is stored, and the head the writer keeps is the stored one.
        #expect(try log.session(s.id).eventCount == 10)
        #expect(try log.headHash(of: s.id) == hash)
        #expect(try log.events(s.id).count == 10)
        try log.appendFolded(Array(events[10..<40]), digests: Array(all[10..<40]), to: s.id, expectedSeq: 10)
        #expect(try log.session(s.id).headDigest == all[39])
        #expect(try log.verify(session: s.id).failure == nil)
    }

    @Test func aWrongEventIsCaughtByTheStateItLeaves() throws {
        // The caller's digests are of other events than those it hands over (a push of another
        // route in the middle): the batch's end state differs, so its last digest is wrong.
        let (log, s) = try storeWithSession(at: dir)
        let told = (0..<8).map { RecordedEvent(.push(RouteRef(id: "r\($0)"))) }
        var handed = told
        handed[3] = RecordedEvent(.push(RouteRef(id: "other")))
        #expect(throws: FoldMismatch.self) {
            try log.appendFolded(handed, digests: digests(told), to: s.id, expectedSeq: 0)
        }
        #expect(try log.session(s.id).eventCount == 0)
    }

    @Test func aWrongDigestAtASnapshotIsCaughtThereOneInBetweenIsNot() throws {
        let (log, s) = try storeWithSession(at: dir, snapshotInterval: 8)
        let events = generatedEvents(20, seed: 9)
        let all = digests(events)
        // Seq 8 has a snapshot: its digest is checked.
        var atSnapshot = all
        atSnapshot[7] = Digest(hi: ~all[7].hi, lo: all[7].lo)
        #expect(throws: FoldMismatch(session: s.id, seq: 8, given: atSnapshot[7], folded: all[7])) {
            try log.appendFolded(events, digests: atSnapshot, to: s.id, expectedSeq: 0)
        }
        #expect(try log.session(s.id).eventCount == 0)
        // Seq 5 is neither a snapshot's nor the batch's last, nor a block's last: in format 4,
        // which stores no digest but the one after a block's last event, the lie is not stored
        // (reads fold the true digest); in format 3 it is stored, and `verify`, which replays
        // every event, names it.
        var between = all
        between[4] = Digest(hi: all[4].hi, lo: ~all[4].lo)
        try log.appendFolded(events, digests: between, to: s.id, expectedSeq: 0)
        #expect(try log.events(s.id, from: 5, through: 5).first?.digest == all[4])
        #expect(try log.verify(session: s.id).isValid)
        let v3 = try LMDBEventLog.open(at: dir.path + "-v3", options: testOptions(snapshotInterval: 8, format: 3))
        defer { try? FileManager.default.removeItem(atPath: dir.path + "-v3") }
        let s3 = try v3.createSession(NewSession())
        try v3.appendFolded(events, digests: between, to: s3.id, expectedSeq: 0)
        #expect(try v3.events(s3.id, from: 5, through: 5).first?.digest == between[4])
        let failure = try #require(try v3.verify(session: s3.id).failure)
        #expect(failure.seq == 5)
    }

    @Test func aWrongExpectedSeqIsAConflictAndWritesNothing() throws {
        let (log, s) = try storeWithSession(at: dir)
        let events = generatedEvents(6, seed: 3)
        let all = digests(events)
        try log.appendFolded(Array(events[0..<3]), digests: Array(all[0..<3]), to: s.id, expectedSeq: 0)
        #expect(throws: EventLogError.conflict(session: s.id, expected: 2, actual: 3)) {
            try log.appendFolded(Array(events[3..<6]), digests: Array(all[3..<6]), to: s.id, expectedSeq: 2)
        }
        #expect(try log.session(s.id).eventCount == 3)
    }

    @Test func aFoldedAppendAfterAnotherHandleWroteFoldsFromTheStoredHead() throws {
        // Another handle appended meanwhile: the writer's cached head is stale and the check folds
        // from the head rebuilt from the store.
        let (a, s) = try storeWithSession(at: dir)
        let events = generatedEvents(30, seed: 21)
        let all = digests(events)
        try a.appendFolded(Array(events[0..<10]), digests: Array(all[0..<10]), to: s.id, expectedSeq: 0)
        let b = try LMDBEventLog.open(at: dir.path, options: testOptions())
        try b.append(Array(events[10..<20]), to: s.id, expectedSeq: 10)
        var lie = Array(all[20..<30])
        lie[9] = all[19]
        #expect(throws: FoldMismatch.self) {
            try a.appendFolded(Array(events[20..<30]), digests: lie, to: s.id, expectedSeq: 20)
        }
        try a.appendFolded(Array(events[20..<30]), digests: Array(all[20..<30]), to: s.id, expectedSeq: 20)
        #expect(try a.verify(session: s.id).failure == nil)
    }
}
