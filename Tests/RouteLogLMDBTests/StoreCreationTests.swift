import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// How a store is created and recognized: in one write transaction, judged inside LMDB's lock.
/// (Concurrent creation by many processes is in MultiProcessTests.)
@Suite("LMDBEventLog store creation", .serialized, .tags(.appleLocks))
struct StoreCreationTests {
    /// The names in an environment's main database (the named databases it holds).
    private func databaseNames(_ path: String) throws -> [String] {
        let env = try LMDBEnvironment.open(at: path)
        let main = try env.database(named: nil)
        return try env.withReadTransaction { txn in
            var names: [String] = []
            try txn.forEach(in: main) { key, _ in names.append(String(decoding: key, as: UTF8.self)); return true }
            return names
        }
    }

    @Test func aNewStoreHasItsDatabasesAndFormatFromItsFirstCommit() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            let (id, format) = try log.environment.withReadTransaction { txn in
                (txn.transactionID, try txn.value(forKey: Array("format".utf8), in: log.databases.meta))
            }
            // One commit created everything: databases and format.
            #expect(id == 1)
            #expect(format == [0, 0, 0, UInt8(storeFormatVersion)])
        }
        #expect(try databaseNames(dir.path) == ["events", "meta", "sessions", "sites", "snapshots"])
    }

    /// An environment of another program is refused, and the refusal writes nothing: the store's
    /// databases are created in the same transaction as the check, which is aborted.
    @Test func refusingAForeignEnvironmentWritesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        do {
            let env = try LMDBEnvironment.open(at: dir.path)
            let users = try env.database(named: "users", create: true)
            try env.withWriteTransaction { try $0.put([1], forKey: [1], in: users) }
        }
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "the LMDB environment holds other databases (users)")) {
            try LMDBEventLog.open(at: dir.path, options: testOptions())
        }
        #expect(try databaseNames(dir.path) == ["users"])
    }

    /// A store left by an interrupted creation of an older version (databases, no format) is
    /// adopted by a read-write open only if it has no events; with events it is refused and
    /// left as it was.
    @Test func databasesWithoutAFormatAreAdoptedOnlyWithoutEvents() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        func makeEnvironment(eventCount: Int) throws {
            let env = try LMDBEnvironment.open(at: dir.path)
            let dbs = try StoreDatabases.names.map { try env.database(named: $0, create: true) }
            try env.withWriteTransaction { txn in
                for i in 0..<eventCount { try txn.put([1], forKey: [UInt8(i)], in: dbs[2]) }
            }
        }
        try makeEnvironment(eventCount: 0)
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "the \"meta\" database has no format version")) {
            try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))
        }
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            #expect(try log.sessions().isEmpty)
        }
        _ = try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))

        let other = try TempDir()
        defer { other.cleanup() }
        try FileManager.default.createDirectory(atPath: other.path, withIntermediateDirectories: true)
        let otherDir = other.path
        do {
            let env = try LMDBEnvironment.open(at: otherDir)
            let dbs = try StoreDatabases.names.map { try env.database(named: $0, create: true) }
            try env.withWriteTransaction { try $0.put([1], forKey: [1], in: dbs[2]) }
        }
        #expect(throws: LMDBEventLogError.notAStore(path: otherDir, reason: "it has events but no format version")) {
            try LMDBEventLog.open(at: otherDir, options: testOptions())
        }
        let env = try LMDBEnvironment.open(at: otherDir)
        let meta = try env.database(named: "meta")
        #expect(try env.withReadTransaction { try $0.value(forKey: Array("format".utf8), in: meta) } == nil)
    }

    /// LMDB's own files are never foreign: a directory holding only lock.mdb (a creator has just
    /// begun) becomes a store; other files beside it are named without it.
    @Test func lmdbFilesAreNotForeignFiles() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: dir.path + "/lock.mdb", contents: nil))
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
            #expect(try log.sessions().isEmpty)
        }
        let other = try TempDir()
        defer { other.cleanup() }
        try fm.createDirectory(atPath: other.path, withIntermediateDirectories: true)
        #expect(fm.createFile(atPath: other.path + "/lock.mdb", contents: nil))
        #expect(fm.createFile(atPath: other.path + "/notes.txt", contents: Data("x".utf8)))
        #expect(throws: LMDBEventLogError.notAStore(path: other.path, reason: "it has no data.mdb but holds other files (notes.txt)")) {
            try LMDBEventLog.open(at: other.path, options: testOptions())
        }
    }

    /// A read-only open of an environment nothing was committed to waits for a creator (a
    /// bounded time), then says the environment is empty.
    @Test func readOnlyOpenOfAnEmptyEnvironmentWaitsThenReports() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        do { _ = try LMDBEnvironment.open(at: dir.path) }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: LMDBEventLogError.notAStore(path: dir.path, reason: "the LMDB environment is empty (no store was created in it)")) {
            try LMDBEventLog.open(at: dir.path, options: testOptions(readOnly: true))
        }
        #expect(clock.now - start >= StoreOpener.creationWait)
    }
}
