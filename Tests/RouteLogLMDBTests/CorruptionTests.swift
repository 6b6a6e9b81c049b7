import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// A store with one session of `count` events, and raw access to its `events` database.
private struct Fixture {
    let dir: TempDir
    let log: LMDBEventLog
    let session: SessionID
    let key: [UInt8]

    init(count: Int = 100) throws {
        dir = try TempDir()
        log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 32, format: 3))
        let info = try log.createSession(NewSession(label: "victim"))
        session = info.id
        key = StoreKey.eventPrefix(info)
        try log.append(generatedEvents(count, seed: 21), to: session, expectedSeq: 0)
        #expect(try log.verify(session: session).isValid)
    }

    /// Runs `body` in a raw LMDB write transaction on the `events` database.
    func tamper(_ body: (LMDBWriteTransaction, LMDBDatabase) throws -> Void) throws {
        let events = try log.environment.database(named: "events")
        try log.environment.withWriteTransaction { try body($0, events) }
    }

    func recordKey(_ seq: UInt64) -> [UInt8] { StoreKey.event(key, seq) }
}

@Suite("LMDBEventLog corruption", .tags(.appleLocks))
struct CorruptionTests {
    @Test func alteredRecordBytesFailTheChecksumAtThatSeq() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        try f.tamper { txn, db in
            var bytes = try #require(try txn.value(forKey: f.recordKey(37), in: db))
            bytes[RecordCodec.headerSize + 2] ^= 0x40 // inside the payload
            try txn.put(bytes, forKey: f.recordKey(37), in: db)
        }
        let report = try f.log.verify(session: f.session)
        #expect(report.failure?.seq == 37)
        #expect(report.failure?.check == .checksum)
        #expect(report.eventsChecked == 36)
        // Reading it back is a typed error naming the seq.
        #expect(throws: LMDBEventLogError.corruptRecord(session: f.session, seq: 37, reason: "checksum mismatch")) {
            try f.log.read(f.session, from: 30, through: 40) { _ in true }
        }
    }

    @Test func swappedRecordsBreakTheChain() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        try f.tamper { txn, db in
            let a = try #require(try txn.value(forKey: f.recordKey(40), in: db))
            let b = try #require(try txn.value(forKey: f.recordKey(41), in: db))
            try txn.put(b, forKey: f.recordKey(40), in: db)
            try txn.put(a, forKey: f.recordKey(41), in: db)
        }
        let report = try f.log.verify(session: f.session)
        #expect(report.failure?.seq == 40)
        #expect(report.failure?.check == .chain)
        #expect(report.failure?.message == "the record is out of place: its checksum chains it after the record stored as seq 41, not after seq 39")
        #expect(report.eventsChecked == 39)
        // Reads check the chain too, from the start or from a seq inside the session (a read
        // checks the records from the time anchor before it, every 64 seqs).
        for from: UInt64 in [1, 40, 41, 42] {
            #expect(throws: LMDBEventLogError.corruptRecord(session: f.session, seq: 40, reason: "checksum mismatch")) {
                try f.log.read(f.session, from: from, through: 100) { _ in true }
            }
        }
    }

    @Test func aFirstRecordCopiedFromAnotherSessionBreaksTheChain() throws {
        let f = try Fixture(count: 10)
        defer { f.dir.cleanup() }
        let other = try f.log.createSession(NewSession(label: "other"))
        try f.log.append(generatedEvents(3, seed: 5), to: other.id, expectedSeq: 0)
        try f.tamper { txn, db in
            // The other session's seq 1 replaces this session's seq 5: intact, but out of place.
            let copied = try #require(try txn.value(forKey: StoreKey.event(StoreKey.eventPrefix(other), 1), in: db))
            try txn.put(copied, forKey: f.recordKey(5), in: db)
        }
        let report = try f.log.verify(session: f.session)
        #expect(report.failure?.seq == 5)
        #expect(report.failure?.check == .chain)
        #expect(report.failure?.message == "the record is out of place: its checksum chains it after the start of a session, not after seq 4")
        #expect(throws: LMDBEventLogError.corruptRecord(session: f.session, seq: 5, reason: "checksum mismatch")) {
            _ = try f.log.events(f.session)
        }
    }

    @Test func deletedRecordsBreakTheChain() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        try f.tamper { txn, db in
            let deleted = try txn.delete(forKey: f.recordKey(50), in: db)
            #expect(deleted)
        }
        var report = try f.log.verify(session: f.session)
        #expect(report.failure?.seq == 50)
        #expect(report.failure?.check == .chain)
        #expect(throws: LMDBEventLogError.corruptRecord(session: f.session, seq: 50, reason: "record is missing")) {
            _ = try f.log.events(f.session)
        }

        let g = try Fixture()
        defer { g.dir.cleanup() }
        try g.tamper { txn, db in
            let deleted = try txn.delete(forKey: g.recordKey(100), in: db)
            #expect(deleted)
        }
        report = try g.log.verify(session: g.session)
        #expect(report.failure?.seq == 100)
        #expect(report.failure?.check == .chain)
    }

    @Test func aRewrittenDigestWithAFreshChecksumFailsTheDigestCheck() throws {
        let f = try Fixture()
        defer { f.dir.cleanup() }
        var stored = Digest.zero
        try f.tamper { txn, db in
            let old = try #require(try txn.value(forKey: f.recordKey(12), in: db))
            let before = try #require(try txn.value(forKey: f.recordKey(11), in: db))
            let previous = try #require(before.withUnsafeBytes { RecordCodec.storedChecksum($0) })
            let raw = try old.withUnsafeBytes { try RecordCodec.parse($0, previous: previous) }
            #expect(raw.computedChecksum == raw.storedChecksum)
            let payload = [UInt8](raw.payload)
            stored = Digest(hi: raw.digest.hi ^ 1, lo: raw.digest.lo)
            let rewritten = RecordCodec.encode(kind: raw.kind, outcome: raw.outcome, previous: previous, digest: stored, payload: payload)
            try txn.put(rewritten.bytes, forKey: f.recordKey(12), in: db)
        }
        let report = try f.log.verify(session: f.session)
        let failure = try #require(report.failure)
        #expect(failure.seq == 12)
        #expect(failure.check == .digest)
        #expect(failure.storedDigest == stored)
        #expect(failure.replayedDigest == Digest(hi: stored.hi ^ 1, lo: stored.lo))
    }

    @Test func appendingAfterTheHeadRecordWasDeletedIsATypedError() throws {
        let f = try Fixture(count: 10)
        defer { f.dir.cleanup() }
        // A second handle has no cached head, so it must rebuild the head from the store.
        try f.tamper { txn, db in
            let deleted = try txn.delete(forKey: f.recordKey(10), in: db)
            #expect(deleted)
        }
        let other = try LMDBEventLog.open(at: f.dir.path, options: testOptions())
        #expect(throws: LMDBEventLogError.self) {
            try other.append(generatedEvents(1, seed: 1), to: f.session, expectedSeq: 10)
        }
        #expect(try f.log.session(f.session).eventCount == 10)
    }
}
