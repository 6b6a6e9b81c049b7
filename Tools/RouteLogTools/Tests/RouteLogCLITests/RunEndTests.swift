import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// How a run ends, told by the next launch from the state the run left its journal in, never
/// from what the journal still holds: active and killed is a crash (often with nothing to
/// recover), suspended and killed is `suspended` (how iOS ends most runs), an exit is clean.
@Suite(.serialized, .tags(.appleLocks)) struct RunEndTests {
    /// The launches of one store, each continuing the session, each ending its own way.
    @Test(.timeLimit(.minutes(10))) func eachRunEndsAsItsProcessEnded() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = dir.path
        var expected: [RunEnd] = []
        var acked: Set<UInt64> = []

        func launch(_ death: String, count: Int = 20, seed: UInt64) throws -> Child {
            try CrashApp.start(["navigate", store, "main", "1.0", String(seed), String(count), death])
        }
        func collect(_ app: Child, until marker: String?) -> [String] {
            var lines: [String] = []
            while let l = app.nextLine() {
                lines.append(l)
                if let s = UInt64(l.dropFirst(4)), l.hasPrefix("seq ") { acked.insert(s) }
                if l == marker { break }
            }
            return lines
        }

        // 1. Killed half a second after its last call, the recorder long caught up: a crash.
        let idle = try launch("idle", seed: 1)
        _ = collect(idle, until: "idle")
        usleep(500_000)
        idle.kill()
        _ = idle.rest()
        expected.append(.crashed(recovered: 0, lastSeq: 0))

        // 2. Suspended, then killed (as iOS ends most runs): no lock on any file of the store
        //    while suspended, and not a crash.
        let suspended = try launch("suspend", seed: 2)
        _ = collect(suspended, until: "suspended")
        #expect(HeldFiles.of(suspended.process.processIdentifier, under: store).locks == [], "locks held while suspended")
        suspended.kill()
        _ = suspended.rest()
        expected.append(.suspended)

        // 3. flush() then exit(0), and 4. exit(0) without flush(): both clean.
        _ = collect(try launch("clean", seed: 3), until: nil)
        expected.append(.clean)
        let exited = try launch("exit", seed: 4)
        _ = collect(exited, until: nil)
        exited.process.waitUntilExit()
        expected.append(.clean)

        // 5. SIGKILL right after a call: a crash, with whatever the journal held.
        let killed = try launch("kill", seed: 5)
        _ = collect(killed, until: nil)
        killed.process.waitUntilExit()
        expected.append(.crashed(recovered: 0, lastSeq: 0))

        // The next read-write open settles the last one; the store holds every acknowledged call.
        let out = try CrashApp.run(["recover", store])
        #expect(out.last == "open", "\(out)")
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let session = try #require(try log.sessions().first)
        let runs = try log.runs(of: session.id)
        #expect(runs.count == expected.count)
        for (run, want) in zip(runs, expected) {
            switch (run.end, want) {
            case (.crashed(_, let last), .crashed):
                #expect(last + 1 >= run.firstSeq, "run \(run.number): \(run.end)")
            default:
                #expect(run.end == want, "run \(run.number)")
            }
        }
        #expect(acked.allSatisfy { $0 <= session.eventCount })
        #expect(try log.verify(session: session.id).isValid)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: store + "/journal"))?.filter { $0.hasSuffix(".rlj") } ?? [] == [])
    }

    /// What a reader shows of a run whose process is gone, before any read-write open: the end the
    /// run's journal already holds, which the next read-write open then records. An `exit()` is
    /// `clean` at once (not `open` until the next launch), a kill while active `crashed`, a kill
    /// while suspended `suspended`.
    @Test(.timeLimit(.minutes(10))) func readersShowTheEndTheJournalHoldsBeforeTheNextOpen() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = dir.path
        /// The ends of the session's runs, as `routelog sessions --json` prints them.
        func ends() async throws -> [String] {
            let r = await InProcess.run(["sessions", "--store", store, "--json"])
            try #require(r.status == 0, "\(r)")
            let session = try #require(try JSONValue(parsing: r.stdout).arrayValue?.first, "\(r.stdout)")
            return (session["runList"]?.arrayValue ?? []).compactMap { $0["end"]?.stringValue }
        }
        func launch(_ death: String, seed: UInt64) throws -> Child {
            try CrashApp.start(["navigate", store, "main", "1.0", String(seed), "20", death])
        }

        // exit(0) without flush(): the exit handler wrote `exited` into the journal.
        let exited = try launch("exit", seed: 41)
        _ = exited.rest()
        exited.process.waitUntilExit()
        #expect(try await ends() == ["clean"])
        // flush(), then exit(0).
        _ = try CrashApp.run(["navigate", store, "main", "1.0", "42", "20", "clean"])
        #expect(try await ends() == ["clean", "clean"])
        // Killed while active: crashed.
        let killed = try launch("kill", seed: 43)
        _ = killed.rest()
        killed.process.waitUntilExit()
        #expect(try await ends() == ["clean", "clean", "crashed"])
        // Killed while suspended: suspended.
        let suspended = try launch("suspend", seed: 44)
        while let line = suspended.nextLine(), line != "suspended" {}
        suspended.kill()
        _ = suspended.rest()
        #expect(try await ends() == ["clean", "clean", "crashed", "suspended"])

        // The next read-write open records what the readers showed.
        let out = try CrashApp.run(["recover", store])
        #expect(out.last == "open", "\(out)")
        #expect(try await ends() == ["clean", "clean", "crashed", "suspended"])
    }

    /// Ten launches killed at random moments, while navigating or while suspended (each suspends
    /// every 40 calls and waits to be told to go on): every run ends crashed or suspended as the
    /// kill found it, and every acknowledged call is in the store.
    @Test(.timeLimit(.minutes(10))) func killedAtRandomMomentsActiveOrSuspended() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let store = dir.path
        var rng = SplitMix64(seed: 30)
        var acked: Set<UInt64> = []
        var expected: [RunEnd] = []
        for launch in 0..<10 {
            let app = try CrashApp.start(["navigate", store, "main", "1.0", String(rng.next() % 1_000_000), "0", "cycle"])
            let cycles = 1 + Int(rng.next() % 3)
            let whileSuspended = rng.next() % 2 == 0
            var seen = 0
            var afterResume = 0
            let moreCalls = 1 + Int(rng.next() % 30)
            while let l = app.nextLine() {
                if l.hasPrefix("seq "), let s = UInt64(l.dropFirst(4)) {
                    acked.insert(s)
                    if seen == cycles { afterResume += 1 }
                    if seen == cycles && afterResume >= moreCalls { break }
                }
                if l == "suspended" {
                    seen += 1
                    if seen == cycles && whileSuspended { break }
                    app.send("go")
                }
            }
            app.kill()
            for l in app.rest() where l.hasPrefix("seq ") { acked.insert(UInt64(l.dropFirst(4))!) }
            expected.append(whileSuspended ? .suspended : .crashed(recovered: 0, lastSeq: 0))
            _ = launch
        }
        let out = try CrashApp.run(["recover", store])
        #expect(out.last == "open" && !out.contains { $0.hasPrefix("problem") }, "\(out)")
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let session = try #require(try log.sessions().first)
        let runs = try log.runs(of: session.id)
        #expect(runs.count == 10)
        var crashes = 0, suspensions = 0
        for (run, want) in zip(runs, expected) {
            if case .crashed = want {
                guard case .crashed = run.end else { Issue.record("run \(run.number) killed while active ended \(run.end)"); continue }
                crashes += 1
            } else {
                #expect(run.end == .suspended, "run \(run.number) killed while suspended")
                suspensions += 1
            }
        }
        print("run ends after 10 random kills: \(crashes) killed while active → crashed, \(suspensions) killed while suspended → suspended")
        #expect(acked.allSatisfy { $0 <= session.eventCount }, "acknowledged calls missing")
        #expect(try log.verify(session: session.id).isValid)
    }
}
