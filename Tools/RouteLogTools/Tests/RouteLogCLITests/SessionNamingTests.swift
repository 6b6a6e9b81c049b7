import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline
import Testing

/// Naming sessions: `#N` entry numbers, the shortest unique prefixes `sessions` prints, the app
/// version's key in `sessions --json`, import labels, seq options and empty sessions.
struct SessionNamingTests {
    let dir: TempDir

    init() throws {
        dir = try .withUpsell()
        try dir.writeSession("gen.json", Sessions.generated(seed: 3, count: 40), label: "generated")
        try dir.write("empty.json", #"{"format": "routelog-fixture/1", "name": "nothing yet", "events": []}"#)
    }

    func run(_ args: [String]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url) }

    func read(_ args: [String]) async -> CLIResult { await InProcess.run(args + ["--store", dir.path("st")], in: dir) }

    /// Imports the files into `st` (as a process: it writes) and returns the new ids in order.
    func importFiles(_ files: [String], label: String? = nil) async throws -> [String] {
        let r = try await run(["import", "--store", "st", "--json"] + (label.map { ["--label", $0] } ?? []) + files)
        #expect(r.status == 0, "\(r)")
        return try r.stdout.split(separator: "\n").map { try String($0).json()["session"]?.stringValue ?? "" }
    }

    @Test func shortestUniquePrefixesNameEachIdAndNoOther() {
        let ids = ["01a20d23-aaaa", "01a20d23-aabb", "01a20d23-b000", "ff00"]
        let p = SessionJSON.shortestUniquePrefixes(ids)
        #expect(p == ["01a20d23-aaaa": "01a20d23-aaa", "01a20d23-aabb": "01a20d23-aab", "01a20d23-b000": "01a20d23-b", "ff00": "f"])
        for id in ids {
            let prefix = p[id]!
            #expect(ids.filter { $0.hasPrefix(prefix) } == [id], "\(prefix) names \(id) only")
            #expect(ids.filter { $0.hasPrefix(String(prefix.dropLast())) }.count > 1 || prefix.count == 1, "\(prefix) is the shortest")
        }
        #expect(SessionJSON.shortestUniquePrefixes(["only"]) == ["only": "o"])
        #expect(SessionJSON.shortestUniquePrefixes([]).isEmpty)
    }

