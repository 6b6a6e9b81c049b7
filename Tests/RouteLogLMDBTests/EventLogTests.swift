import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

@Suite("LMDBEventLog basics", .tags(.appleLocks))
struct EventLogBasicsTests {
    @Test func appendReadAndReplayMatchTheInMemoryLog() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let memory = InMemoryEventLog(snapshotInterval: 64)
        let events = generatedEvents(700, seed: 11)
        let s = try log.createSession(NewSession(label: "checkout", appName: "Demo", appVersion: "1.2"))
        let m = try memory.createSession(NewSession(label: "checkout"))
        var seq: UInt64 = 0
        for batch in stride(from: 0, to: events.count, by: 37).map({ Array(events[$0..<min($0 + 37, events.count)]) }) {
            let a = try log.append(batch, to: s.id, expectedSeq: seq)
            let b = try memory.append(batch, to: m.id, expectedSeq: seq)
            #expect(a == b)
            seq += UInt64(batch.count)
        }
        let info = try log.session(s.id)
        #expect(info.eventCount == 700)
        #expect(info.label == "checkout" && info.appName == "Demo" && info.appVersion == "1.2")
        #expect(info.headDigest == replay(events.map(\.event)).state.digest)
        #expect(info.lastEventAt == events.last!.meta.timestamp)
        #expect(try log.events(s.id) == memory.events(m.id))
        #expect(try log.events(s.id, from: 100, through: 130).map(\.seq) == Array(100...130))
        for at: UInt64 in [0, 1, 63, 64, 65, 500, 700] {
            #expect(try log.state(of: s.id, at: at) == memory.state(of: m.id, at: at), "state at \(at)")
        }
        #expect(try log.snapshot(s.id, atOrBefore: 130)?.seq == 128)
        #expect(try log.snapshot(s.id, atOrBefore: 63) == nil)
        #expect(try log.sessions().map(\.id) == [s.id])
        #expect(try log.verify(session: s.id).failure == nil)
    }

    @Test func everyOriginIsStoredAndReadBackIncludingDeepLink() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let s = try log.createSession(NewSession(label: "origins"))
        let events = Origin.allCases.enumerated().map { i, origin in
            RecordedEvent(.push(RouteRef(id: "r\(i)")), meta: EventMetadata(timestamp: 1_700_000_000_000 + Int64(i), origin: origin))
        }
        try log.append(events, to: s.id, expectedSeq: 0)
        #expect(try log.events(s.id).map(\.meta.origin) == [.app, .user, .system, .deepLink])
        #expect(try log.verify(session: s.id).failure == nil)
    }

    @Test func wrongExpectedSeqIsAConflictAndWritesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (log, s) = try storeWithSession(at: dir)
        let events = generatedEvents(5, seed: 2)
        try log.append(Array(events[0..<3]), to: s.id, expectedSeq: 0)
        #expect(throws: EventLogError.conflict(session: s.id, expected: 2, actual: 3)) {
            try log.append(Array(events[3..<5]), to: s.id, expectedSeq: 2)
        }
        #expect(try log.session(s.id).eventCount == 3)
        #expect(try log.events(s.id).count == 3)
        let unknown = SessionID("01900000-0000-7000-8000-000000000000")
        #expect(throws: EventLogError.sessionNotFound(unknown)) { try log.append(events, to: unknown, expectedSeq: 0) }
        #expect(throws: EventLogError.sessionNotFound(SessionID("nope"))) { try log.session(SessionID("nope")) }
    }

    @Test func reopeningKeepsEverythingAndAppendingContinues() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = generatedEvents(300, seed: 5)
        var id: SessionID
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions(.perEvent))
            id = try log.createSession(NewSession(label: "a")).id
            try log.append(Array(events[0..<200]), to: id, expectedSeq: 0)
        }
        #expect(!LMDBEnvironment.isOpen(at: dir.path))
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        try log.append(Array(events[200...]), to: id, expectedSeq: 200)
        #expect(try log.session(id).headDigest == replay(events.map(\.event)).state.digest)
        #expect(try log.verify(session: id).failure == nil)
    }

    @Test func twoHandlesInOneProcessShareTheEnvironmentAndNoticeEachOther() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let a = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let b = try LMDBEventLog.open(at: dir.path, options: testOptions())
        #expect(a.environment === b.environment)
        let events = generatedEvents(200, seed: 9)
        let s = try a.createSession(NewSession())
        try a.append(Array(events[0..<100]), to: s.id, expectedSeq: 0)
        try b.append(Array(events[100..<150]), to: s.id, expectedSeq: 100)
        try a.append(Array(events[150...]), to: s.id, expectedSeq: 150)
        #expect(try a.events(s.id).map(\.digest) == replay(events.map(\.event)).steps.map(\.digest))
        #expect(try b.verify(session: s.id).failure == nil)
    }
}
