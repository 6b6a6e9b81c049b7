import Foundation
@_spi(Tools) import RouteLogCore
import Synchronization
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// Options for lifecycle tests: no sync, small snapshots interval, the given retention and clock.
func lifecycleOptions(_ retention: LMDBEventLog.Retention = .none, snapshotInterval: UInt64 = 16,
                      clock: @escaping @Sendable () -> Int64 = { 1_700_000_000_000 }) -> LMDBEventLog.Options {
    LMDBEventLog.Options(durability: .none, snapshotInterval: snapshotInterval, initialMapSize: 1 << 20, clock: clock, retention: retention)
}

/// The event and snapshot key prefixes (session numbers) of the sessions ``fill(_:label:count:seed:batch:)``
/// made, so their keys can be looked for after the sessions' rows are gone.
private let knownPrefixes = Mutex<[SessionID: [UInt8]]>([:])

/// How many entries of `db` have keys that start with the session's number.
func storedEntries(_ log: LMDBEventLog, _ id: SessionID, in db: LMDBDatabase) throws -> Int {
    let prefix = try #require(knownPrefixes.withLock { $0[id] }, "no prefix known for \(id)")
    return try log.entryCount(in: db, prefix: prefix)
}

/// Creates a session of `count` generated events, appended in batches.
@discardableResult
func fill(_ log: LMDBEventLog, label: String, count: Int, seed: UInt64, batch: Int = 500) throws -> SessionID {
    let info = try log.createSession(NewSession(label: label))
    let id = info.id
    knownPrefixes.withLock { $0[id] = StoreKey.eventPrefix(info) }
    let events = generatedEvents(count, seed: seed)
    var seq = 0
    while seq < count {
        let n = min(batch, count - seq)
        try log.append(Array(events[seq..<seq + n]), to: id, expectedSeq: UInt64(seq))
        seq += n
    }
    return id
}

@Suite("Deleting sessions", .tags(.appleLocks))
struct DeleteTests {
    @Test func deleteRemovesEventsSnapshotsAndRowAndKeepsTheOthers() throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        let a = try fill(log, label: "a", count: 300, seed: 1)
        let b = try fill(log, label: "b", count: 300, seed: 2)
        let c = try fill(log, label: "c", count: 300, seed: 3)
        #expect(try storedEntries(log, b, in: log.databases.events) == 300)
        #expect(try storedEntries(log, b, in: log.databases.snapshots) == 300 / 16)
        let before = try log.events(a)

        try log.deleteSession(b)

        #expect(try log.sessions().map(\.id) == [a, c])
        #expect(throws: EventLogError.sessionNotFound(b)) { try log.session(b) }
        #expect(throws: EventLogError.sessionNotFound(b)) { try log.events(b) }
        #expect(try storedEntries(log, b, in: log.databases.events) == 0)
        #expect(try storedEntries(log, b, in: log.databases.snapshots) == 0)
        #expect(try log.events(a) == before)
        #expect(try log.verify(session: a).isValid)
        #expect(try log.verify(session: c).isValid)
        #expect(throws: EventLogError.sessionNotFound(b)) { try log.deleteSession(b) }
        #expect(throws: EventLogError.sessionNotFound(b)) { try log.append(generatedEvents(1, seed: 9), to: b, expectedSeq: 300) }
        // Appending to the others goes on; the lock file of the deleted session is gone.
        try log.append(generatedEvents(2, seed: 4), to: c, expectedSeq: 300)
        #expect(!FileManager.default.fileExists(atPath: log.context.locks!.path(b)))

