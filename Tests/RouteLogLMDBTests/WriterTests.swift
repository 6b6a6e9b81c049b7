import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// Who writes a job: a lone `perform` on its caller's thread, anything that arrives while a group
/// is being written on the writer thread after it, and never two at once.
@Suite("Writer", .tags(.appleLocks))
struct WriterTests {
    /// A writer on a new environment in `dir`, with a database "t".
    func makeWriter(in dir: TempDir) throws -> (Writer, LMDBEnvironment, LMDBDatabase) {
        try FileManager.default.createDirectory(atPath: dir.path, withIntermediateDirectories: true)
        let env = try LMDBEnvironment.open(at: dir.path, options: .init(mapSize: 1 << 20))
        let db = try env.database(named: "t", create: true)
        return (Writer(environment: env, durability: .none), env, db)
    }

    /// Whether the job `write` hands over (it puts `key` in `db`) ran on this thread, and that
    /// the key was written.
    func ranHere(_ env: LMDBEnvironment, _ db: LMDBDatabase, key: UInt8, _ write: (@escaping Writer.Body) throws -> Void) throws -> Bool {
        let caller = pthread_self()
        var ranOn: pthread_t?
        try write { txn, _ in
            ranOn = pthread_self()
            try txn.put([key], forKey: [key], in: db)
        }
        #expect(try env.withReadTransaction { try $0.value(forKey: [key], in: db) } == [key])
        let thread = try #require(ranOn)
        return pthread_equal(thread, caller) != 0
    }

    @Test func aLoneAppendIsWrittenOnItsCallersThread() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (writer, env, db) = try makeWriter(in: dir)
        defer { writer.stop() }
        #expect(try ranHere(env, db, key: 1) { try writer.perform(weight: 1, $0) })
        // A submitted job is the writer thread's: its caller goes on meanwhile.
        #expect(try !ranHere(env, db, key: 2) { try writer.wait(for: writer.submit(weight: 1, $0)) })
    }

    /// A caller that asks for the hand-over (``WriterHandOff``) is written on the writer thread.
    @Test func aCallerThatAsksForTheHandOffIsWrittenOnTheWriterThread() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (writer, env, db) = try makeWriter(in: dir)
        defer { writer.stop() }
        let here = try WriterHandOff.requested.withValue(true) {
            try ranHere(env, db, key: 3) { try writer.perform(weight: 1, $0) }
        }
        #expect(!here)
    }

    @Test func aFailedLoneAppendThrowsToItsCallerAndWritesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (writer, env, db) = try makeWriter(in: dir)
        defer { writer.stop() }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try writer.perform(weight: 1) { txn, _ in
                try txn.put([1], forKey: [1], in: db)
                throw Writer.Abort(error: Refused())
            }
        }
        #expect(try env.withReadTransaction { try $0.value(forKey: [1], in: db) } == nil)
        // The next one is written: nothing was left marked as being written.
        try writer.perform(weight: 1) { txn, _ in try txn.put([2], forKey: [2], in: db) }
        #expect(try env.withReadTransaction { try $0.value(forKey: [2], in: db) } == [2])
    }

    /// Appends that arrive while a caller writes wait and are written after it, in one group on
    /// the writer thread; no two jobs ever run at once.
    @Test func appendsArrivingDuringALoneAppendJoinTheNextGroup() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (writer, env, db) = try makeWriter(in: dir)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let running = ConcurrentJobs()
        let first = Thread {
            try? writer.perform(weight: 1) { txn, _ in
                running.enter()
                defer { running.leave() }
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
                try txn.put([0], forKey: [0], in: db)
            }
        }
        first.start()
        #expect(entered.wait(timeout: .now() + 10) == .success)
        let group = DispatchGroup()
        let others = 4
        let threads = (1...others).map { k in
            Thread {
                defer { group.leave() }
                try? writer.perform(weight: 1) { txn, _ in
                    running.enter()
                    defer { running.leave() }
                    try txn.put([UInt8(k)], forKey: [UInt8(k)], in: db)
                }
            }
        }
        for t in threads { group.enter(); t.start() }
        // They wait for the first: none of them is written yet.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(try env.withReadTransaction { txn in try (1...others).compactMap { try txn.value(forKey: [UInt8($0)], in: db) } }.isEmpty)
        release.signal()
        #expect(group.wait(timeout: .now() + 10) == .success)
        writer.stop()
        let stored = try env.withReadTransaction { txn in try (0...others).compactMap { try txn.value(forKey: [UInt8($0)], in: db) } }
        #expect(stored == (0...others).map { [UInt8($0)] })
        #expect(running.most == 1)
    }
}

/// How many jobs run at once, and the most that ever did.
final class ConcurrentJobs: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0

    func enter() {
        lock.lock()
        now += 1
        most = max(most, now)
        lock.unlock()
    }

    func leave() {
        lock.lock()
        now -= 1
        lock.unlock()
    }
}
