import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing
@_spi(Tools) @testable import RouteLogLMDB

/// Many processes on one store: concurrent first opens, writers and followers in separate
/// processes, writers killed with SIGKILL. Every child is a real process
/// (`routelog-lmdb-crashtest`, started with `Process`), never a thread.
@Suite("LMDBEventLog across processes", .serialized, .tags(.appleLocks))
struct MultiProcessTests {
    /// Six processes open each of 20 fresh directories at the same moment (they sleep until a
    /// shared instant), and each writes a session, while two more open it read-only: every open
    /// succeeds (a read-only one may only find that no creator has begun yet, and tries again),
    /// and every store ends up with the six sessions, whole.
    @Test(.timeLimit(.minutes(6))) func concurrentFirstOpensAllSucceed() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let race = dir.path("race")
        let racers = 6, readers = 2, rounds = 20, periodMS: Int64 = 40
        // Far enough ahead for eight debug-built children to start on a loaded machine.
        let start = Int64(Date().timeIntervalSince1970 * 1000) + 1000
        let children = try (0..<racers + readers).map { i in
            try Child(["race", race, "\(rounds)", "\(start)", "\(periodMS)", "\(i)"] + (i < racers ? [] : ["ro"]))
        }
        for (i, child) in children.enumerated() {
            let status = child.finish()
            #expect(status == 0, "racer \(i) exited with \(status)")
            let failures = child.lines.filter { !$0.hasPrefix("ok ") }
            #expect(failures.isEmpty, "racer \(i): \(failures.prefix(3))")
            #expect(child.lines.count == rounds, "racer \(i) said: \(child.lines.suffix(3))")
        }
        for round in 0..<rounds {
            let path = "\(race)/\(round)"
            let log = try LMDBEventLog.open(at: path, options: testOptions(readOnly: true))
            let sessions = try log.sessions()
            #expect(sessions.map(\.label).sorted() == (0..<racers).map { "racer \($0)" }, "round \(round)")
            for s in sessions {
                #expect(s.eventCount == 1, "round \(round) \(s.label)")
                #expect(try log.verify(session: s.id).isValid, "round \(round) \(s.label)")
            }
        }
    }

    /// Six writer processes create one store together and append durable batches to a session
    /// each; six follower processes follow one session each; two writers are killed with SIGKILL
    /// while holding a read transaction. At the end every acknowledged event is stored once, in
    /// order; every chain verifies; every follower saw every event of its session in order; and
    /// the killed writers' reader slots are reclaimed by the next open.
    // Not in the Apple lock mode's run: with POSIX semaphores a writer killed inside a write
    // transaction (or inside the reader table's lock, a few instructions as a reader registers)
    // leaves the store busy for every process until all have closed it, which is the documented
    // behaviour on Apple platforms (where RouteLog never lets two processes share a store) and what
    // KilledWriterTests and twoWritersOneCrashes check. With robust mutexes the next writer recovers.
    @Test(.timeLimit(.minutes(8)), .disabled(if: isAppleLocksRun, "a killed writer leaves POSIX-semaphore locks taken"))
    func writersAndFollowersWithKilledWriters() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let mdbStat = try #require(findTool("mdb_stat"), "mdb_stat is missing: run make setup (lmdb-utils)")
        let count: UInt64 = 200
        // (seed, killed after this many acknowledgements, or nil: runs to `count`)
        let plan: [(seed: UInt64, killAfter: Int?)] = [(11, nil), (12, nil), (13, nil), (14, nil), (21, 8), (22, 16)]
        let writers = try plan.map { w in
            try Child(["write", dir.path, "\(w.seed)", w.killAfter == nil ? "\(count)" : "0", w.killAfter == nil ? "verify" : "hold"])
        }
        // This process opens the store too, while the writers create it, and keeps it open so the
        // lock file's reader table lives on after the writers die.
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(.none))

        var sessions: [SessionID] = []
        for (i, writer) in writers.enumerated() {
            let line = writer.nextLine() ?? "(no output)"
            try #require(line.hasPrefix("session "), "writer \(i): \(line)")
            sessions.append(SessionID(String(line.dropFirst("session ".count))))
            if plan[i].killAfter != nil {
                let held = writer.nextLine()
                try #require(held == "holding", "writer \(i): \(held ?? "(no output)")")
            }
        }
        let followers = try sessions.enumerated().map { i, session in
            try Child(["follow-to", dir.path, session.rawValue, "\(dir.parent)/target-\(i)", "60000"])
        }

        // The finishing writers first; the others are killed afterwards, so that no write follows
        // the last kill (see the reader-table check below).
        var acked = Array(repeating: UInt64(0), count: writers.count)
        for (i, writer) in writers.enumerated() where plan[i].killAfter == nil {
            let status = writer.finish()
            acked[i] = writer.lines.compactMap { $0.hasPrefix("acked ") ? UInt64($0.dropFirst(6)) : nil }.last ?? 0
            #expect(status == 0, "writer \(i) exited with \(status): \(writer.lines.suffix(2))")
            #expect(writer.lines.last == "done \(count)", "writer \(i): \(writer.lines.suffix(2))")
        }
        for (i, writer) in writers.enumerated() {
            guard let killAfter = plan[i].killAfter else { continue }
            var acks = 0
            while acks < killAfter, let line = writer.nextLine() {
                guard line.hasPrefix("acked ") else { Issue.record("writer \(i) said \(line)"); break }
                acks += 1
            }
            writer.kill()
            let status = writer.finish()
            acked[i] = writer.lines.compactMap { $0.hasPrefix("acked ") ? UInt64($0.dropFirst(6)) : nil }.last ?? 0
            #expect(writer.process.terminationReason == .uncaughtSignal && status == SIGKILL, "writer \(i) was not killed: \(status)")
            #expect(acked[i] > 0, "writer \(i) acknowledged nothing")
        }

        // The killed writers died holding a read transaction: their slots stay taken until someone
        // runs mdb_reader_check. LMDB runs it itself when a writer finds the write lock's owner
        // dead (a writer killed inside a commit), so an earlier kill may already be cleared; but
        // nothing was written after the last kill, so its slot must still be there.
        let killed = plan.indices.filter { plan[$0].killAfter != nil }.map { writers[$0].process.processIdentifier }
        let before = try readerPIDs(mdbStat, dir.path)
        #expect(before.contains(killed.last!), "the last killed writer \(killed.last!) is not in the reader table \(before)")
        let opener = try Child(["open", dir.path, "ro"])
        #expect(opener.finish() == 0, "open: \(opener.lines)")
        let after = try readerPIDs(mdbStat, dir.path)
        #expect(!killed.contains(where: after.contains), "stale reader slots of \(killed) remain: \(after)")

        for (i, plan) in plan.enumerated() {
            let info = try log.session(sessions[i])
            let stored = try log.events(sessions[i])
            if plan.killAfter == nil {
                #expect(info.eventCount == count, "writer \(i)")
            } else {
                #expect(info.eventCount >= acked[i], "writer \(i): acknowledged \(acked[i]), stored \(info.eventCount)")
            }
            #expect(stored.map(\.seq) == Array(stride(from: 1, through: info.eventCount, by: 1)), "writer \(i): seqs")
            #expect(stored.map(\.recorded) == writerEvents(seed: plan.seed, count: Int(info.eventCount)), "writer \(i): events")
            let report = try log.verify(session: sessions[i])
            #expect(report.isValid, "writer \(i): \(report)")
            try "\(info.eventCount)\n".write(toFile: "\(dir.parent)/target-\(i)", atomically: true, encoding: .utf8)
        }
        for (i, follower) in followers.enumerated() {
            let status = follower.finish()
            let stored = try log.events(sessions[i])
            #expect(status == 0, "follower \(i) exited with \(status): \(follower.lines.suffix(2))")
            #expect(follower.lines.last == "done \(stored.count) \(stored.last?.digest.hex ?? "-")", "follower \(i)")
        }
        #expect(Set(try log.sessions().map(\.id)) == Set(sessions))
    }
}

/// The pids in the store's reader table, as `mdb_stat -r` prints them (it does not clear stale
/// slots itself).
private func readerPIDs(_ mdbStat: String, _ path: String) throws -> [Int32] {
    let text = try Child(path: mdbStat, ["-r", path], stdin: .empty, output: .merged).wait().output
    // It exits with a failure status when it lists stale readers; the table is what counts.
    guard text.contains("Reader Table Status") else { throw MDBStatFailed(output: text) }
    return text.split(separator: "\n").compactMap { line in
        line.split(separator: " ").first.flatMap { Int32($0) }
    }
}

private struct MDBStatFailed: Error { var output: String }