        // Reopened, the store says the same.
        let again = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(.none))
        #expect(try again.sessions().map(\.id) == [a, c])
    }

    @Test func deletingSeveralIsAllOrNothing() throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        let a = try fill(log, label: "a", count: 50, seed: 1)
        let b = try fill(log, label: "b", count: 50, seed: 2)
        let unknown = SessionID("01900000-0000-7000-8000-000000000000")
        #expect(throws: EventLogError.sessionNotFound(unknown)) { try log.deleteSessions([a, unknown, b]) }
        #expect(try log.sessions().map(\.id) == [a, b])
        #expect(throws: EventLogError.sessionNotFound(SessionID("not-a-uuid"))) { try log.deleteSession(SessionID("not-a-uuid")) }
        try log.deleteSessions([a, b])
        #expect(try log.sessions().isEmpty)
        #expect(try storedEntries(log, a, in: log.databases.events) + storedEntries(log, b, in: log.databases.events) == 0)
    }

    @Test func inMemoryLogDeletes() throws {
        let log = InMemoryEventLog(snapshotInterval: 4)
        let a = try log.createSession(NewSession(label: "a")).id
        let b = try log.createSession(NewSession(label: "b")).id
        try log.append(generatedEvents(10, seed: 1), to: a, expectedSeq: 0)
        try log.deleteSession(a)
        #expect(try log.sessions().map(\.id) == [b])
        #expect(throws: EventLogError.sessionNotFound(a)) { try log.events(a) }
        #expect(throws: EventLogError.sessionNotFound(a)) { try log.snapshot(a, atOrBefore: 8) }
        #expect(throws: EventLogError.sessionNotFound(a)) { try log.deleteSession(a) }
    }

    @Test func aReadOnlyLogCannotDelete() throws {
        let dir = try TempDir()
        let id: SessionID
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
            id = try fill(log, label: "a", count: 5, seed: 1)
        }
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(throws: LMDBEventLogError.readOnly(path: dir.path)) { try reader.deleteSession(id) }
    }

    /// A reader in another thread checks, in each read transaction, that the session is either
    /// whole (row and every event) or gone (neither), while it is deleted; the public read API
    /// either returns every event or says the session is not found, never a corrupt record.
    @Test(.timeLimit(.minutes(8))) func aReaderSeesTheWholeSessionOrNone() throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        let count = 4000
        for round in 0..<4 {
            let id = try fill(log, label: "doomed \(round)", count: count, seed: UInt64(round), batch: 1000)
            let rowKey = StoreKey.sessionBytes(id)!
            let key = StoreKey.eventPrefix(try log.session(id))
            let states = Mutex<[String]>([])
            let stop = Atomic<Bool>(false)
            let reader = Thread {
                for _ in 0..<100_000 where !stop.load(ordering: .acquiring) {
                    do {
                        let seen = try log.environment.withReadTransaction { txn -> String in
                            let row = try txn.value(forKey: rowKey, in: log.databases.sessions) != nil
                            var n = 0
                            try txn.forEach(in: log.databases.events, from: key) { k, v in
                                guard Array(k.prefix(key.count)) == key else { return false }
                                // A block of format 4 holds the events its second byte counts.
                                n += log.databases.blocks ? Int(v[1]) : 1
                                return true
                            }
                            return "\(row) \(n)"
                        }
                        states.withLock { $0.append(seen) }
                        let events = try? log.events(id)
                        if let events, events.count != count { states.withLock { $0.append("api \(events.count)") } }
                    } catch {
                        states.withLock { $0.append("error \(error)") }
                    }
                }
            }
            reader.start()
            // Let the reader see the whole session at least once, then delete it.
            for _ in 0..<5_000 where !states.withLock({ $0.contains("true \(count)") }) { usleep(1_000) }
            try log.deleteSession(id)
            for _ in 0..<5_000 where !states.withLock({ $0.contains("false 0") }) { usleep(1_000) }
            stop.store(true, ordering: .releasing)
            while !reader.isFinished { usleep(1_000) }
            let seen = Set(states.withLock { $0 })
            #expect(seen == ["true \(count)", "false 0"], "round \(round): \(seen.sorted())")
        }
    }
}

