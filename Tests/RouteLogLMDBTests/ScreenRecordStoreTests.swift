import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing
@_spi(Tools) @testable import RouteLogLMDB

/// How a store keeps screen records: under `scr` in `meta`, each sealed with its key, deleted with
/// their session, and never in the way of the session's events.
@Suite(.tags(.appleLocks)) struct ScreenRecordStoreTests {
    static let records: [ScreenRecord] = [
        ScreenRecord(.appeared(.stackEntry(frame: .root, index: 0, routeID: "home")), headSeq: 1, time: 10),
        ScreenRecord(.diverged(Divergence(kind: .depthMismatch, screen: .stackEntry(frame: .root, index: 1, routeID: "a"), seq: 2,
                                          cause: .pathWriteDuringTabSwitch, visibleDepth: 2, stateDepth: 1, detectedAt: 20)),
                     headSeq: 2, time: 20),
        ScreenRecord(.disappeared(.presentation(token: 2, routeID: "player")), headSeq: 2, time: 30),
    ]

    func store(_ dir: TempDir, sessions: Int) throws -> (LMDBEventLog, [SessionID]) {
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, clock: { 1_700_000_000_000 }))
        var ids: [SessionID] = []
        for _ in 0..<sessions {
            let id = try log.createSession(NewSession(label: "s")).id
            try log.append([RecordedEvent(.push(RouteRef(id: "home"))), RecordedEvent(.push(RouteRef(id: "a")))], to: id, expectedSeq: 0)
            try log.appendScreenRecords(Self.records, to: id)
            ids.append(id)
        }
        return (log, ids)
    }

    func screenKeys(_ log: LMDBEventLog) throws -> Int {
        try log.entryCount(in: log.databases.meta, prefix: SessionScreens.keyPrefix)
    }

    @Test func appendsFollowEachOtherAndReadInOrder() throws {
        let dir = try TempDir()
        let (log, ids) = try store(dir, sessions: 1)
        #expect(try log.screenRecordCount(ids[0]) == 3)
        try log.appendScreenRecords(Array(Self.records.prefix(1)), to: ids[0])
        #expect(try log.screenRecords(ids[0]) == Self.records + Self.records.prefix(1))
        #expect(try log.screenRecordCount(ids[0]) == 4)
        let empty = try log.createSession(NewSession(label: "none")).id
        #expect(try log.screenRecordCount(empty) == 0)
        #expect(throws: EventLogError.sessionNotFound(SessionID("0190b5a2-0000-7000-8000-000000000000"))) {
            try log.appendScreenRecords(Self.records, to: SessionID("0190b5a2-0000-7000-8000-000000000000"))
        }
    }

    @Test func deletingASessionDeletesItsScreenRecordsAndNoOtherSessions() throws {
        let dir = try TempDir()
        let (log, ids) = try store(dir, sessions: 2)
        #expect(try screenKeys(log) == 6)
        try log.deleteSession(ids[0])
        #expect(throws: EventLogError.sessionNotFound(ids[0])) { try log.screenRecords(ids[0]) }
        #expect(try log.screenRecords(ids[1]) == Self.records)
        #expect(try screenKeys(log) == 3)
    }

    @Test func aDamagedOrMovedScreenRecordIsNamedAndTheEventsStillRead() throws {
        let dir = try TempDir()
        let (log, ids) = try store(dir, sessions: 1)
        let prefix = StoreKey.eventPrefix(try log.session(ids[0]))
        // A flipped bit in record 2's body.
        let key = SessionScreens.key(prefix, 2)
        try log.environment.withWriteTransaction { txn in
            var bytes = try #require(try txn.value(forKey: key, in: log.databases.meta))
            bytes[bytes.count - 17] ^= 0x40
            try txn.put(bytes, forKey: key, in: log.databases.meta)
        }
        #expect {
            try log.screenRecords(ids[0])
        } throws: { error in
            "\(error)".contains("screen record 2 of \(ids[0])") && "\(error)".contains("checksum mismatch")
        }
        #expect(try log.events(ids[0]).count == 2)
        #expect(try log.verify(session: ids[0]).isValid)
        // Record 1's bytes under key 3: its seal names its own key.
        try log.environment.withWriteTransaction { txn in
            let one = try #require(try txn.value(forKey: SessionScreens.key(prefix, 1), in: log.databases.meta))
            try txn.put(one, forKey: SessionScreens.key(prefix, 2), in: log.databases.meta)
        }
        #expect {
            try log.screenRecords(ids[0])
        } throws: { error in "\(error)".contains("screen record 2 of") }
    }

    @Test func aReaderOfManyRecordsReadsThemAllInOrder() throws {
        let dir = try TempDir()
        let (log, ids) = try store(dir, sessions: 1)
        let many = (0..<10_000).map { i in
            ScreenRecord(.appeared(.tabRoot("t\(i)")), headSeq: 2, time: Int64(i))
        }
        try log.appendScreenRecords(many, to: ids[0])
        let read = try log.screenRecords(ids[0])
        #expect(read.count == 10_003 && Array(read.dropFirst(3)) == many)
        var first: [ScreenRecord] = []
        try log.readScreenRecords(ids[0]) { first.append($0); return first.count < 5 }
        #expect(first.count == 5)
    }

    @Test(arguments: [ScreenID.presentation(token: 9, routeID: "player"),
                      .stackEntry(frame: .presentation(4), index: 3, routeID: "é-1", tab: nil),
                      .stackEntry(frame: .root, index: 0, routeID: "home", tab: "library"),
                      .tabRoot("search")])
    func theBinaryFormRoundTripsEveryKindAndRefusesEveryTruncation(screen: ScreenID) throws {
        let records = [ScreenRecord(.appeared(screen), headSeq: 0, time: -5),
                       ScreenRecord(.disappeared(screen), headSeq: 1 << 40, time: 1_700_000_000_000)]
            + Divergence.Kind.allCases.flatMap { kind in
                ([nil] + Divergence.Cause.allCases.map(Optional.some)).map { cause in
                    ScreenRecord(.diverged(Divergence(kind: kind, screen: screen, seq: 7, cause: cause,
                                                      visibleDepth: kind == .depthMismatch ? 2 : nil,
                                                      stateDepth: kind == .depthMismatch ? 0 : nil, detectedAt: 42)),
                                 headSeq: 8, time: 43)
                }
            }
        func decode(_ bytes: [UInt8]) throws -> ScreenRecord {
            try bytes.withUnsafeBytes { raw in
                var reader = BinaryReader(raw)
                let r = try reader.readScreenRecord()
                try reader.expectEnd()
                return r
            }
        }
        for r in records {
            var w = BinaryWriter()
            w.write(r)
            #expect(try decode(w.bytes) == r)
            for n in 0..<w.bytes.count {
                #expect(throws: BinaryDecodingError.self) { try decode(Array(w.bytes.prefix(n))) }
            }
        }
    }
}

extension ScreenRecordStoreTests {
    /// The bytes of a record are the format guide's table, so the codes never move.
    @Test func theCodesAreTheFormatGuides() {
        var w = BinaryWriter()
        w.write(ScreenRecord(.diverged(Divergence(kind: .depthMismatch, screen: .tabRoot("a"), seq: 5, cause: .removedWithoutWrite,
                                                  visibleDepth: 2, stateDepth: 1, detectedAt: 3)), headSeq: 6, time: -1))
        #expect(w.bytes == [3, 6, 1, 3, 1, 0x61, 3, 5, 3, 3, 2, 1, 6])
    }
}
