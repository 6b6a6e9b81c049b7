import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import Testing

/// `fixtures check|record`, `export` and `verify` on files, run in-process.
struct FixturesExportTests {
    let dir: TempDir

    init() throws {
        dir = try TempDir()
        try dir.writeSession("fx/a-upsell.json", Sessions.upsell, label: "upsell", expect: true)
        try dir.writeSession("fx/b-generated.json", Sessions.generated(seed: 5, count: 80), label: "generated", expect: true)
        try dir.writeSession("fx/nested/c-tabs.json", [RecordedEvent(.setTabs(["a", "b"])), RecordedEvent(.selectTab("b"))], label: "tabs", expect: true)
    }

    func run(_ args: [String], reducer: NavigationState.Reducer = SessionVerifier.currentReducer) async -> CLIResult {
        await InProcess.run(args, in: dir, reducer: reducer)
    }

    @Test func checkPassesGoodFixtures() async throws {
        let r = await run(["fixtures", "check", "$/fx"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "3 passed, 0 failed\n", "\(r)")
    }

    @Test func checkReportsEachMismatchAndCounts() async throws {
        // A wrong outcome, a wrong state and a wrong digest, each in its own file.
        var text = try dir.read("fx/a-upsell.json")
        text = text.replacingOccurrences(of: #""rejected:notDismissible""#, with: #""applied""#)
        try dir.write("fx/a-upsell.json", text)
        var tabs = try dir.read("fx/nested/c-tabs.json")
        tabs = tabs.replacingOccurrences(of: #""selectedTab":"b""#, with: #""selectedTab":"a""#)
        try dir.write("fx/nested/c-tabs.json", tabs)
        let r = await run(["fixtures", "check", "$/fx"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.hasSuffix("\n1 passed, 2 failed\n"), "\(r)")
        #expect(r.stdout.contains("FAIL fx/a-upsell.json"))
        #expect(r.stdout.contains("events[5] (seq 6, interactiveDismiss): expected applied, got rejected:notDismissible"), "\(r)")
        #expect(r.stdout.contains("FAIL fx/nested/c-tabs.json"))
        #expect(r.stdout.contains("- tab a  (selected)") && r.stdout.contains("+ tab b  (selected)"), "a state diff: \(r)")
        try Golden.check(r.stdout, "fixtures-check-failures.txt")
    }

    @Test func checkNamesFileAndEventIndexOfAMalformedFixture() async throws {
        try dir.write("bad/typo.json", """
        {"format": "routelog-fixture/1", "name": "typo", "events": [
          {"push": {"route": "a"}},
          {"show": {"route": "b", "style": "sheeet"}}
        ]}
        """)
        let r = await run(["fixtures", "check", "$/bad"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("bad/typo.json: events[1].show.style: unknown value \"sheeet\""), "\(r)")
        #expect(r.stdout.hasSuffix("0 passed, 1 failed\n"))
        // Elsewhere the same file is a one-line data error.
        CLI.expectError(await run(["log", "$/bad/typo.json"]), status: 3, "malformed fixture: bad/typo.json: events[1].show.style")
        try dir.write("bad/json.json", "{\"events\": [\n  {\"push\": }\n]}")
        CLI.expectError(await run(["state", "$/bad/json.json"]), status: 3, "malformed fixture: bad/json.json: line 2, column")
        try dir.write("bad/newer.json", #"{"format": "routelog-fixture/9", "events": []}"#)
        CLI.expectError(await run(["state", "$/bad/newer.json"]), status: 3, #"unsupported format "routelog-fixture/9""#)
    }

    @Test func recordRewritesExpectBlocks() async throws {
        try dir.writeSession("rec/handwritten.json", Sessions.upsell, label: "hand")
        let before = await run(["fixtures", "check", "$/rec"])
        #expect(before.status == 1 && before.stdout.contains("no expect block"), "\(before)")
        let rec = await run(["fixtures", "record", "$/rec"])
        #expect(rec.status == 0, "\(rec)")
        #expect(rec.stdout.contains("recorded  rec/handwritten.json") && rec.stdout.hasSuffix("1 recorded, 0 unchanged\n"), "\(rec)")
        let after = await run(["fixtures", "check", "$/rec"])
        #expect(after.stdout == "1 passed, 0 failed\n", "\(after)")
        let again = await run(["fixtures", "record", "$/rec"])
        #expect(again.stdout.hasSuffix("0 recorded, 1 unchanged\n"), "recording twice is stable: \(again)")
        let doc = try JSONValue(parsing: dir.read("rec/handwritten.json"))
        let r = replay(Sessions.upsell.map(\.event))
        #expect(doc["expect"]?["digest"]?.stringValue == r.state.digest.hex)
        #expect(doc["name"]?.stringValue == "hand")
    }

    @Test func exportRoundTripsAndRedacts() async throws {
        let r = await run(["export", "$/fx/a-upsell.json", "-o", "$/out.json"])
        #expect(r.status == 0, "\(r)")
        let plain = try JSONValue(parsing: dir.read("out.json"))
        let events = try #require(plain["events"]?.arrayValue).map { try RecordedEvent(json: $0) }
        #expect(events == Sessions.upsell)
        #expect(await run(["fixtures", "check", "$/out.json"]).stdout == "1 passed, 0 failed\n")
        // The fixture's name follows the output file's name (Fixtures/README.md), or --name.
        #expect(plain["name"]?.stringValue == "out", "\(plain["name"] ?? .null)")
        _ = await run(["export", "$/fx/a-upsell.json", "-o", "$/named.json", "--name", "upsell-swipe"])
        #expect(try JSONValue(parsing: dir.read("named.json"))["name"]?.stringValue == "upsell-swipe")

        let red = await run(["export", "$/fx/a-upsell.json", "-o", "$/red.json", "--redact"])
        #expect(red.status == 0, "\(red)")
        let text = try dir.read("red.json")
        #expect(!text.contains("Lunch?") && !text.contains(":42"), "payload strings and numbers are gone:\n\(text)")
        #expect(!text.contains("swipe down"), "notes are redacted too")
        let redacted = try #require(try JSONValue(parsing: text)["events"]?.arrayValue).map { try RecordedEvent(json: $0) }
        #expect(redacted.map { ids($0.event) } == Sessions.upsell.map { ids($0.event) }, "ids kept")
        let payload = try #require(redacted[1].event.route?.payload?.value)
        // Strings become hashes; numbers stay numbers (another number), so the payload still decodes.
        let id = try #require(payload["id"]?.intValue), subject = try #require(payload["subject"]?.stringValue)
        #expect(id != 42 && (0..<1_000_000_000).contains(id) && subject.hasPrefix("redacted:"))
        // Stable: the same input gives the same hashes.
        _ = await run(["export", "$/fx/a-upsell.json", "-o", "$/red2.json", "--redact", "--name", "red"])
        #expect(try dir.read("red2.json") == text)
        #expect(await run(["fixtures", "check", "$/red.json"]).status == 0, "the redacted export is a valid fixture")
        // To stdout.
        let out = await run(["export", "$/fx/a-upsell.json@3", "-o", "-"])
        #expect(try JSONValue(parsing: out.stdout)["events"]?.arrayValue?.count == 3, "\(out)")
    }

    @Test func verifyAFileAgainstItsExpectBlock() async throws {
        let ok = await run(["verify", "$/fx/a-upsell.json", "$/fx/b-generated.json"])
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.hasSuffix("2 ok, 0 failed\n"), "\(ok)")
        // A changed reducer rule is caught at the right seq.
        let bad = await run(["verify", "$/fx/a-upsell.json"], reducer: ReducerMutation.interactiveDismissIgnoresDismissible.apply)
        #expect(bad.status == 1, "\(bad)")
        #expect(bad.stdout.contains("at seq 6: outcome: expected rejected:notDismissible, replayed applied"), "\(bad)")
        #expect(bad.stdout.contains("-       [0] attachments") == false)
        try Golden.check(bad.stdout, "verify-file-mutation.txt")
        // Where the changed rule never fires, the file still verifies.
        let pop = await run(["verify", "$/fx/a-upsell.json"], reducer: ReducerMutation.popIgnoresCount.apply)
        #expect(pop.status == 0 && pop.stdout.hasPrefix("ok      fx/a-upsell.json  10 events"), "\(pop)")
    }

    /// `push id`, `show style id`, or the event's kind.
    func ids(_ e: Event) -> String {
        switch e {
        case .push(let r, _): "push \(r.id)"
        case .show(let r, let s, _, _): "show \(s.rawValue) \(r.id)"
        default: "\(e.kind)"
        }
    }
}

extension Event {
    var route: RouteRef? {
        switch self {
        case .push(let r, _), .show(let r, _, _, _): r
        default: nil
        }
    }
}