@Suite("Deleting sessions under SIGKILL", .serialized, .tags(.appleLocks))
struct DeleteCrashTests {
    /// A child deletes sessions one by one and is SIGKILLed at random moments; after every kill
    /// each session is whole (its row, every event verifying) or gone (no row, no events, no
    /// snapshots), and each one the child acknowledged is gone.
    @Test(.timeLimit(.minutes(10))) func aKilledDeleteLeavesEachSessionWholeOrGone() throws {
        let seed = clockSeed()
        var rng = SplitMix64(seed: seed)
        let dir = try TempDir()
        var log: LMDBEventLog? = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(snapshotInterval: 64))
        var sizes: [SessionID: UInt64] = [:]
        var sawPartialRun = false
        for round in 0..<8 {
            // Refill to eight sessions of a few thousand events.
            while sizes.count < 8 {
                let n = 1000 + Int(rng.next() % 3000)
                let id = try fill(log!, label: "r\(round)", count: n, seed: rng.next(), batch: 1000)
                log!.finishWriting(id)
                sizes[id] = UInt64(n)
            }
            let order = sizes.keys.sorted { $0.rawValue < $1.rawValue }.shuffled(using: &rng)
            log = nil
            let child = try Child(["delete", dir.path] + order.map(\.rawValue))
            let acksBeforeKill = Int(rng.next() % 4)
            var acked: [SessionID] = []
            while acked.count < acksBeforeKill, let line = child.nextLine() {
                guard line.hasPrefix("deleted ") else { Issue.record("round \(round) seed \(seed): child said \(line)"); break }
                acked.append(SessionID(String(line.dropFirst(8))))
            }
            usleep(UInt32(rng.next() % 4000))
            child.kill()
            _ = child.finish()
            acked += child.lines.compactMap { $0.hasPrefix("deleted ") ? SessionID(String($0.dropFirst(8))) : nil }.filter { !acked.contains($0) }
            if acked.count < order.count { sawPartialRun = true }

            let reopened = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(snapshotInterval: 64))
            log = reopened
            let present = Set(try reopened.sessions().map(\.id))
            for id in order {
                let events = try storedEntries(reopened, id, in: reopened.databases.events)
                let snapshots = try storedEntries(reopened, id, in: reopened.databases.snapshots)
                if present.contains(id) {
                    #expect(!acked.contains(id), "round \(round) seed \(seed): \(id) was acknowledged deleted")
                    #expect(try reopened.session(id).eventCount == sizes[id], "round \(round) seed \(seed)")
                    #expect(events == Int(sizes[id]!) && snapshots == Int(sizes[id]! / 64), "round \(round) seed \(seed): \(events) events")
                    #expect(try reopened.verify(session: id).isValid, "round \(round) seed \(seed)")
                } else {
                    #expect(events == 0 && snapshots == 0, "round \(round) seed \(seed): \(id) half deleted: \(events) events, \(snapshots) snapshots")
                    sizes[id] = nil
                }
            }
        }
        #expect(sawPartialRun, "seed \(seed): no kill landed before the child finished")
    }
}

