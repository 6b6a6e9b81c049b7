import Foundation
@testable import RouteLogAgent
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// Issue 39, third round: recorded text never becomes code in a generated test (item 5), the
/// Swift names a user gives are Swift names (item 6), and recorded text never reaches a terminal
/// as control characters (item 10).
struct UntrustedTextTests: InProcessSuite {
    let dir: TempDir

    /// Text meant to end a comment or a string and start code, in each way Swift or an editor may
    /// end a line: `\n`, `\r`, `\r\n`, U+2028, U+0085; and `*/`, `"""` and `\(` for block
    /// comments and literals.
    static let hostile: [String] = [
        "1.0\n@Test func injectedByNewline() { fatalError(\"pwned\") }\n//",
        "1.0\r@Test func injectedByReturn() { fatalError(\"pwned\") }\r//",
        "1.0\r\n@Test func injectedByCRLF() { fatalError(\"pwned\") }\r\n//",
        "1.0\u{2028}@Test func injectedByLineSeparator() {}\u{2028}//",
        "1.0\u{85}@Test func injectedByNextLine() {}\u{85}//",
        "1.0 */ @Test func injectedAfterBlockEnd() {} /*",
        "1.0\"\"\"\n@Test func injectedAfterTripleQuote() {}\n\"\"\"",
        "1.0\\(fatalError())\" + \"\n@Test func injectedByInterpolation() {}\n//",
    ]

    /// A store with one session per `versions` entry, each one run (app version and build that
    /// text) of `events`; returns the session ids. The store is closed when it returns.
    func store(_ name: String, versions: [String], events: [RecordedEvent]) throws -> (path: String, ids: [String]) {
        let path = dir.path(name)
        let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
        var ids: [String] = []
        for v in versions {
            let id = try log.createSession(NewSession(label: "run of \(v)", appName: "App \(v)", appVersion: v)).id
            let journal = try log.beginRun(of: id, head: 0, RunStart(appVersion: v, build: v))
            try log.append(events, to: id, expectedSeq: 0)
            journal.close(allCommitted: true)
            ids.append(id.rawValue)
        }
        return (path, ids)
    }

    static let pushes: [RecordedEvent] = ["inbox", "thread", "compose"].map { RecordedEvent(.push(RouteRef(id: $0)), meta: EventMetadata()) }

    /// The names of the functions `swiftc -dump-parse` finds declared in `source`, or the
    /// compiler's complaint.
    func declaredFunctions(_ source: String, file: String) throws -> [String] {
        let path = dir.path(file)
        try Data(source.utf8).write(to: URL(fileURLWithPath: path))
        let parsed = try Child(path: "/usr/bin/env", ["swiftc", "-dump-parse", path], stdin: .empty, output: .separate).wait()
        let dump = parsed.stdout, complaint = parsed.stderr
        #expect(parsed.status == 0 && !complaint.contains("error:"), "swiftc -dump-parse \(file): \(complaint)\n\(source)")
        // `(func_decl … "name()"`: the declared name is the first quoted text of the line.
        return dump.split(separator: "\n").filter { $0.contains("(func_decl") }.compactMap { line in
            line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }
    }

    // MARK: - Item 5: recorded text stays text in the generated tests

