import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

@Suite("LMDBEventLog reliability", .serialized, .tags(.appleLocks))
struct ReliabilityTests {
    /// A child appends in a loop and is SIGKILLed at random moments; after every kill each
    /// acknowledged event is present, the session verifies and appending continues.
    @Test(.timeLimit(.minutes(10))) func survivesSigkillAtRandomMoments() throws {
        let seed = clockSeed()
        var rng = SplitMix64(seed: seed)
        let dir = try TempDir()
        defer { dir.cleanup() }
        let options = testOptions(.none, snapshotInterval: 16, mapSize: 64 << 10)
        var handle: LMDBEventLog? = try LMDBEventLog.open(at: dir.path, options: options)
        let session = try handle!.createSession(NewSession(label: "crash")).id
        let durabilities = ["none", "grouped", "perEvent"]
        var maxAcked: UInt64 = 0
        for round in 0..<24 {
            let child = try Child(["append", dir.path, session.rawValue, "\(seed &+ UInt64(round))", durabilities[round % 3]])
            let acksBeforeKill = Int(rng.next() % 60)
            var acked: [UInt64] = []
            while acked.count <= acksBeforeKill, let line = child.nextLine() {
                guard line.hasPrefix("acked ") else { Issue.record("round \(round) seed \(seed): child said \(line)"); break }
                acked.append(UInt64(line.dropFirst(6))!)
            }
            usleep(UInt32(rng.next() % 3000))
            child.kill()
            _ = child.finish()
            acked += child.lines.compactMap { $0.hasPrefix("acked ") ? UInt64($0.dropFirst(6)) : nil }.filter { $0 > (acked.last ?? 0) }
            if let last = acked.last { maxAcked = max(maxAcked, last) }

            // Reopen the store: close this process's only handle, then open it again.
            handle = nil
            #expect(!LMDBEnvironment.isOpen(at: dir.path))
            let log = try LMDBEventLog.open(at: dir.path, options: options)
            handle = log

            let info = try log.session(session)
            #expect(info.eventCount >= maxAcked, "round \(round) seed \(seed): acknowledged \(maxAcked) but only \(info.eventCount) stored")
            let events = try log.events(session)
            #expect(events.map(\.seq) == Array(stride(from: 1, through: info.eventCount, by: 1)), "round \(round) seed \(seed): seqs not dense")
            let report = try log.verify(session: session)
            #expect(report.isValid, "round \(round) seed \(seed): \(report)")
            // Appending continues from the test process too.
            let more = generatedEvents(3, seed: seed &+ 1000 &+ UInt64(round))
            let stored = try log.append(more, to: session, expectedSeq: info.eventCount)
            #expect(stored.map(\.seq) == [info.eventCount + 1, info.eventCount + 2, info.eventCount + 3])
            maxAcked = info.eventCount + 3
        }
        #expect(try handle!.verify(session: session).isValid)
    }

    /// A reader in another process follows the session while this process appends: every event
    /// it sees is the next one, with the digest its own replay gives (a consistent prefix).
    @Test(.timeLimit(.minutes(8))) func readerInAnotherProcessSeesAConsistentPrefix() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(.grouped(maxDelay: .milliseconds(5)), mapSize: 256 << 10))
        let session = try log.createSession(NewSession(label: "live")).id
        let total = 3000
        let child = try Child(["follow", dir.path, session.rawValue, "\(total)"])
        let events = generatedEvents(total, seed: 77)
        var rng = SplitMix64(seed: 78)
        var seq = 0
        while seq < total {
            let n = min(total - seq, Int(rng.next() % 40) + 1)
            try log.append(Array(events[seq..<seq + n]), to: session, expectedSeq: UInt64(seq))
            seq += n
            if rng.next() % 4 == 0 { usleep(500) }
        }
        let status = child.finish()
        #expect(status == 0, "follower said: \(child.lines.suffix(3))")
        #expect(child.lines.last == "done \(total)")
    }

    /// Many tasks append concurrently through the public API, with optimistic retries on one shared
    /// session and without on their own sessions: seqs stay dense and every digest is the replay's.
    @Test(.timeLimit(.minutes(8))) func concurrentAppendsFromManyTasks() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(.grouped(maxDelay: .milliseconds(5))))
        let shared = try log.createSession(NewSession(label: "shared")).id
        let own = try (0..<4).map { try log.createSession(NewSession(label: "own \($0)")).id }
        let tasks = 8, appendsPerTask = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    let events = generatedEvents(appendsPerTask * 2, seed: UInt64(t))
                    for i in 0..<appendsPerTask {
                        while true {
                            let seq = try log.session(shared).eventCount
                            do {
                                try log.append(Array(events[i * 2..<i * 2 + 2]), to: shared, expectedSeq: seq)
                                break
                            } catch EventLogError.conflict {
                                continue
                            }
                        }
                    }
                }
            }
            for (k, id) in own.enumerated() {
                group.addTask {
                    let events = generatedEvents(appendsPerTask, seed: 100 + UInt64(k))
                    for i in 0..<appendsPerTask {
                        let stored = try log.append(events[i], to: id, expectedSeq: UInt64(i))
                        #expect(stored.seq == UInt64(i + 1))
                    }
                }
            }
            try await group.waitForAll()
        }
        let events = try log.events(shared)
        #expect(events.map(\.seq) == Array(1...UInt64(tasks * appendsPerTask * 2)))
        #expect(events.map(\.digest) == replay(events.map(\.event)).steps.map(\.digest))
        #expect(try log.verify(session: shared).isValid)
        for id in own {
            #expect(try log.session(id).eventCount == UInt64(appendsPerTask))
            #expect(try log.verify(session: id).isValid)
        }
    }

    /// From a 64 KiB map, a million events are written (in batches) through growth.
    @Test(.timeLimit(.minutes(10))) func mapFullGrowsFromATinyMap() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(.none, snapshotInterval: 4096, mapSize: 64 << 10))
        let initial = log.environment.mapSize
        let session = try log.createSession(NewSession(label: "big")).id
        // Small events keep a debug build fast; the point is the million records and the growth.
        let batch = (0..<10_000).map { i in RecordedEvent(i % 2 == 0 ? .push(RouteRef(id: "r\(i % 7)")) : .pop()) }
        var seq: UInt64 = 0
        for _ in 0..<100 {
            try log.append(batch, to: session, expectedSeq: seq)
            seq += UInt64(batch.count)
        }
        #expect(try log.session(session).eventCount == 1_000_000)
        #expect(log.environment.mapSize > 100 * initial)
        var count = 0
        try log.read(session, from: 999_990, through: .max) { _ in count += 1; return true }
        #expect(count == 11)
    }
}
