import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// `routelog-crash-app` children: an app navigating on a store, then dying.
enum CrashApp {
    /// Starts one (no backtrace on a crash: the tests only need the death).
    static func start(_ arguments: [String]) throws -> Child {
        try Child(arguments, executable: "routelog-crash-app", environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    /// Runs one to its end and returns its output's lines.
    static func run(_ arguments: [String]) throws -> [String] { try start(arguments).rest() }

    /// An extension in the middle of a request on the store at `store`: it has the store open and
    /// has recorded its first call. Kill it (and read its rest) when done.
    static func extensionMidRequest(_ store: String) throws -> Child {
        let child = try start(["extension", store, "3", "0", "kill"])
        while let l = child.nextLine(), !l.hasPrefix("seq ") {}
        return child
    }
}

/// The seqs `routelog log --json` shows for a session, and which of them it marks as recovered.
func loggedSeqs(_ store: String, _ session: String) async throws -> (all: [UInt64], recovered: Set<UInt64>) {
    let r = await InProcess.run(["log", "--store", store, session, "--json"])
    try #require(r.status == 0, "\(r)")
    var all: [UInt64] = []
    var recovered: Set<UInt64> = []
    for line in r.stdout.split(separator: "\n") {
        guard case .object(let o)? = try? JSONValue(parsing: String(line)), case .int(let seq)? = o["seq"] else {
            Issue.record("not a log line: \(line)")
            continue
        }
        all.append(UInt64(seq))
        if o["recovered"] == .bool(true) { recovered.insert(UInt64(seq)) }
    }
    return (all, recovered)
}

@Suite("Crash-safe recording", .serialized, .tags(.appleLocks))
struct CrashRecoveryTests {
    /// 44 deaths of an app (traps, abort, SIGSEGV, SIGKILL right after a call and at a random
    /// moment, exit without flush), in four stores at once, each store's launches continuing one
    /// session: every seq a call returned is shown by `routelog log --json` before any recovery,
    /// and is in the store after the next read-write open; each launch is a run with its version,
    /// and crashed runs say so.
    @Test func everyReturnedCallSurvivesEveryDeath() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let deaths = Array(repeating: "trap", count: 10) + Array(repeating: "abort", count: 8) + Array(repeating: "kill", count: 8)
            + Array(repeating: "random", count: 10) + Array(repeating: "segv", count: 4) + Array(repeating: "exit", count: 4)
        var shuffler = SplitMix64(seed: 4)
        let order = deaths.shuffled(using: &shuffler)
        let lanes = 4
        let journaledRounds = try await withThrowingTaskGroup(of: Int.self) { group in
            for lane in 0..<lanes {
                let mine = order.enumerated().filter { $0.offset % lanes == lane }.map(\.element)
                let store = dir.path("store\(lane)")
                group.addTask { try await Self.lane(store, deaths: mine, seed: UInt64(lane)) }
            }
            return try await group.reduce(0, +)
        }
        // The recorder lags behind the calls: in some rounds a reader found events only in the journal.
        #expect(journaledRounds > 0)
    }

    /// Runs a child, off the cooperative threads (its output is read with blocking reads).
    static func child(_ arguments: [String], killAfter: UInt32?) async throws -> (lines: [String], reason: Process.TerminationReason) {
        try await withCheckedThrowingContinuation { c in
            DispatchQueue.global().async {
                do {
                    let child = try CrashApp.start(arguments)
                    var lines: [String] = []
                    if let killAfter {
                        // Killed at a random moment while it calls (after it opened the session).
                        while let l = child.nextLine() {
                            lines.append(l)
                            if l.hasPrefix("session ") { break }
                        }
                        usleep(killAfter)
                        kill(child.process.processIdentifier, SIGKILL)
                    }
                    lines += child.rest()
                    c.resume(returning: (lines, child.process.terminationReason))
                } catch {
                    c.resume(throwing: error)
                }
            }
        }
    }

    /// One store's launches; returns how many rounds left events only in the journal.
    static func lane(_ store: String, deaths: [String], seed: UInt64) async throws -> Int {
        var rng = SplitMix64(seed: 20 + seed)
        var acked: Set<UInt64> = []
        var session: String?
        var pendingSeen = 0
        for (round, death) in deaths.enumerated() {
            let version = round % 2 == 0 ? "1.0" : "1.1"
            let count = death == "random" ? 0 : 1 + Int(rng.next() % 40)
            let (lines, reason) = try await child(["navigate", store, "main", version, String(rng.next() % 1_000_000), String(count),
                                                   death == "random" ? "kill" : death],
                                                  killAfter: death == "random" ? UInt32(2_000 + rng.next() % 30_000) : nil)
            #expect(reason == (death == "exit" ? .exit : .uncaughtSignal), "\(store) round \(round) (\(death)): \(lines.suffix(3))")
            let id = try #require(lines.first { $0.hasPrefix("session ") }.map { String($0.dropFirst(8)) }, "round \(round): \(lines.prefix(5))")
            #expect(session == nil || session == id, "every launch restores the same session")
            session = id
            for l in lines where l.hasPrefix("seq ") { acked.insert(UInt64(l.dropFirst(4))!) }
            // Before any recovery, a reader shows every acknowledged call.
            let (shown, recovered) = try await loggedSeqs(store, id)
            let missing = acked.subtracting(shown)
            #expect(missing.isEmpty, "\(store) round \(round) (\(death)): \(missing.sorted().prefix(10)) acknowledged but not shown")
            #expect(shown == Array(1...UInt64(shown.count)), "round \(round): seqs are 1...n in order")
            // (An exit without flush() can leave journaled events too, but it is no crash.)
            if !recovered.isEmpty && death != "exit" { pendingSeen += 1 }
        }
        // The next read-write open recovers the last crash; everything is in the store, verified.
        let out = try await child(["recover", store], killAfter: nil).lines
        #expect(out.last == "open", "\(out)")
        #expect(!out.contains { $0.hasPrefix("problem") }, "\(out)")
        let id = try #require(session)
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let info = try log.session(SessionID(id))
        #expect(log.journaled(info.id) == nil)
        #expect(acked.allSatisfy { $0 <= info.eventCount })
        #expect(try log.verify(session: info.id).isValid)
        let runs = try log.runs(of: info.id)
        #expect(runs.map(\.number) == Array(1...deaths.count))
        #expect(runs.enumerated().allSatisfy { i, r in r.appVersion == (i % 2 == 0 ? "1.0" : "1.1") && r.build == "b" + r.appVersion! })
        let crashed = runs.filter { if case .crashed = $0.end { true } else { false } }
        // Each round whose reader saw journaled events ended crashed (the last one once recovered).
        #expect(crashed.count >= pendingSeen, "\(runs.map(\.end)), \(pendingSeen) rounds left journaled events")
        // A run's end is how its process ended, whatever its journal still held: every death but
        // a normal exit is a crash, often with nothing left to recover.
        for (r, death) in zip(runs, deaths) {
            if death == "exit" {
                #expect(r.end == .clean, "\(store) run \(r.number) (exit): \(r.end)")
            } else if case .crashed(let n, let last) = r.end {
                #expect(last + 1 >= r.firstSeq && last + 1 - n >= r.firstSeq, "run \(r.number): \(r.end)")
            } else {
                Issue.record("\(store) run \(r.number) (\(death)) ended \(r.end), not crashed")
            }
        }
        // The export labels each event with the version of the run that wrote it.
        let export = await InProcess.run(["export", "--store", store, id, "--format", "events-jsonl", "-o", "-"])
        #expect(export.status == 0, "\(export)")
        for line in export.stdout.split(separator: "\n") {
            guard case .object(let o)? = try? JSONValue(parsing: String(line)), case .int(let seq)? = o["seq"],
                  case .int(let run)? = o["run"] else { Issue.record("row without seq/run: \(line)"); continue }
            let expected = runs.run(of: UInt64(seq))!
            #expect(Int(run) == expected.number)
            #expect(o["app_version"] == .string(expected.appVersion!))
            #expect(o["run_end"] == .string(expected.end.name))
        }
        return pendingSeen
    }

    /// An app and its extension write one store, each with its own session and journal; the
    /// extension crashes while the app keeps calling: opening the store recovers the extension's
    /// journal and leaves the app's (live) one alone, and the app's session goes on untouched.
    @Test func twoWritersOneCrashes() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = dir.path
        _ = try CrashApp.run(["recover", store])
        let app = try CrashApp.start(["navigate", store, "app", "2.0", "7", "0", "kill"])
        var appLines: [String] = []
        while let l = app.nextLine() {
            appLines.append(l)
            if l.hasPrefix("session ") { break }
        }
        let ext = try CrashApp.run(["navigate", store, "share", "2.0", "8", "30", "kill"])
        let extSeqs = ext.filter { $0.hasPrefix("seq ") }.map { UInt64($0.dropFirst(4))! }
        let extID = try #require(ext.first { $0.hasPrefix("session ") }).dropFirst(8)
        // Recovery while the app still writes. With LMDB's POSIX-semaphore locks (Apple's, in
        // `make test-apple-locks`) an extension killed inside a write transaction leaves the store
        // busy until every process has closed it, the app included: the open says so in one line
        // (and the final recovery below, once the app is gone, finds everything).
        let out = try CrashApp.run(["recover", store])
        let appleLocks = ProcessInfo.processInfo.environment["ROUTELOG_EXPECT_LMDB_LOCKS"] == "posix-sem"
        if appleLocks && out.count == 1 && out[0].contains("store busy: a process died while writing") {
            print("twoWritersOneCrashes: the extension died inside a transaction; the store stayed busy until the app was gone")
        } else {
            #expect(out.last == "open" && !out.contains { $0.hasPrefix("problem") }, "\(out)")
        }
        usleep(20_000)
        kill(app.process.processIdentifier, SIGKILL)
        appLines += app.rest()
        let appID = try #require(appLines.first { $0.hasPrefix("session ") }).dropFirst(8)
        #expect(appID != extID)
        let appSeqs = appLines.filter { $0.hasPrefix("seq ") }.map { UInt64($0.dropFirst(4))! }
        #expect(appSeqs.count > 10)
        let final = try CrashApp.run(["recover", store])
        #expect(final.last == "open" && !final.contains { $0.hasPrefix("problem") }, "\(final)")
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        for (id, seqs) in [(String(appID), appSeqs), (String(extID), extSeqs)] {
            let info = try log.session(SessionID(id))
            #expect(seqs.allSatisfy { $0 <= info.eventCount }, "\(id): \(info.eventCount) < \(seqs.max() ?? 0)")
            #expect(try log.verify(session: info.id).isValid)
            #expect(try log.runs(of: info.id).count == 1)
        }
    }
}
