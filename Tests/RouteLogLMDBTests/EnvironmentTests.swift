import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

@Suite("LMDB thin layer", .tags(.appleLocks))
struct EnvironmentTests {
    /// An environment open on a new store directory in `dir`.
    func openEnvironment(in dir: TempDir, _ options: LMDBEnvironment.Options = .init()) throws -> LMDBEnvironment {
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        return try LMDBEnvironment.open(at: dir.path, options: options)
    }

    @Test func writeTransactionsCommitOnReturnAndAbortOnThrow() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try openEnvironment(in: dir, .init(mapSize: 1 << 20))
        let db = try env.database(named: "t", create: true)
        try env.withWriteTransaction { try $0.put([1, 2, 3], forKey: Array("a".utf8), in: db) }
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try env.withWriteTransaction { txn in
                try txn.put([9], forKey: Array("b".utf8), in: db)
                throw Boom()
            }
        }
        let (a, b) = try env.withReadTransaction { txn in
            (try txn.value(forKey: Array("a".utf8), in: db), try txn.value(forKey: Array("b".utf8), in: db))
        }
        #expect(a == [1, 2, 3])
        #expect(b == nil)
        #expect(throws: LMDBError.keyExists) {
            try env.withWriteTransaction { try $0.put([4], forKey: Array("a".utf8), in: db, options: .noOverwrite) }
        }
        #expect(throws: LMDBError.keyExists) {
            try env.withWriteTransaction { try $0.put([4], forKey: [0], in: db, options: .append) }
        }
        #expect(throws: LMDBError.notFound) { try env.database(named: "missing") }
    }

    @Test func cursorsIterateInKeyOrderFromAStartKey() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try openEnvironment(in: dir)
        let db = try env.database(named: "c", create: true)
        try env.withWriteTransaction { txn in
            for k: UInt8 in [5, 1, 9, 3, 7] { try txn.put([k * 2], forKey: [k], in: db) }
        }
        try env.withReadTransaction { txn in
            var seen: [UInt8] = []
            try txn.forEach(in: db, from: [4]) { k, v in
                seen.append(k[0])
                #expect(v[0] == k[0] * 2)
                return k[0] < 7
            }
            #expect(seen == [5, 7])
            #expect(try txn.lastKey(in: db) == [9])
            #expect(try txn.withLastEntry(in: db, before: [7]) { k, _ in k[0] } == 5)
            #expect(try txn.withLastEntry(in: db, before: [100]) { k, _ in k[0] } == 9)
            #expect(try txn.withLastEntry(in: db, before: [1]) { k, _ in k[0] } == nil)
            #expect(try txn.statistics(of: db).entries == 5)
        }
    }

    @Test func oneEnvironmentPerResolvedPath() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let link = dir.parent + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir.path)
        let a = try LMDBEnvironment.open(at: dir.path)
        let b = try LMDBEnvironment.open(at: link)
        let c = try LMDBEnvironment.open(at: dir.path + "/", options: .init(readOnly: true))
        #expect(a === b && b === c)
        #expect(LMDBEnvironment.isOpen(at: link))
    }

    @Test func readTransactionsNestAndRunOnAnyThread() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try openEnvironment(in: dir)
        let db = try env.database(named: "n", create: true)
        try env.withWriteTransaction { try $0.put([1], forKey: [1], in: db) }
        // MDB_NOTLS: a second read transaction on the same thread works.
        let inner = try env.withReadTransaction { _ in try env.withReadTransaction { try $0.value(forKey: [1], in: db) } }
        #expect(inner == [1])
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<16 { group.addTask { try env.withReadTransaction { try $0.value(forKey: [1], in: db) } } }
            for try await v in group { #expect(v == [1]) }
        }
    }

    @Test func aFullMapGrowsAndTheBodyRunsAgain() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try openEnvironment(in: dir, .init(mapSize: 32 << 10))
        let before = env.mapSize
        let db = try env.database(named: "g", create: true)
        var runs = 0
        try env.withWriteTransaction { txn in
            runs += 1
            for i in 0..<2000 { try txn.put([UInt8](repeating: 7, count: 200), forKey: [UInt8(i >> 8), UInt8(i & 255)], in: db) }
        }
        #expect(runs > 1)
        #expect(env.mapSize > before)
        #expect(try env.withReadTransaction { try $0.statistics(of: db).entries } == 2000)
    }

    @Test func aReleasedEnvironmentOpensAgainWithTheSameDatabases() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try openEnvironment(in: dir, .init(mapSize: 1 << 20))
        let first = try env.database(named: "first", create: true)
        let second = try env.database(named: "second", create: true)
        try env.withWriteTransaction { txn in
            try txn.put([1], forKey: [1], in: first)
            try txn.put([2], forKey: [2], in: second)
        }
        env.release()
        #expect(!env.isOpen)
        #expect(env.mapSize == 1 << 20)
        env.release() // twice is harmless
        // The next transaction opens it again, with the handles the databases had.
        let (a, b) = try env.withReadTransaction { txn in
            (try txn.value(forKey: [1], in: first), try txn.value(forKey: [2], in: second))
        }
        #expect(a == [1] && b == [2])
        #expect(env.isOpen)
        env.release()
        try env.withWriteTransaction { try $0.put([3], forKey: [3], in: second) }
        #expect(try env.withReadTransaction { try $0.value(forKey: [3], in: second) } == [3])
        #expect(!env.isWriteMapped)
    }

    @Test func theMapGrowsUpToItsCapAndThenReportsAFullStore() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, initialMapSize: 256 << 10,
                                                                     maxMapSize: 1 << 20, retention: .none))
        #expect(log.environment.options.maxMapSize == 1 << 20)
        let session = try log.createSession(NewSession(label: "cap")).id
        var seq: UInt64 = 0
        var failure: (any Error)?
        // 1 MiB holds a few thousand of these events; 100,000 cannot fit.
        for _ in 0..<100 {
            do {
                let batch = (0..<1_000).map { i in RecordedEvent(.push(RouteRef(id: "screen-\(seq)-\(i)-" + String(repeating: "x", count: 64)))) }
                seq = try log.append(batch, to: session, expectedSeq: seq).last!.seq
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure as? LMDBEventLogError)
        #expect(error == .storeFull(path: log.environment.path, maxMapSize: 1 << 20))
        #expect("\(error)".contains("is full: it reached its 1 MiB map"))
        #expect(log.environment.mapSize <= 1 << 20)
        // What fitted is intact.
        #expect(try log.verify(session: session).failure == nil)
        #expect(LMDBEnvironment.Options.defaultMaxMapSize >= 1 << 30)
    }

    @Test func errorsCarryLMDBMessages() {
        #expect(LMDBError.notFound.description.hasPrefix("MDB_NOTFOUND"))
        #expect(LMDBError(rawValue: 13) == .permissionDenied)
        #expect(LMDBError.permissionDenied.description == "Permission denied (13)")
    }
}