    @Test func entryNumbersAndPrefixesResolve() async throws {
        // Sessions made within one second share most of their ids: prefixes get long.
        let ids = try await importFiles(["upsell.json", "gen.json", "upsell.json"])
        #expect(ids.count == 3 && Set(ids).count == 3)
        let listed = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue)
        #expect(listed.map { $0["id"]?.stringValue } == ids)
        #expect(listed.map { $0["order"]?.intValue } == [1, 2, 3])
        let prefixes = listed.compactMap { $0["prefix"]?.stringValue }
        #expect(prefixes.count == 3)
        for (id, prefix) in zip(ids, prefixes) {
            #expect(id.hasPrefix(prefix))
            #expect(ids.filter { $0.hasPrefix(prefix) } == [id])
            // The printed prefix resolves to its session; one character less does not (or is ambiguous).
            let r = await read(["state", prefix, "--json"])
            #expect(r.status == 0, "\(r)")
        }
        // The text table prints the same prefix beside each id.
        let table = await read(["sessions"])
        #expect(table.stdout.contains("PREFIX"), "\(table)")
        for (id, prefix) in zip(ids, prefixes) {
            #expect(table.stdout.split(separator: "\n").contains { $0.contains(id) && $0.contains("  \(prefix)  ") }, "\(table)")
        }
        // #N is the store's entry number.
        let second = await read(["log", "#2", "--json"])
        #expect(second.status == 0 && second.stdout.split(separator: "\n").count == 40, "\(second)")
        let byNumber = await read(["state", "#1@3", "--json"]), byID = await read(["state", "\(ids[0])@3", "--json"])
        #expect(byNumber.status == 0 && byNumber.stdout == byID.stdout, "\(byNumber)")
        #expect(try await read(["state", "#3", "--json"]).stdout.json()["seq"]?.intValue == 10)
        CLI.expectError(await read(["state", "#4"]), status: 2, "unknown session: #4")
        CLI.expectError(await read(["state", "#4"]), status: 2, "its entry numbers run 1…3")
        CLI.expectError(await read(["state", "#0"]), status: 2, "expected an entry number after '#'")
        CLI.expectError(await read(["state", "#x"]), status: 2, "expected an entry number after '#'")
        CLI.expectError(await read(["state", "#"]), status: 2, "expected an entry number after '#'")
    }

    @Test func sessionsJSONSpellsTheAppVersionAsTheFixtureHeaderDoes() async throws {
        try dir.writeUpsellWithHeader()
        _ = try await importFiles(["with-header.json"])
        let s = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue?.first)
        #expect(s["appVersion"]?.stringValue == "5.1 (88)")
        #expect(s["version"] == nil, "one spelling: appVersion")
        // The export's header and the events-jsonl column say the same version.
        let exported = await read(["export", "latest", "-o", "-"])
        #expect(try JSONValue(parsing: exported.stdout)["session"]?["appVersion"]?.stringValue == "5.1 (88)")
        let rows = await read(["export", "latest", "--format", "events-jsonl", "-o", "-"])
        #expect(try rows.stdout.split(separator: "\n").first.map { try String($0).json() }?["app_version"]?.stringValue == "5.1 (88)")
    }

    @Test func importKeepsTheLabelTheFileRecordsUnlessToldOtherwise() async throws {
        var text = try dir.read("upsell.json")
        text = text.replacingOccurrences(of: "  \"events\": [", with: """
          "session": {"label": "Player won't close"},
          "events": [
        """)
        try dir.write("export.json", text)
        _ = try await importFiles(["export.json", "gen.json"])
        _ = try await importFiles(["gen.json"], label: "by hand")
        let labels = try #require(try await read(["sessions", "--json"]).stdout.json().arrayValue).map { $0["label"]?.stringValue }
        // An export keeps its session's label; a fixture without a header takes its name; --label wins.
        #expect(labels == ["Player won't close", "generated", "by hand"])
        let help = await InProcess.run(["help", "import"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("--label <label> The label of the new sessions (default: the label the file records"), "\(help)")
        #expect(!words.contains("each file's name"), "\(help)")
    }

    @Test func aNegativeSeqSaysWhatIsWrong() async throws {
        let r = await InProcess.run(["state", "$/upsell.json", "--at", "-1"], in: dir)
        CLI.expectError(r, status: 2, "The value '-1' is invalid for '--at <at>': a seq is a whole number from 0")
        #expect(r.stderr.contains("never negative") && !r.stderr.contains("Missing value"), "\(r)")
        CLI.expectError(await InProcess.run(["log", "$/upsell.json", "--from", "-3"], in: dir), status: 2, "'--from <from>': a seq is a whole number from 0")
        CLI.expectError(await InProcess.run(["log", "$/upsell.json", "--to", "x"], in: dir), status: 2, "'--to <to>': a seq is a whole number from 0")
        // Valid seqs still parse.
        #expect(try await InProcess.run(["state", "$/upsell.json", "--at", "3", "--json"], in: dir).stdout.json()["seq"]?.intValue == 3)
    }

    @Test func anEmptySessionIsNotAnErrorForLogAndState() async throws {
        _ = try await importFiles(["empty.json"])
        for target in ["latest", "$/empty.json"] {
            let log = await read(["log", target])
            #expect(log.status == 0 && log.stderr.isEmpty, "\(log)")
            #expect(log.stdout.hasSuffix("has no events yet\n") && log.stdout.split(separator: "\n").count == 1, "\(log)")
            let json = await read(["log", target, "--json"])
            #expect(json.status == 0 && json.stdout.isEmpty && json.stderr.isEmpty, "\(json)")
            let state = await read(["state", target, "--json"])
            #expect(state.status == 0, "\(state)")
            #expect(try state.stdout.json()["seq"]?.intValue == 0)
            #expect(try state.stdout.json()["digest"]?.stringValue == NavigationState().digest.hex)
            // Commands that need events still say so.
            CLI.expectError(await read(["bisect", target, "--predicate", "depth > 0"]), status: 3, "empty session")
        }
        // A seq past the end of an empty session is still out of range.
        CLI.expectError(await read(["log", "latest", "--from", "1"]), status: 2, "--from out of range: 1")
    }
}
