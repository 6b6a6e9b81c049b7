import Foundation
import RouteLogCore
import Testing

/// Every bad input gets one line on stderr naming the thing and the place, and the documented exit code.
@Suite(.serialized) struct ErrorTests {
    let dir: TempDir

    init() throws {
        dir = try TempDir()
        try dir.writeSession("upsell.json", Sessions.upsell, label: "upsell")
        try dir.writeSession("empty.json", [], label: "empty")
    }

    func run(_ args: [String], env: [String: String] = [:]) throws -> CLIResult { try CLI.run(args, cwd: dir.url, env: env) }

    @Test func seqOutOfRange() throws {
        CLI.expectError(try run(["state", "upsell.json@11"]), status: 2, "seq out of range: 11 (session upsell.json has 10 events)")
        CLI.expectError(try run(["state", "upsell.json", "--at", "99"]), status: 2, "--at out of range: 99")
        CLI.expectError(try run(["log", "upsell.json", "--from", "12"]), status: 2, "--from out of range: 12")
        CLI.expectError(try run(["diff", "upsell.json@1", "upsell.json@12"]), status: 2, "seq out of range: 12")
        CLI.expectError(try run(["state", "upsell.json@x"]), status: 2, "expected a seq number after '@'")
        CLI.expectError(try run(["state", "upsell.json@3", "--at", "4"]), status: 2, "--at 4 contradicts upsell.json@3")
    }

    @Test func emptySession() throws {
        CLI.expectError(try run(["log", "empty.json"]), status: 3, "empty session: empty.json has no events")
        CLI.expectError(try run(["bisect", "empty.json", "--predicate", "depth > 0"]), status: 3, "empty session")
        CLI.expectError(try run(["minimize", "empty.json", "--predicate", "depth > 0", "-o", "x.json"]), status: 3, "empty session")
        CLI.expectError(try run(["export", "empty.json", "-o", "x.json"]), status: 3, "empty session")
        CLI.expectError(try run(["state", "empty.json"]), status: 3, "empty session")
        // The state before any event is still there to look at.
        #expect(try run(["state", "empty.json@0", "--json"]).status == 0)
    }

