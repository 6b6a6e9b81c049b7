import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// The CLI against LMDB stores written by the tests (through `routelog import` and `LMDBEventLog`).
/// What writes a store runs as a process; what only reads and renders it runs in-process (`read`).
struct StoreTests {
    let dir: TempDir
    let generated = Sessions.generated(seed: 21, count: 300)

    init() throws {
        dir = try .withUpsell()
        try dir.writeSession("gen.json", generated, label: "generated")
        var pops = Array(Sessions.upsell.prefix(2))
        pops.append(RecordedEvent(.push(RouteRef(id: "a"))))
        pops.append(RecordedEvent(.pop(count: 2)))
        pops.append(RecordedEvent(.push(RouteRef(id: "b"))))
        try dir.writeSession("pops.json", pops, label: "pops")
    }

    func run(_ args: [String], env: [String: String] = [:]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url, env: env) }

    /// Runs a command that only reads, in-process, on the store `st` (`$/NAME` names a file in `dir`).
    func read(_ args: [String], store: String = "st") async -> CLIResult {
        await InProcess.run(args + ["--store", dir.path(store)], in: dir)
    }

    /// Imports files into `st` and returns the new session ids, in order.
    @discardableResult
    func importFiles(_ files: [String], store: String = "st") async throws -> [String] {
        let r = try await run(["import", "--store", store, "--json"] + files)
        #expect(r.status == 0, "\(r)")
        return try r.stdout.split(separator: "\n").map { try String($0).json()["session"]?.stringValue ?? "" }
    }

    /// `latest` is the session that entered the store last, whatever time the app recorded for it:
    /// an export from days ago imported into a store an app has just written to, and the same
    /// export imported twice.
    @Test func latestIsTheSessionThatEnteredTheStoreLast() async throws {
        let storePath = dir.path("st")
        do {
            // The app writes a session now.
            let log = try LMDBEventLog.open(at: storePath, options: .init(durability: .none))
            let info = try log.createSession(NewSession(label: "written by the app"))
            try log.append(Array(Sessions.upsell.prefix(3)), to: info.id, expectedSeq: 0)
        }
        let podcast = CLI.packageRoot.appendingPathComponent("Fixtures/exported-session-podcast-bug-report.json").path
        let first = try #require(try await importFiles([podcast]).first)
        let log = await read(["log", "latest", "--json"])
        #expect(log.stdout.split(separator: "\n").count == 21, "the imported session (21 events), not the app's (3): \(log.stdout.prefix(300))")
        let ws = Workspace(storePath: storePath)
        #expect(try ws.resolve(try SessionRef(parsing: "latest")).id.rawValue == first)
        // The export's recorded time is older than the app's session; `sessions` shows both times.
        let rows = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue)
        #expect(rows.map { $0["order"]?.intValue } == [1, 2], "\(rows)")
        #expect(rows[1]["created"]?.stringValue == "2026-11-18T11:05:00.000Z", "\(rows)")
        #expect((rows[1]["created"]?.stringValue ?? "") < (rows[0]["created"]?.stringValue ?? ""), "older recorded time: \(rows)")
        #expect((rows[1]["added"]?.stringValue ?? "") >= (rows[0]["added"]?.stringValue ?? ""), "entered later: \(rows)")
        // The same export again: two sessions with the same recorded time; latest is the second.
        let second = try #require(try await importFiles([podcast]).first)
        #expect(second != first)
        let text = await read(["sessions"])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines[2].hasPrefix("2  " + first) && lines[3].hasPrefix("3  " + second), "\(text)")
        let again = Workspace(storePath: storePath)
        #expect(try again.resolve(try SessionRef(parsing: "latest")).id.rawValue == second)
        #expect(try again.resolve(try SessionRef(parsing: "latest~1")).id.rawValue == first)
    }

    @Test func importThenListSessions() async throws {
        let ids = try await importFiles(["upsell.json", "gen.json"])
        #expect(ids.count == 2 && ids[0] < ids[1], "time-ordered ids: \(ids)")
        let r = await read(["sessions"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0].hasPrefix("#  ID") && lines[0].contains("CREATED") && lines[0].contains("ADDED")
                && lines[0].contains("HEAD"), "\(r)")
        let head = replay(Sessions.upsell.map(\.event)).state.digest
        #expect(lines[1].hasPrefix("1  " + ids[0]) && lines[1].contains("upsell") && lines[1].contains("  10  ") && lines[1].contains(head.short), "\(lines[1])")
        #expect(lines[2].hasPrefix("2  " + ids[1]) && lines[2].contains("generated") && lines[2].contains("  300  "), "\(lines[2])")
        let j = await read(["sessions", "--json"])
        let arr = try #require(try j.stdout.json().arrayValue)
        #expect(arr.map { $0["id"]?.stringValue } == ids)
        #expect(arr[0]["events"]?.intValue == 10 && arr[0]["headDigest"]?.stringValue == head.hex)
        #expect(arr[0]["lastEventAt"]?.stringValue == ISO8601.format(milliseconds: Sessions.t0 + 10_000))
        // --label names the imported sessions.
        let labelled = try await run(["import", "--store", "st", "--label", "from QA", "upsell.json"])
        #expect(labelled.status == 0, "\(labelled)")
        let all = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue)
        #expect(all.count == 3 && all.contains { $0["label"]?.stringValue == "from QA" }, "\(all)")
        // ROUTELOG_STORE is the default store.
        let viaEnv = try await run(["sessions", "--json"], env: ["ROUTELOG_STORE": dir.path("st")])
        #expect(try viaEnv.stdout.json().arrayValue?.count == 3, "\(viaEnv)")
    }

    @Test func sessionsTextGolden() async throws {
        // Files with a session header keep their creation time, app and version through import.
        try dir.writeUpsellWithHeader()
        try await importFiles(["with-header.json"])
        let r = await read(["sessions"])
        #expect(r.status == 0, "\(r)")
        let added = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue?.first?["added"]?.stringValue)
        #expect(added > "2026-11-20T09:30:00.000Z", "added is the store's clock at import, not the recorded time: \(added)")
        let masked = r.stdout.replacingOccurrences(of: added, with: "yyyy-mm-ddThh:mm:ss.sssZ").replacingOccurrences(of: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#,
                                                   with: "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", options: .regularExpression)
        try Golden.check(masked, "sessions.txt")
    }

    @Test func sessionReferences() async throws {
        let ids = try await importFiles(["upsell.json", "gen.json"])
        let file = await read(["state", "$/upsell.json@7", "--json"]).stdout
        #expect(await read(["state", "latest~1@7", "--json"]).stdout == file)
        #expect(await read(["state", "\(ids[0])@7", "--json"]).stdout == file)
        // A unique prefix: the shortest prefix of ids[0] that ids[1] does not share.
        let common = zip(ids[0], ids[1]).prefix { $0 == $1 }.count
        let prefix = String(ids[0].prefix(common + 1))
        #expect(await read(["state", "\(prefix)@7", "--json"]).stdout == file)
        #expect(await read(["state", "latest", "--json"]).stdout == (await read(["state", "$/gen.json", "--json"]).stdout))
        CLI.expectError(await read(["state", String(ids[0].prefix(common))]), status: 2,
                        "ambiguous session prefix: \(ids[0].prefix(common)) matches 2 sessions")
        CLI.expectError(await read(["state", "latest~2"]), status: 2, "unknown session: latest~2 (the store st has 2 sessions)")
        CLI.expectError(await read(["state", "ffff"]), status: 2, "unknown session: ffff")
        CLI.expectError(await read(["state", "latest@301"]), status: 2, "seq out of range: 301")
        CLI.expectError(await read(["state", "latest~x"]), status: 2, "expected a number after 'latest~'")
    }

    @Test func storeAndFileGiveTheSameOutput() async throws {
        try await importFiles(["upsell.json"])
        #expect(await read(["log", "latest"]).stdout == (await read(["log", "$/upsell.json"]).stdout))
        #expect(await read(["log", "latest", "--json"]).stdout == (await read(["log", "$/upsell.json", "--json"]).stdout))
        let d = await read(["diff", "latest@6", "$/upsell.json@6", "--events"])
        #expect(d.status == 0, "a session against its own file: \(d)")
        let d2 = await read(["diff", "latest@5", "latest@6"])
        #expect(d2.status == 0, "a rejected event changes nothing: \(d2)")
        let d3 = await read(["diff", "latest@4", "latest@5", "--json"])
        let d3changes = try d3.stdout.json()["changes"]?.arrayValue?.count
        #expect(d3.status == 1 && d3changes == 1, "\(d3)")
        let b = await read(["bisect", "latest", "--linear", "--predicate", #"reason == "stale""#, "--json"])
        #expect(try b.stdout.json()["seq"]?.intValue == 8, "\(b)")
    }

    @Test func exportFromTheStore() async throws {
        try await importFiles(["upsell.json"])
        let r = try await run(["export", "latest", "--store", "st", "-o", "exported.json"])
        #expect(r.status == 0, "\(r)")
        let fixture = try Fixture(contentsOf: dir.path("exported.json"))
        #expect(fixture.events == Sessions.upsell)
        #expect(fixture.name == "exported" && fixture.session?.label == "upsell", "the name follows the file; the label stays in the header")
        #expect(try await run(["fixtures", "check", "exported.json"]).stdout == "1 passed, 0 failed\n")
        // Import the export again: the same events, the same head digest.
        let again = try await importFiles(["exported.json"])
        let j = try await run(["sessions", "--store", "st", "--json"])
        let arr = try #require(try j.stdout.json().arrayValue)
        // The import keeps the export's creation time, so the two sessions may sort either way.
        #expect(arr.count == 2 && arr.contains { $0["id"]?.stringValue == again[0] })
        #expect(arr[0]["headDigest"] == arr[1]["headDigest"] && arr[0]["created"] == arr[1]["created"])
        let red = try await run(["export", "latest", "--store", "st", "-o", "red.json", "--redact"])
        let redText = try dir.read("red.json")
        #expect(red.status == 0 && !redText.contains("Lunch?"), "\(red)")
    }

    @Test func verifyCatchesAChangedReducerRuleAtTheRightSeq() async throws {
        try await importFiles(["upsell.json", "gen.json", "pops.json"])
        let ok = try await run(["verify", "--all", "--store", "st"])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.hasSuffix("3 ok, 0 failed\n"), "\(ok)")

        // The store is written by another process and verified in this one, with a rule changed.
        func verify(_ args: [String], _ mutation: ReducerMutation) async -> CLIResult {
            await InProcess.run(["verify", "--store", dir.path("st")] + args, in: dir, reducer: mutation.apply)
        }
        let swipe = await verify(["latest~2", "--json"], .interactiveDismissIgnoresDismissible)
        #expect(swipe.status == 1, "\(swipe)")
        let v = try swipe.stdout.json()
        #expect(v["seq"]?.intValue == 6 && v["check"]?.stringValue == "digest", "\(swipe)")
        #expect(v["changes"]?.arrayValue?.first?["path"]?.stringValue == "presented#3.presented", "the upsell is gone: \(swipe)")

        let pop = await verify(["latest"], .popIgnoresCount)
        #expect(pop.status == 1, "\(pop)")
        #expect(pop.stdout.contains("at seq 4: digest: recorded applied with digest"), "\(pop)")
        try Golden.check(pop.stdout.replacingOccurrences(of: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, with: "<id>",
                                                         options: .regularExpression), "verify-store-mutation.txt")
        // Where the mutated rule never fires, the session still verifies.
        let all = await verify(["--all", "--json"], .popIgnoresCount)
        let oks = try all.stdout.split(separator: "\n").map { try String($0).json()["ok"]?.boolValue }
        #expect(oks.count == 3 && oks[2] == false && oks[0] == true, "\(all)")
    }

    @Test func verifyNamesACorruptRecord() async throws {
        try await importFiles(["upsell.json"])
        // Flip one byte of the session's first block (format 4: its few events are one block,
        // keyed by seq 1) with raw LMDB calls.
        do {
            let env = try LMDBEnvironment.open(at: dir.path("st"))
            let events = try env.database(named: "events")
            try env.withWriteTransaction { txn in
                var first: ([UInt8], [UInt8])?
                try txn.forEach(in: events) { k, v in
                    first = (Array(k), Array(v))
                    return false
                }
                var (key, value) = try #require(first)
                value[value.count / 2] ^= 0x5A
                try txn.put(value, forKey: key, in: events)
            }
        }
        let r = try await run(["verify", "latest", "--store", "st"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("at seq 1: checksum:") && r.stdout.contains("the block of seq 1 on"), "\(r)")
        CLI.expectError(try await run(["log", "latest", "--store", "st"]), status: 3, "corrupt record: session")
        // The same through the binary: a data error's exit code and one line, nothing on stdout.
        CLI.expectError(try await CLI.run(["log", "latest", "--store", "st"], cwd: dir.url), status: 3, "corrupt record: session")
    }

    @Test func newerFormatAndNotAStore() async throws {
        try await importFiles(["upsell.json"])
        do {
            let env = try LMDBEnvironment.open(at: dir.path("st"))
            let meta = try env.database(named: "meta")
            try env.withWriteTransaction { try $0.put([0, 0, 0, 9], forKey: Array("format".utf8), in: meta) }
        }
        CLI.expectError(try await run(["sessions", "--store", "st"]), status: 3, "newer store format: st was written in format 9")
        CLI.expectError(try await run(["import", "upsell.json", "--store", "st"]), status: 3, "newer store format")
        // A store whose lock file cannot be used (LMDB never makes a reader wait for a writer, so
        // this is the "locked" case a reader can meet).
        try await importFiles(["upsell.json"], store: "locked")
        try FileManager.default.removeItem(atPath: dir.path("locked/lock.mdb"))
        try FileManager.default.createDirectory(atPath: dir.path("locked/lock.mdb"), withIntermediateDirectories: false)
        CLI.expectError(try await run(["sessions", "--store", "locked"]), status: 3, "store error while opening locked")
        try dir.write("other/notes.txt", "hello")
        CLI.expectError(try await run(["sessions", "--store", "other"]), status: 3, "not a store: other (it has no data.mdb)")
        CLI.expectError(try await run(["import", "upsell.json", "--store", "other"]), status: 3, "not a store: other")
    }

    @Test func importChecksEveryFileBeforeWriting() async throws {
        try dir.write("typo.json", #"{"format": "routelog-fixture/1", "name": "typo", "events": [{"push": {"route": ""}}, {"pop": {"count": "two"}}]}"#)
        CLI.expectError(try await run(["import", "--store", "st", "upsell.json", "typo.json"]), status: 3,
                        "malformed fixture: typo.json: events[1].pop.count: expected an integer")
        #expect(!FileManager.default.fileExists(atPath: dir.path("st")), "nothing was written, not even the store")
        try await importFiles(["upsell.json"])
        CLI.expectError(try await run(["import", "--store", "st", "gen.json", "typo.json"]), status: 3, "typo.json")
        #expect(try await run(["sessions", "--store", "st", "--json"]).stdout.json().arrayValue?.count == 1)
    }

    @Test func emptySessionInAStore() async throws {
        try dir.write("empty.json", #"{"format": "routelog-fixture/1", "name": "nothing yet", "events": []}"#)
        try await importFiles(["empty.json"])
        let log = try await run(["log", "latest", "--store", "st"])
        #expect(log.status == 0 && log.stdout.hasSuffix(" has no events yet\n"), "\(log)")
        CLI.expectError(try await run(["bisect", "latest", "--store", "st", "--predicate", "depth > 0"]), status: 3, "empty session:")
    }

    @Test func readingNeverWritesToTheStore() async throws {
        try await importFiles(["upsell.json", "gen.json"])
        let data = dir.url.appendingPathComponent("st/data.mdb")
        let before = try Data(contentsOf: data)
        let mtime = try FileManager.default.attributesOfItem(atPath: data.path)[.modificationDate] as? Date
        for args in [["sessions"], ["log", "latest"], ["state", "latest~1@3"], ["diff", "latest", "latest~1", "--events"],
                     ["bisect", "latest", "--predicate", "depth >= 1"], ["verify", "--all"], ["export", "latest", "-o", "x.json"],
                     ["minimize", "latest~1", "--predicate", #"reason == "stale""#, "-o", "m.json"]] {
            _ = try await run(args + ["--store", "st"])
        }
        #expect(try Data(contentsOf: data) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: data.path)[.modificationDate] as? Date == mtime)
    }

    /// Starts `routelog log … --follow` on a live store, appends `events[5...]` in small batches
    /// while it runs, and returns its output lines once it has printed `expected` lines (or ended).
    func follow(_ extra: [String], events: [RecordedEvent], expected: Int) async throws -> (lines: [Substring], exitedByItself: Bool) {
        let storePath = dir.path("live-\(extra.joined())")
        let log = try LMDBEventLog.open(at: storePath, options: .init(durability: .none, snapshotInterval: 16))
        let info = try log.createSession(NewSession(label: "live"))
        try log.append(Array(events[0..<5]), to: info.id, expectedSeq: 0)

        let child = try Child(path: CLI.binary.path, ["log", "latest", "--store", storePath, "--follow", "--json"] + extra,
                              stdin: .empty, output: .separate)
        let p = child.process

        // Write the rest while the follower runs, in small batches with pauses.
        var seq: UInt64 = 5
        while seq < UInt64(events.count) {
            try await Task.sleep(nanoseconds: 30_000_000)
            let n = min(UInt64(7), UInt64(events.count) - seq)
            try log.append(Array(events[Int(seq)..<Int(seq + n)]), to: info.id, expectedSeq: seq)
            seq += n
        }
        func lines() throws -> [Substring] { try child.stdoutSoFar().split(separator: "\n") }
        let deadline = Date().addingTimeInterval(300)
        while try p.isRunning && lines().count < expected && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        // Give a follower that should stop (--to reached) time to exit, even on a slow
        // (sanitized, loaded) machine; one that should not is still running after a short wait.
        let grace = Date().addingTimeInterval(extra.contains("--to") ? 300 : 3)
        while p.isRunning && Date() < grace { try await Task.sleep(nanoseconds: 20_000_000) }
        let exited = !p.isRunning
        if p.isRunning { p.terminate() }
        p.waitUntilExit()
        if exited { #expect(p.terminationStatus == 0) }
        return (try lines(), exited)
    }

    @Test(.tags(.appleLocks)) func followTailsAConcurrentWriter() async throws {
        let events = Sessions.generated(seed: 4, count: 60)
        let steps = replay(events.map(\.event)).steps
        // Without --to it keeps following until stopped.
        let open = try await follow([], events: events, expected: 60)
        #expect(!open.exitedByItself, "follow without --to waits for more")
        #expect(open.lines.count == 60)
        for (i, line) in open.lines.enumerated() {
            let v = try String(line).json()
            #expect(v["seq"]?.intValue == Int64(i + 1))
            #expect(v["digest"]?.stringValue == steps[i].digest.hex, "seq \(i + 1)")
        }
        // With --from beyond the head and --to, it prints that range with the right states and stops.
        let range = try await follow(["--from", "20", "--to", "45"], events: events, expected: 26)
        #expect(range.exitedByItself, "the follower stopped at --to 45")
        #expect(range.lines.count == 26)
        let first = try String(try #require(range.lines.first)).json()
        #expect(first["seq"]?.intValue == 20)
        let summary = replay(events.prefix(20).map(\.event)).state
        #expect(first["digest"]?.stringValue == summary.digest.hex)
        #expect(try String(try #require(range.lines.last)).json()["seq"]?.intValue == 45)
    }
}