@Suite("Retention", .serialized, .tags(.appleLocks))
struct RetentionTests {
    @Test func keepsTheNewestSessionsItIsNotWriting() throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(.init(maxSessions: 3)))
        var ids: [SessionID] = []
        for i in 0..<6 {
            let id = try fill(log, label: "s\(i)", count: 20, seed: UInt64(i))
            ids.append(id)
            log.finishWriting(id)
        }
        #expect(try log.sessions().map(\.id) == Array(ids.suffix(3)))
        for id in ids.prefix(3) { #expect(try storedEntries(log, id, in: log.databases.events) == 0) }

        // Sessions this log still writes are kept, even beyond the count.
        let held = try fill(log, label: "held", count: 5, seed: 9)
        let held2 = try fill(log, label: "held2", count: 5, seed: 10)
        let now = try log.sessions().map(\.id)
        #expect(now.contains(held) && now.contains(held2))
        #expect(now.count == 3)
    }

    @Test func neverDeletesASessionAnotherLogIsWriting() throws {
        let dir = try TempDir()
        let writer = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        let busy = try fill(writer, label: "busy", count: 10, seed: 1)
        let other = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        #expect(try other.applyRetention(.init(maxSessions: 0), dryRun: true).isEmpty)
        #expect(try other.applyRetention(.init(maxSessions: 0)).isEmpty)
        #expect(throws: LMDBEventLogError.sessionInUse(busy)) { try other.deleteSession(busy) }
        #expect(try other.session(busy).eventCount == 10)
        writer.finishWriting(busy)
        #expect(try other.applyRetention(.init(maxSessions: 0)).map(\.id) == [busy])
        #expect(try other.sessions().isEmpty)
    }

    /// A process that writes a session keeps it from retention and deletes until it dies; the
    /// kernel drops its lock with it.
    @Test(.timeLimit(.minutes(8))) func neverDeletesASessionAnotherProcessIsWriting() throws {
        let dir = try TempDir()
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
            let old = try fill(log, label: "old", count: 10, seed: 1)
            log.finishWriting(old)
        }
        let child = try Child(["write", dir.path, "7", "0", "hold"])
        guard let first = child.nextLine(), first.hasPrefix("session ") else {
            Issue.record("child said \(child.lines)")
            child.kill()
            return
        }
        let busy = SessionID(String(first.dropFirst(8)))
        while let line = child.nextLine(), line != "holding" {}
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        let deleted = try log.applyRetention(.init(maxSessions: 0))
        #expect(deleted.map(\.label) == ["old"])
        #expect(throws: LMDBEventLogError.sessionInUse(busy)) { try log.deleteSession(busy) }
        #expect(try log.sessions().map(\.id) == [busy])
        child.kill()
        _ = child.finish()
        #expect(try log.applyRetention(.init(maxSessions: 0)).map(\.id) == [busy])
        #expect(try log.sessions().isEmpty)
    }

    @Test func dropsOldSessionsAtOpen() throws {
        let dir = try TempDir()
        let now = Atomic<Int64>(1_700_000_000_000)
        let clock: @Sendable () -> Int64 = { now.load(ordering: .relaxed) }
        let day: Int64 = 24 * 3600 * 1000
        var ids: [SessionID] = []
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(clock: clock))
            for i in 0..<4 {
                let id = try log.createSession(NewSession(label: "day \(i)")).id
                ids.append(id)
                now.add(day * 10, ordering: .relaxed)
            }
        }
        // Now is day 45: with 30 days, sessions entered on days 0 and 10 go at open.
        now.add(day * 5, ordering: .relaxed)
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(.init(maxAge: .seconds(30 * 24 * 3600)), clock: clock))
        #expect(try log.sessions().map(\.id) == Array(ids.suffix(2)))
        // A session's last event counts as activity: the one entered on day 20 with an event on
        // day 44 outlives the one entered on day 30 without events.
        try log.append(RecordedEvent(.push(RouteRef(id: "x")), meta: EventMetadata(timestamp: 1_700_000_000_000 + 44 * day)), to: ids[2], expectedSeq: 0)
        log.finishWriting(ids[2])
        now.add(day * 20, ordering: .relaxed)
        #expect(try log.applyRetention().map(\.id) == [ids[3]])
        #expect(try log.sessions().map(\.id) == [ids[2]])
    }

    @Test func keepsLiveDataUnderAByteBudget() throws {
        let dir = try TempDir()
        let budget = 300_000
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions(.init(maxBytes: budget), snapshotInterval: 64))
        for i in 0..<12 {
            let id = try fill(log, label: "s\(i)", count: 1000, seed: UInt64(i))
            log.finishWriting(id)
            try log.applyRetention()
            let live = try log.environment.withReadTransaction { try log.lifecycle.liveBytes($0) }
            #expect(live <= budget, "after session \(i): \(live) live bytes")
        }
        let left = try log.sessions()
        // A session of 1,000 events takes about 60 KB of live pages here (format 4).
        #expect(left.count >= 3 && left.count < 12, "\(left.count) sessions left")
        #expect(left.last?.label == "s11")
    }

    @Test func combinedPolicyDryRunDeletesNothing() throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: lifecycleOptions())
        var ids: [SessionID] = []
        for i in 0..<5 { ids.append(try fill(log, label: "s\(i)", count: 10, seed: UInt64(i))); log.finishWriting(ids[i]) }
        let would = try log.applyRetention(.init(maxSessions: 2), dryRun: true)
        #expect(would.map(\.id) == Array(ids.prefix(3)))
        #expect(try log.sessions().count == 5)
        #expect(try log.applyRetention(.init(maxSessions: 2)).map(\.id) == Array(ids.prefix(3)))
    }

    @Test func theAppDefaultIsFiftySessionsOrThirtyDays() {
        #expect(LMDBEventLog.Options().retention == .app)
        #expect(LMDBEventLog.Retention.app.maxSessions == 50)
        #expect(LMDBEventLog.Retention.app.maxAge == .seconds(30 * 24 * 3600))
        #expect(LMDBEventLog.Retention.app.maxBytes == nil)
    }

    /// Freed pages are reused: 1,000 sessions of 1,000 events through a policy of 20 sessions end
    /// with a data.mdb close to the size of a store that only ever held 20 such sessions.
    @Test(.timeLimit(.minutes(10))) func aStoreUnderRetentionStopsGrowing() throws {
        let dir = try TempDir()
        let events = generatedEvents(1000, seed: 42)
        func write(_ path: String, sessions: Int) throws -> Int {
            let log = try LMDBEventLog.open(at: path, options: LMDBEventLog.Options(durability: .none, initialMapSize: 8 << 20,
                                                                                    clock: { 1_700_000_000_000 }, retention: .init(maxSessions: 20)))
            for i in 0..<sessions {
                let id = try log.createSession(NewSession(label: "s\(i)")).id
                try log.append(events, to: id, expectedSeq: 0)
                log.finishWriting(id)
            }
            try log.applyRetention()
            #expect(try log.sessions().count == 20)
            try log.flush()
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
            return (attributes[.size] as! NSNumber).intValue
        }
        let reference = try write(dir.path("twenty"), sessions: 20)
        let churned = try write(dir.path("thousand"), sessions: 1000)
        #expect(churned <= reference * 2, "1,000 sessions through a 20-session policy: \(churned) bytes; 20 sessions: \(reference) bytes")
        #expect(churned < reference * 10)
    }
}