    @Test func missingAndUnreadableFiles() throws {
        CLI.expectError(try run(["log", "nope.json"]), status: 2, "no such file: nope.json")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("dir.json"), withIntermediateDirectories: true)
        CLI.expectError(try run(["log", "dir.json"]), status: 3, "cannot read file: dir.json")
        CLI.expectError(try run(["fixtures", "check", "nowhere"]), status: 2, "no such file or directory: nowhere")
    }

    @Test(arguments: [
        ("", 1, "expected an expression"),
        ("top.id ==", 10, "expected a value after '==', found the end"),
        (#"top.id == "upsell" && outcome =="#, 33, "expected a value after '=='"),
        ("top.name == \"x\"", 1, "unknown field 'top.name'"),
        ("depth == \"two\"", 10, "cannot compare depth (an integer) with \"two\" (a string)"),
        ("top.id < 3", 1, "'<' compares integers, but top.id is a string"),
        ("depth = 2", 7, "unexpected '=' (compare with '==')"),
        ("(depth > 1", 11, "expected ')' to close '(' at column 1"),
        ("depth > 1)", 10, "unmatched ')'"),
        ("top.id == \"abc", 11, "unterminated string"),
        ("depth", 1, "the predicate must be true or false"),
        ("depth > 1 &&", 13, "expected a value after '&&'"),
        ("path.ids == \"a\"", 13, "cannot compare path.ids (a list of strings) with \"a\" (a string)"),
        ("1 < 2 < 3", 7, "comparisons do not chain"),
        ("top.id == 'x'", 11, "strings use double quotes"),
        ("depth & 1", 7, "unexpected '&' (and is '&&')"),
        ("depth contains \"x\"", 1, "contains needs a list or a string on its left"),
    ])
    func predicateSyntaxErrorsPointAtTheColumn(_ source: String, _ column: Int, _ message: String) throws {
        let r = try run(["bisect", "upsell.json", "--predicate", source])
        CLI.expectError(r, status: 2, "routelog: predicate: column \(column): \(message)")
    }

    @Test func pathologicalPredicatesAreErrorsNotCrashes() throws {
        let deep = String(repeating: "(", count: 2_000) + "depth > 0" + String(repeating: ")", count: 2_000)
        CLI.expectError(try run(["bisect", "upsell.json", "--predicate", deep]), status: 2, "predicate: column 201: the predicate nests deeper than 200 levels")
        let nots = String(repeating: "!", count: 4_000) + "invalid"
        CLI.expectError(try run(["bisect", "upsell.json", "--predicate", nots]), status: 2, "nests deeper than 200 levels")
        CLI.expectError(try run(["bisect", "upsell.json", "--predicate", "depth > 99999999999999999999"]), status: 2, "integer 99999999999999999999 is too large")
        CLI.expectError(try run(["bisect", "upsell.json", "--predicate", "tôp.id == \"x\""]), status: 2, "column 2: unexpected character 'ô'")
        // Within the limit, nesting works.
        let ok = String(repeating: "(", count: 150) + "depth > 1" + String(repeating: ")", count: 150)
        let r = try run(["bisect", "upsell.json", "--linear", "--json", "--predicate", ok])
        #expect(try r.stdout.json()["seq"]?.intValue == 5, "\(r)")
    }

    @Test func predicateSemantics() throws {
        // Each predicate and the seq it first holds at in the upsell session (linear scan).
        let cases: [(String, Int?)] = [
            (#"top.id == "composer""#, 3),
            (#"top.style == "sheet" && !top.dismissible"#, 5),
            ("depth >= 2", 5),
            ("depth > 2", nil),
            ("path.count == 1 && depth == 1", 4),
            (#"path.last.id == "attachments""#, 4),
            (#"path.ids contains "thread-42""#, 2),
            (#"top.id contains "sell""#, 5),
            (#"event == "pop""#, 10),
            (#"outcome == "rejected" && reason != "notDismissible""#, 8),
            (#"reason == "stale""#, 8),
            (#"tab == "home""#, nil),
            (#"tab != "home" && seq >= 9"#, 9),
            ("invalid", nil),
            ("!invalid && (seq == 3 || seq == 2)", 2),
            ("not (depth < 1) and seq > 3", 4),
            (#"top.id != "upsell" && depth == 1 && seq > 5"#, 7),
        ]
        for (p, want) in cases {
            let r = try run(["bisect", "upsell.json", "--linear", "--json", "--predicate", p])
            #expect(try r.stdout.json()["seq"]?.intValue == want.map(Int64.init), "\(p): \(r)")
        }
    }

    @Test func notAStore() throws {
        CLI.expectError(try run(["sessions", "--store", "missing-store"]), status: 3, "not a store: missing-store")
        try dir.write("plain-file", "hello")
        CLI.expectError(try run(["sessions", "--store", "plain-file"]), status: 3, "not a store: plain-file")
        CLI.expectError(try run(["log", "latest"], env: ["ROUTELOG_STORE": "missing-env-store"]), status: 3, "not a store: missing-env-store")
        CLI.expectError(try run(["log", "latest"]), status: 3, "not a store: ./.routelog")
        #expect(!FileManager.default.fileExists(atPath: dir.path(".routelog")), "reading never creates a store")
    }

    @Test func fileRefsNeedNoStore() throws {
        let r = try run(["state", "upsell.json", "--store", "missing-store"])
        #expect(r.status == 0, "\(r)")
    }

    @Test func followNeedsAStoreSession() throws {
        CLI.expectError(try run(["log", "upsell.json", "--follow"]), status: 2, "--follow needs a session in a store")
    }

    @Test func aClosedPipeOrAFullDiskIsNotACrash() throws {
        try dir.writeSession("big.json", Sessions.generated(seed: 2, count: 5_000, mix: .deepPath))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", "set -o pipefail; '\(CLI.binary.path)' log big.json | head -1 >/dev/null; echo status=$?"]
        p.currentDirectoryURL = dir.url
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(o == "status=0\n", "routelog | head ends quietly: \(o) \(e)")
        #expect(e.isEmpty, "no crash report: \(e)")
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = Process()
            full.executableURL = URL(fileURLWithPath: "/bin/sh")
            full.arguments = ["-c", "'\(CLI.binary.path)' log big.json > /dev/full"]
            full.currentDirectoryURL = dir.url
            let ferr = Pipe()
            full.standardError = ferr
            try full.run()
            let fe = String(decoding: ferr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            full.waitUntilExit()
            #expect(full.terminationStatus == 3)
            #expect(fe == "routelog: cannot write output: No space left on device\n", "\(fe)")
        }
    }
}
