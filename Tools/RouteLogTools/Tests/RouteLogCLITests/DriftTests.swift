import Foundation
@testable import RouteLogAgent
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// What the user saw: the divergences a navigator stored beside the events (screen records), as
/// `routelog log` marks them, `routelog drift` lists them, the MCP tool `list_divergences` answers
/// and `export --format divergences-jsonl` writes them. The store is written with
/// `LMDBEventLog.appendScreenRecords`, so the records are exactly those below.
struct DriftTests {
    let dir: TempDir
    /// The session whose screens diverged, the one whose screens reported and agreed, and the one
    /// whose screens never reported.
    let diverged: String, agreed: String, silent: String

    static let t0 = Sessions.t0

    /// One divergence of each kind, and one found before the first event (head 0).
    static let divergences: [(head: UInt64, Divergence)] = [
        (0, Divergence(kind: .unknownScreen, screen: .tabRoot("home"), seq: 0, detectedAt: t0 - 100)),
        (3, Divergence(kind: .notOnScreen, screen: .presentation(token: 3, routeID: "composer"), seq: 3, cause: .presentedWhileDismissing,
                       detectedAt: t0 + 3_400)),
        (7, Divergence(kind: .stillOnScreen, screen: .presentation(token: 5, routeID: "upsell"), seq: 7, cause: .removedWithoutWrite,
                       detectedAt: t0 + 8_500)),
        (7, Divergence(kind: .unknownScreen, screen: .stackEntry(frame: .root, index: 2, routeID: "ghost"), seq: 7, detectedAt: t0 + 8_600)),
        (9, Divergence(kind: .depthMismatch, screen: .stackEntry(frame: .presentation(3), index: 1, routeID: "attachments"), seq: 4,
                       cause: .pathWriteDuringTabSwitch, visibleDepth: 2, stateDepth: 1, detectedAt: t0 + 9_700)),
    ]

    static let appearances: [ScreenRecord] = [
        ScreenRecord(.appeared(.stackEntry(frame: .root, index: 0, routeID: "inbox")), headSeq: 1, time: t0 + 10),
        ScreenRecord(.appeared(.presentation(token: 3, routeID: "composer")), headSeq: 3, time: t0 + 3_100),
        ScreenRecord(.disappeared(.presentation(token: 3, routeID: "composer")), headSeq: 10, time: t0 + 10_100),
    ]

    init() throws {
        dir = try .withUpsell()
        let log = try LMDBEventLog.open(at: dir.path("st"), options: .init(durability: .none))
        func session(_ label: String, _ records: [ScreenRecord]) throws -> String {
            let id = try log.createSession(NewSession(label: label, appName: "Mail", appVersion: "2.1")).id
            try log.append(Sessions.upsell, to: id, expectedSeq: 0)
            if !records.isEmpty { try log.appendScreenRecords(records, to: id) }
            return id.rawValue
        }
        var records = Self.divergences.map { ScreenRecord(.diverged($0.1), headSeq: $0.head, time: $0.1.detectedAt) }
        records.insert(Self.appearances[0], at: 1)
        records.append(Self.appearances[2])
        diverged = try session("diverged", records)
        agreed = try session("agreed", Self.appearances)
        silent = try session("silent", [])
    }

