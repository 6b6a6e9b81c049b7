import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

@Suite("LMDBEventLog bad input", .serialized, .tags(.appleLocks))
struct BadInputTests {
    @Test func aNewerFormatIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let newer = storeFormatVersion + 1
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            _ = try log.createSession(NewSession())
            let meta = try log.environment.database(named: "meta")
            try log.environment.withWriteTransaction { try $0.put([0, 0, 0, UInt8(newer)], forKey: Array("format".utf8), in: meta) }
        }
        #expect(throws: LMDBEventLogError.newerFormat(path: dir.path, found: newer, supported: storeFormatVersion)) {
            try LMDBEventLog.open(at: dir.path, options: testOptions())
        }
        #expect(throws: LMDBEventLogError.newerFormat(path: dir.path, found: newer, supported: storeFormatVersion)) {
            try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))
        }
    }

    /// A store of an older format (1: rejection reasons numbered apart from the core's table; 2:
    /// events keyed by the 16-byte session id) is refused with the way forward: export with the
    /// release that wrote it, import into a new store.
    @Test(arguments: [UInt32(1), 2]) func anOlderFormatIsRefusedWithTheWayForward(_ older: UInt32) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            _ = try log.createSession(NewSession())
            let meta = try log.environment.database(named: "meta")
            try log.environment.withWriteTransaction { try $0.put([0, 0, 0, UInt8(older)], forKey: Array("format".utf8), in: meta) }
        }
        let expected = LMDBEventLogError.olderFormat(path: dir.path, found: older, supported: 3)
        #expect(throws: expected) { try LMDBEventLog.open(at: dir.path, options: testOptions()) }
        #expect(throws: expected) { try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true)) }
        #expect(expected.description.contains("older than the format 3") && expected.description.contains("routelog import"))
    }

    @Test func aDirectoryThatIsNotAStoreIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir.path + "/notes.txt"))
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "it has no data.mdb but holds other files (notes.txt)")) {
            try LMDBEventLog.open(at: dir.path)
        }
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "it has no data.mdb")) {
            try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))
        }
        // A data.mdb that is not LMDB's.
        try Data(repeating: 0x5A, count: 16384).write(to: URL(fileURLWithPath: dir.path + "/data.mdb"))
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "data.mdb is not an LMDB file of this version")) {
            try LMDBEventLog.open(at: dir.path)
        }
        // An LMDB environment of another program.
        let other = dir.parent + "/other"
        try fm.createDirectory(atPath: other, withIntermediateDirectories: true)
        do {
            let env = try LMDBEnvironment.open(at: other)
            let users = try env.database(named: "users", create: true)
            try env.withWriteTransaction { try $0.put([1], forKey: [1], in: users) }
        }
        #expect(throws: LMDBEventLogError.notAStore(path: other, reason: "the LMDB environment holds other databases (users)")) {
            try LMDBEventLog.open(at: other)
        }
        // A missing directory, read-only.
        #expect(throws: LMDBEventLogError.notAStore(path: dir.parent + "/missing", reason: "no such directory")) {
            try LMDBEventLog.open(at: dir.parent + "/missing", options: testOptions(readOnly: true))
        }
    }

    @Test func aPlainFileIsNotADirectory() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.parent, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.path))
        #expect(throws: LMDBEventLogError.notADirectory(path: dir.path)) { try LMDBEventLog.open(at: dir.path) }
        #expect(throws: LMDBEventLogError.notADirectory(path: dir.path)) { try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true)) }
    }

    @Test func createsTheDirectory0700AndFiles0600() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        _ = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let fm = FileManager.default
        func mode(_ p: String) throws -> Int { try (fm.attributesOfItem(atPath: p)[.posixPermissions] as? NSNumber)?.intValue ?? -1 }
        #expect(try mode(dir.path) == 0o700)
        #expect(try mode(dir.path + "/data.mdb") == 0o600)
        #expect(try mode(dir.path + "/lock.mdb") == 0o600)
    }

    /// A read-only directory: opening read-write is a permission error, opening read-only reads.
    /// Run in a child process as user `nobody` when the tests run as root (root ignores modes).
    @Test func aReadOnlyDirectoryOpensOnlyForReading() throws {
        let dir = try TempDir()
        defer {
            chmod(dir.path, 0o700)
            dir.cleanup()
        }
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            let s = try log.createSession(NewSession(label: "ro"))
            try log.append(generatedEvents(5, seed: 1), to: s.id, expectedSeq: 0)
        }
        chmod(dir.parent, 0o755)
        chmod(dir.path + "/data.mdb", 0o444)
        chmod(dir.path + "/lock.mdb", 0o444)
        chmod(dir.path, 0o555)
        let rw = try Child(["open", dir.path, "rw", "nobody"])
        #expect(rw.finish() == 1)
        #expect(rw.lines.first?.hasPrefix("error: permission denied for store \(dir.path)") == true, "\(rw.lines)")
        let ro = try Child(["open", dir.path, "ro", "nobody"])
        #expect(ro.finish() == 0)
        #expect(ro.lines == ["ok 1"])
        // Unreadable.
        chmod(dir.path, 0o000)
        let none = try Child(["open", dir.path, "ro", "nobody"])
        #expect(none.finish() == 1)
        #expect(none.lines == ["error: permission denied for store \(dir.path): the directory cannot be read"])
    }

    @Test func aReadOnlyLogRefusesWritesWithATypedError() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let s: SessionID
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            s = try log.createSession(NewSession()).id
        }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))
        #expect(throws: LMDBEventLogError.readOnly(path: dir.path)) { try log.append(generatedEvents(1, seed: 1), to: s, expectedSeq: 0) }
        #expect(throws: LMDBEventLogError.openReadOnlyElsewhere(path: dir.path)) { try LMDBEventLog.open(at: dir.path, options: testOptions()) }
        #expect(try log.sessions().count == 1)
    }

    @Test func garbageAndTruncatedValuesAreTypedErrors() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(format: 3))
        let info = try log.createSession(NewSession(label: "g"))
        let s = info.id
        try log.append(generatedEvents(20, seed: 4), to: s, expectedSeq: 0)
        let key = StoreKey.sessionBytes(s)!
        let prefix = StoreKey.eventPrefix(info)
        let events = try log.environment.database(named: "events")
        let sessions = try log.environment.database(named: "sessions")
        try log.environment.withWriteTransaction { txn in
            let record = try #require(try txn.value(forKey: StoreKey.event(prefix, 7), in: events))
            try txn.put(Array(record.prefix(20)), forKey: StoreKey.event(prefix, 7), in: events)
        }
        #expect(throws: LMDBEventLogError.corruptRecord(session: s, seq: 7, reason: "at byte 0: truncated: 20 bytes, shorter than the 35 bytes of a record without payload")) {
            try log.read(s, from: 7, through: 7) { _ in true }
        }
        let report = try log.verify(session: s)
        #expect(report.failure?.seq == 7 && report.failure?.check == .checksum)
        try log.environment.withWriteTransaction { try $0.put([UInt8](repeating: 0x11, count: 40), forKey: key, in: sessions) }
        #expect(throws: LMDBEventLogError.corruptValue(database: "sessions", key: s.rawValue, reason: "at byte 24: checksum mismatch")) {
            try log.session(s)
        }
        try log.environment.withWriteTransaction { try $0.put([1, 2, 3], forKey: key, in: sessions) }
        #expect(throws: LMDBEventLogError.corruptValue(database: "sessions", key: s.rawValue, reason: "at byte 0: 3 bytes, too short for a checksum")) {
            try log.sessions()
        }
    }

    @Test func errorDescriptionsAreOneLine() {
        let errors: [LMDBEventLogError] = [
            .notADirectory(path: "/x"), .notAStore(path: "/x", reason: "r"), .newerFormat(path: "/x", found: 9, supported: 1), .olderFormat(path: "/x", found: 1, supported: 2),
            .permissionDenied(path: "/x", reason: "r"), .readOnly(path: "/x"), .openReadOnlyElsewhere(path: "/x"),
            .invalidSessionID("q"), .corruptRecord(session: SessionID("s"), seq: 3, reason: "r"),
            .corruptValue(database: "d", key: "k", reason: "r"), .storage(.mapFull, operation: "writing"),
        ]
        for e in errors {
            #expect(!e.description.isEmpty && !e.description.contains("\n"))
        }
        #expect(LMDBError.mapFull.description == "MDB_MAP_FULL: Environment mapsize limit reached (-30792)")
        #expect(LMDBError.noSpace.description == "No space left on device (28)")
    }
}