    @Test(.timeLimit(.minutes(10))) func reproTestsHoldRecordedTextAsText() async throws {
        let (path, ids) = try store("st", versions: Self.hostile, events: Self.pushes)
        for (i, id) in ids.enumerated() {
            let out = dir.path("out\(i)")
            let r = await run(["repro", id, "--run", "1", "--store", path, "-o", out, "--name", "Crash\(i)", "--route-type", "Screen"])
            try #require(r.status == 0, "\(r)")
            let source = try String(contentsOfFile: out + "/Crash\(i).swift", encoding: .utf8)
            let functions = try declaredFunctions(source, file: "repro\(i).swift")
            #expect(functions == ["crash\(i)()", "crash\(i)Restores()"], "\(Self.hostile[i].debugDescription): \(functions)\n\(source)")
            #expect(!source.contains("\r") && !source.contains("\u{2028}") && !source.contains("\u{85}"), "\(source.debugDescription)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func agentTestsHoldRecordedTextAsText() async throws {
        let (path, ids) = try store("st", versions: Self.hostile, events: Self.pushes)
        let tools = AgentTools(storePath: path)
        for (i, id) in ids.enumerated() {
            let answer = await tools.call("reproduce_crash", ["session": .string(id), "run": .int(1)])
            try #require(answer.error == nil, "\(answer.text)")
            let source = try #require(answer.structured["test"]?.stringValue)
            let functions = try declaredFunctions(source, file: "agent\(i).swift")
            #expect(functions.count == 1 && functions.allSatisfy { !$0.contains("injected") }, "\(functions)\n\(source)")
        }
        // The predicate of `minimize` lands in a comment of its test.
        for (i, breaker) in ["\r", "\r\n", "\n", "\u{2028}", "\u{85}"].enumerated() {
            let predicate = "path.count >= 2 || top.id == \"\(breaker)@Test func injectedByPredicate() {}\(breaker)// */ \\\" \\\\(x)\""
            let answer = await tools.call("minimize", ["session": .string(ids[0]), "predicate": .string(predicate), "name": .string("min-\(i)")])
            try #require(answer.error == nil, "\(predicate.debugDescription): \(answer.text)")
            let source = try #require(answer.structured["test"]?.stringValue)
            let functions = try declaredFunctions(source, file: "minimize\(i).swift")
            #expect(functions == ["min\(i)Replays()"], "\(predicate.debugDescription): \(functions)\n\(source)")
        }
    }

    // MARK: - Item 6: Swift names are Swift names

    @Test(.timeLimit(.minutes(3))) func reproRefusesNamesThatAreNotSwift() async throws {
        let (path, ids) = try store("st", versions: ["1.0"], events: Self.pushes)
        let bad = ["if", "class", "init", "nil", "self", "default", ".", "9App"]
        func expectRefused(_ args: [String], _ option: String, _ value: String) async {
            let r = await run(["repro", ids[0], "--run", "1", "--store", path, "-o", dir.path("out")] + args)
            #expect(r.status == 2, "\(args): \(r)")
            #expect(r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(args): \(r)")
            #expect(r.stderr.contains(option) && r.stderr.contains("'\(value)'"), "\(args): \(r)")
        }
        for value in bad {
            await expectRefused(["--name", value], "--name", value)
            await expectRefused(["--route-type", value], "--route-type", value)
            await expectRefused(["--route-type", "App.\(value)"], "--route-type", "App.\(value)")
            await expectRefused(["--route-type", "Screen", "--module", value], "--module", value)
        }
        for value in ["App..Screen", "App.", ".Screen", "Screen.class"] { await expectRefused(["--route-type", value], "--route-type", value) }
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")))
        // Good names still make a test that parses with exactly its declarations.
        let r = await run(["repro", ids[0], "--run", "1", "--store", path, "-o", dir.path("ok"), "--name", "CrashRepro",
                           "--route-type", "MyApp.Screen", "--module", "MyApp"])
        try #require(r.status == 0, "\(r)")
        let source = try String(contentsOfFile: dir.path("ok/CrashRepro.swift"), encoding: .utf8)
        #expect(try declaredFunctions(source, file: "ok.swift") == ["crashrepro()", "crashreproRestores()"], "\(source)")
        #expect(source.contains("@testable import MyApp\n") && source.contains("as: MyApp.Screen.self"))
    }

    // MARK: - Item 10: no control character reaches the terminal

    static let evil = "evil\nsecond line\u{1B}]0;pwned\u{07}\u{1B}[2J\r\u{85}\u{9B}31m\u{202E}desrever"

    /// Bytes a terminal would act on: below 0x20 other than `\n` and `\t`, DEL, C1 controls and
    /// bidirectional overrides.
    static func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
                || (0x2066...0x2069).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
        }
    }

    /// A store of two sessions with hostile labels, app names, versions, builds and route ids.
    func evilStore() throws -> (path: String, ids: [String]) {
        let events = [RecordedEvent(.push(RouteRef(id: "route" + Self.evil)), meta: EventMetadata(note: "note" + Self.evil)),
                      RecordedEvent(.show(RouteRef(id: "sheet" + Self.evil), style: .sheet), meta: EventMetadata()),
                      RecordedEvent(.selectTab("tab" + Self.evil), meta: EventMetadata())]
        return try store("evil", versions: [Self.evil, "2" + Self.evil], events: events)
    }

    @Test(.timeLimit(.minutes(3))) func controlCharactersNeverReachTheTerminal() async throws {
        let (path, ids) = try evilStore()
        let commands: [[String]] = [
            ["sessions"], ["log", ids[0]], ["log", ids[1]], ["state", ids[0]], ["lifetimes", ids[0]],
            ["blame", ids[0]], ["verify", "--all"], ["verify", ids[0]], ["stats"], ["prune", "--keep", "0", "--dry-run"],
            ["repro", ids[0], "--run", "1", "-o", dir.path("r")], ["log", "nosuch" + Self.evil], ["state", ids[0] + "@x" + Self.evil],
            ["diff", ids[0], ids[1]], ["rm", ids[0]],
        ]
        for args in commands {
            let r = await run(args + ["--store", path])
            #expect(Self.controls(r.stdout).isEmpty && Self.controls(r.stderr).isEmpty, "\(args): \(r.stdout.debugDescription) \(r.stderr.debugDescription)")
            #expect(!r.stderr.contains("Fatal error"), "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count <= 1, "\(args): one line on stderr: \(r.stderr.debugDescription)")
        }
        // One line per session (and the header), the label shown escaped.
        let sessions = await run(["sessions", "--store", path])
        let lines = sessions.stdout.split(separator: "\n")
        // (`rm` above took the first.)
        #expect(lines.count == 2 && lines.filter { $0.contains("evil") }.count == 1, "\(sessions.stdout.debugDescription)")
        #expect(sessions.stdout.contains("\\n") && sessions.stdout.contains("\\u001b"), "\(sessions.stdout.debugDescription)")
        // JSON stays exact: the label reads back as recorded.
        let json = await run(["sessions", "--json", "--store", path])
        let parsed = try JSONValue(parsing: json.stdout)
        let labels = (parsed.arrayValue ?? []).compactMap { $0["label"]?.stringValue }
        #expect(labels == ["run of 2" + Self.evil], "\(json.stdout.debugDescription)")
    }

    @Test func errorLinesEscapeControlCharacters() async throws {
        let r = await run(["log", "latest", "--store", dir.path("none" + Self.evil)])
        #expect(r.status != 0 && Self.controls(r.stderr).isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr.debugDescription)")
    }
}