    func read(_ args: [String]) async -> CLIResult { await InProcess.run(args + ["--store", dir.path("st")], in: dir) }

    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }

    // MARK: - log

    @Test func logMarksEachDivergenceAfterTheEventItFollows() async throws {
        let r = await read(["log", diverged])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        let out = lines(r.stdout)
        let marks = out.filter { $0.hasPrefix("      ! ") }
        #expect(marks == [
            "      ! unknown screen: tab home since #0",
            "      ! not on screen: composer (#3) since #3 (likely cause: a presentation requested while another was still dismissing)",
            "      ! still on screen: upsell (#5) since #7 (likely cause: removed without its binding write)",
            "      ! unknown screen: ghost at root[2] since #7",
            "      ! depth mismatch: attachments at #3[1] since #4 (2 on screen, 1 in the state; likely cause: a path write during a tab switch)",
        ], "\(r.stdout)")
        // Each after the event its record's head names (the one at head 0 before the first event).
        func index(ofSeq seq: Int) -> Int? { out.firstIndex { $0.hasPrefix(String(repeating: " ", count: 4 - String(seq).count) + "\(seq)  ") } }
        #expect(out.first == marks[0])
        #expect(index(ofSeq: 1) == 1)
        let (i3, i7, i9) = (try #require(index(ofSeq: 3)), try #require(index(ofSeq: 7)), try #require(index(ofSeq: 9)))
        #expect(out[i3 + 1] == marks[1])
        #expect(out[i7 + 1] == marks[2] && out[i7 + 2] == marks[3])
        #expect(out[i9 + 1] == marks[4])
        #expect(out.count == Sessions.upsell.count + marks.count)
        // Only the seqs printed carry their marks.
        let part = lines(await read(["log", diverged, "--from", "4", "--to", "8"]).stdout)
        #expect(part.filter { $0.hasPrefix("      ! ") } == [marks[2], marks[3]], "\(part)")
    }

    /// A session without divergences prints exactly as before: as the same events do from a file.
    @Test func aSessionWithoutDivergencesPrintsAsAFileOfTheSameEvents() async throws {
        let file = await read(["log", "$/upsell.json"])
        for id in [agreed, silent] {
            let r = await read(["log", id])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
            #expect(r.stdout == file.stdout, "\(r.stdout)")
            let json = await read(["log", id, "--json"])
            #expect(json.stdout == (await read(["log", "$/upsell.json", "--json"])).stdout)
            #expect(!json.stdout.contains("divergences"))
        }
    }

    @Test func logJSONCarriesTheDivergencesOnTheEventTheyFollow() async throws {
        let r = await read(["log", diverged, "--json"])
        #expect(r.status == 0, "\(r)")
        let objects = try lines(r.stdout).map { try $0.json() }
        #expect(objects.count == Sessions.upsell.count)
        let marked = objects.compactMap { o in o["divergences"].map { (o["seq"]?.intValue ?? -1, $0.arrayValue ?? []) } }
        #expect(marked.map(\.0) == [3, 7, 9], "\(marked)")
        #expect(marked.map { $0.1.map { $0["kind"]?.stringValue ?? "" } } == [["notOnScreen"], ["stillOnScreen", "unknownScreen"], ["depthMismatch"]])
        let first = try #require(marked.first?.1.first)
        #expect(first["headSeq"] == .int(3) && first["seq"] == .int(3) && first["cause"] == .string("presentedWhileDismissing"))
        #expect(first["screen"]?["routeID"] == .string("composer") && first["screen"]?["token"] == .int(3))
        #expect(first["time"] == .string(ISO8601.format(milliseconds: Self.t0 + 3_400)))
        #expect(first["before"] == nil && first["after"] == nil, "log's marks carry no context")
        let depth = try #require(marked.last?.1.first)
        #expect(depth["visibleDepth"] == .int(2) && depth["stateDepth"] == .int(1) && depth["seq"] == .int(4) && depth["headSeq"] == .int(9))
    }

    /// A session without events whose screens already disagreed (a first screen that never
    /// appeared): log's one line, then the mark; drift lists it without events around it.
    @Test func aSessionWithoutEventsShowsWhatItsScreensSaw() async throws {
        let id: String
        do {
            let log = try LMDBEventLog.open(at: dir.path("st"), options: .init(durability: .none))
            id = try log.createSession(NewSession(label: "just started")).id.rawValue
            let d = Divergence(kind: .notOnScreen, screen: .stackEntry(frame: .root, index: 0, routeID: "home", tab: "library"), seq: 0,
                               detectedAt: Self.t0 + 500)
            try log.appendScreenRecords([ScreenRecord(.diverged(d), headSeq: 0, time: Self.t0 + 500)], to: SessionID(id))
        }
        let r = await read(["log", id])
        #expect(r.status == 0 && r.stdout == "\(id) has no events yet\n      ! not on screen: home at root[0] of tab library since #0\n", "\(r)")
        #expect(await read(["log", id, "--json"]).stdout.isEmpty)
        let drift = await read(["drift", id])
        #expect(drift.status == 1 && lines(drift.stdout) == [
            "! not on screen: home at root[0] of tab library since #0",
            "  found \(ISO8601.format(milliseconds: Self.t0 + 500)), before the first event",
            "",
            "\(id): 1 divergence in 1 screen record",
        ], "\(drift)")
    }

    /// A screen record's text comes from the app (route ids, tab ids): a control character in it
    /// reaches no terminal, and each mark stays one line.
    @Test func aRouteIDWithControlCharactersStaysOnOneEscapedLine() async throws {
        let id: String
        do {
            let log = try LMDBEventLog.open(at: dir.path("st"), options: .init(durability: .none))
            id = try log.createSession(NewSession(label: "hostile")).id.rawValue
            try log.append(Array(Sessions.upsell.prefix(2)), to: SessionID(id), expectedSeq: 0)
            let d = Divergence(kind: .unknownScreen, screen: .presentation(token: 1, routeID: "evil\u{1B}[2J\nsecond line"), seq: 1,
                               detectedAt: Self.t0 + 100)
            try log.appendScreenRecords([ScreenRecord(.diverged(d), headSeq: 1, time: Self.t0 + 100)], to: SessionID(id))
        }
        for args in [["log", id], ["drift", id]] {
            let r = await read(args)
            #expect(!r.stdout.unicodeScalars.contains("\u{1B}"), "no escape reaches the terminal: \(r)")
            #expect(!lines(r.stdout).contains { $0.hasPrefix("second line") }, "\(r)")
            let mark = try #require(lines(r.stdout).first { $0.contains("! unknown screen: evil") }, "\(r)")
            #expect(mark.hasSuffix("second line (#1) since #1"), "one line: \(mark)")
        }
    }

    // MARK: - drift

    @Test func driftListsEachDivergenceWithTheEventsAroundIt() async throws {
        let r = await read(["drift", diverged])
        #expect(r.status == 1, "a divergence is found bad: \(r)")
        #expect(r.stderr.isEmpty)
        let out = lines(r.stdout)
        #expect(out.last == "\(diverged): 5 divergences in 7 screen records", "\(r.stdout)")
        #expect(out.filter { $0.hasPrefix("! ") }.count == 5)
        let at = try #require(out.firstIndex { $0.hasPrefix("! not on screen: composer (#3) since #3") })
        #expect(out[at + 1] == "  found \(ISO8601.format(milliseconds: Self.t0 + 3_400)) (+3.400s), after #3", "\(r.stdout)")
        // Two events before (2, 3: the one it concerns marked >), the place, two after (4, 5).
        #expect(out[at + 2].hasPrefix("       2  user ") && out[at + 2].contains("push thread-42"), "\(out[at + 2])")
        #expect(out[at + 3].hasPrefix("  >    3  user ") && out[at + 3].contains("show sheet composer"), "\(out[at + 3])")
        #expect(out[at + 4] == "         ! here")
        #expect(out[at + 5].hasPrefix("       4  user ") && out[at + 6].hasPrefix("       5  app "), "\(out[at + 5])")
        #expect(out[at + 6].contains("rejected") == false && out[at + 6].contains("sheet upsell#5"), "the state after it: \(out[at + 6])")
        let before = try #require(out.firstIndex { $0.hasPrefix("! unknown screen: tab home since #0") })
        #expect(out[before + 1].hasSuffix(", before the first event") && out[before + 2] == "         ! here", "\(r.stdout)")
        try Golden.check(r.stdout.replacingOccurrences(of: diverged, with: "ID"), "drift-diverged.txt")
    }

    @Test func driftJSONIsOneStableObject() async throws {
        let r = await read(["drift", diverged, "--json", "--context", "1"])
        #expect(r.status == 1, "\(r)")
        let o = try r.stdout.json()
        #expect(o["session"] == .string(diverged) && o["status"] == .string("diverged") && o["total"] == .int(5))
        #expect(o["screenRecords"] == .int(7) && o["context"] == .int(1) && o["summary"] == .string("5 divergences in 7 screen records"))
        let items = try #require(o["divergences"]?.arrayValue)
        #expect(items.map { $0["kind"]?.stringValue ?? "" } == ["unknownScreen", "notOnScreen", "stillOnScreen", "unknownScreen", "depthMismatch"])
        #expect(items.map { $0["headSeq"]?.intValue ?? -1 } == [0, 3, 7, 7, 9])
        func seqs(_ v: JSONValue?) -> [Int64] { v?.arrayValue?.compactMap { $0["seq"]?.intValue } ?? [] }
        #expect(items.map { seqs($0["before"]) } == [[], [3], [7], [7], [9]])
        #expect(items.map { seqs($0["after"]) } == [[1], [4], [8], [8], [10]])
        // The context events are `log --json` lines.
        let logLine = try lines(await read(["log", diverged, "--from", "4", "--to", "4", "--json"]).stdout)[0].json()
        var four = try #require(items[1]["after"]?.arrayValue?.first)
        if case .object(var e) = logLine { e["divergences"] = nil; four = four == .object(e) ? four : .null }
        #expect(four != .null, "the context event is log's line: \(logLine)")
        #expect(items[4]["causeText"] == .string("a path write during a tab switch"))
        // The same bytes every time (no clock, no dictionary order).
        #expect(await read(["drift", diverged, "--json", "--context", "1"]).stdout == r.stdout)
        let none = try await read(["drift", diverged, "--json", "-C", "0"]).stdout.json()
        #expect(none["divergences"]?.arrayValue?.allSatisfy { seqs($0["before"]).isEmpty && seqs($0["after"]).isEmpty } == true)
    }

    @Test func driftTellsAgreeingScreensFromScreensThatNeverReported() async throws {
        let agreed = await read(["drift", self.agreed])
        #expect(agreed.status == 0 && agreed.stdout == "\(self.agreed): no divergences: the screens agreed with the state (3 screen records)\n", "\(agreed)")
        let silent = await read(["drift", self.silent])
        #expect(silent.status == 0 && silent.stdout == "\(self.silent): no screen reports in this session\n", "\(silent)")
        #expect(try await read(["drift", self.agreed, "--json"]).stdout.json()["status"] == .string("agreed"))
        let s = try await read(["drift", self.silent, "--json"]).stdout.json()
        #expect(s["status"] == .string("unreported") && s["screenRecords"] == .int(0) && s["divergences"] == .array([]))
    }

    @Test func driftErrorsAreOneLine() async throws {
        CLI.expectError(await read(["drift", "nosuch"]), status: 2, "unknown session: nosuch")
        CLI.expectError(await read(["drift", "$/upsell.json"]), status: 2, "no screen records in a file: upsell.json")
        CLI.expectError(await read(["drift", diverged + "@3"]), status: 2, "drift covers the whole session")
        CLI.expectError(await read(["drift", diverged, "--context", "101"]), status: 2, "context out of range: 101")
        CLI.expectError(await read(["drift", diverged, "--context=-1"]), status: 2, "context out of range: -1")
    }

    /// A flipped byte in a screen record: drift and the divergence export fail with the store's
    /// one line (exit 3); log prints every event, without marks, and says why on stderr.
    @Test func aDamagedScreenRecordFailsDriftButNotLog() async throws {
        do {
            let log = try LMDBEventLog.open(at: dir.path("st"), options: .init(durability: .none))
            let info = try log.session(SessionID(diverged))
            let key = SessionScreens.key(StoreKey.eventPrefix(info), 2)
            try log.environment.withWriteTransaction { txn in
                var bytes = try #require(try txn.value(forKey: key, in: log.databases.meta))
                bytes[bytes.count - 17] ^= 0x40
                try txn.put(bytes, forKey: key, in: log.databases.meta)
            }
        }
        CLI.expectError(await read(["drift", diverged]), status: 3, "screen record 2 of \(diverged)")
        CLI.expectError(await read(["drift", diverged, "--json"]), status: 3, "corrupt store")
        CLI.expectError(await read(["export", "--format", "divergences-jsonl", "--all", "-o", "-"]), status: 3, "screen record 2")
        try dir.write("kept.jsonl", "as it was\n")
        CLI.expectError(await read(["export", "--format", "divergences-jsonl", "--all", "-o", "$/kept.jsonl"]), status: 3, "screen record 2")
        #expect(try String(contentsOfFile: dir.path("kept.jsonl"), encoding: .utf8) == "as it was\n", "a failed export leaves the file as it was")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.parent).filter { $0.hasSuffix(".tmp") } == [])
        let r = await read(["log", diverged])
        #expect(r.status == 0, "\(r)")
        #expect(lines(r.stdout) == lines(await read(["log", "$/upsell.json"]).stdout), "every event, no mark: \(r.stdout)")
        let err = lines(r.stderr)
        #expect(err.count == 1 && err[0].hasPrefix("routelog: warning: divergences not marked: corrupt store:") && err[0].contains("screen record 2"), "\(r.stderr)")
        let json = await read(["log", diverged, "--json"])
        #expect(json.status == 0 && lines(json.stdout).count == Sessions.upsell.count && lines(json.stderr).count == 1, "\(json)")
        // The other sessions are untouched.
        #expect(await read(["drift", agreed]).status == 0)
        let tools = AgentTools(storePath: dir.path("st"))
        let answer = await tools.call("list_divergences", ["session": .string(diverged)])
        #expect(answer.error?.contains("screen record 2") == true && answer.error?.contains("\n") == false, "\(answer.text)")
    }

    // MARK: - MCP

    @Test func listDivergencesAnswersDriftsJSON() async throws {
        let tools = AgentTools(storePath: dir.path("st"))
        for (id, context) in [(diverged, 2), (diverged, 0), (agreed, 2), (silent, 2)] {
            let answer = await tools.call("list_divergences", ["session": .string(id), "context": .int(Int64(context))])
            #expect(answer.error == nil, "\(answer.text)")
            guard case .object(var o) = answer.structured else { Issue.record("not an object"); continue }
            #expect(o.removeValue(forKey: "next") == .null)
            let cli = try await read(["drift", id, "--json", "--context", String(context)]).stdout.json()
            #expect(JSONValue.object(o) == cli, "\(answer.text)")
        }
        for (args, want) in [
            (["session": JSONValue.string(diverged), "context": .int(-1)], "out of range: -1"),
            (["session": .string(diverged), "context": .string("2; rm -rf /")], "context must be a non-negative integer"),
            (["session": .string(diverged), "context": .int(1000)], "context out of range: 1000"),
            (["session": .string(diverged + "@3")], "whole session"),
            (["session": .string(dir.path("upsell.json"))], "not a session of this store"),
            (["session": .string("--all")], "unknown session: --all"),
            (["session": .string(diverged), "cursor": .string("x")], "bad cursor"),
            (["session": .string(diverged), "verbose": .bool(true)], "unknown argument verbose"),
            ([:], "list_divergences needs session"),
        ] {
            let answer = await tools.call("list_divergences", args)
            #expect(answer.error?.contains(want) == true && answer.error?.contains("\n") == false, "\(args): \(answer.text)")
        }
        // With a fixtures folder, a file is a session of the tools, and has no screen records.
        let served = AgentTools(storePath: dir.path("st"), fixtures: dir.parent)
        let file = await served.call("list_divergences", ["session": .string("upsell.json")])
        #expect(file.error?.hasPrefix("no screen records in a file") == true, "\(file.text)")
    }

    // MARK: - Fleet export

    @Test func theDivergenceExportHasARowPerDivergence() async throws {
        let r = await read(["export", "--format", "divergences-jsonl", "--all", "-o", "-"])
        #expect(r.status == 0, "\(r)")
        let rows = try lines(r.stdout).map { try $0.json() }
        #expect(rows.count == 5, "only the diverged session's: \(r.stdout)")
        for row in rows {
            guard case .object(let o) = row else { Issue.record("not an object"); continue }
            #expect(Set(o.keys) == Set(DivergenceRows.columns), "every column on every row")
            #expect(o["session"] == .string(diverged) && o["app_version"] == .string("2.1") && o["label"] == .string("diverged"))
        }
        #expect(rows.map { $0["kind"]?.stringValue ?? "" } == ["unknownScreen", "notOnScreen", "stillOnScreen", "unknownScreen", "depthMismatch"])
        #expect(rows.map { $0["route_id"] ?? .null } == [.null, .string("composer"), .string("upsell"), .string("ghost"), .string("attachments")])
        #expect(rows.map { $0["tab"] ?? .null } == [.string("home"), .null, .null, .null, .null])
        #expect(rows.map { $0["cause"] ?? .null } == [.null, .string("presentedWhileDismissing"), .string("removedWithoutWrite"), .null,
                                                      .string("pathWriteDuringTabSwitch")])
        #expect(rows.map { $0["seq"]?.intValue ?? -1 } == [0, 3, 7, 7, 4] && rows.map { $0["head_seq"]?.intValue ?? -1 } == [0, 3, 7, 7, 9])
        let file = await read(["export", "--format", "divergences-jsonl", diverged, agreed, "-o", "$/d.jsonl"])
        #expect(file.status == 0 && file.stdout == "exported 5 divergences of 2 sessions to d.jsonl\n", "\(file)")
    }
}
