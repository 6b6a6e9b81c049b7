import Foundation
import RouteLogCore
import Testing

/// `routelog report`, `fixtures check --report` and `serve`'s argument errors, end to end. The
/// pages themselves are tested in a browser (`Tests/Browser`).
@Suite(.serialized) struct ReportTests {
    let dir: TempDir

    init() throws {
        dir = try TempDir()
        try dir.writeSession("upsell.json", Sessions.upsell, label: "upsell <b>bold</b>")
    }

    func run(_ args: [String]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url) }

    /// The JSON document in a page's data element.
    func data(_ html: String) throws -> JSONValue {
        let open = try #require(html.range(of: "<script type=\"application/json\" id=\"routelog-data\">"))
        let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
        return try JSONValue(parsing: String(html[open.upperBound..<close.lowerBound]))
    }

    @Test func reportOfAFileWritesOnePageAndPrintsItsPath() async throws {
        let r = try await run(["report", "upsell.json", "-o", "out/../upsell.html"])
        #expect(r.status == 0 && r.stdout == "out/../upsell.html\n" && r.stderr.isEmpty, "\(r)")
        let html = try dir.read("upsell.html")
        #expect(!html.contains("<b>bold"), "the label is escaped")
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("@import"), "nothing from the network")
        let d = try data(html)
        #expect(d["header"]?["label"]?.stringValue == "upsell <b>bold</b>")
        #expect(d["chunk"]?["events"]?.arrayValue?.count == Sessions.upsell.count)
        #expect(d["openAt"] == .null)
        let state = try await run(["state", "upsell.json", "--json"])
        #expect(d["initial"]?.stringValue == NavigationState().json.canonicalText)
        #expect(state.status == 0)
    }

    @Test func refAtNOpensAtN() async throws {
        let r = try await run(["report", "upsell.json@3", "-o", "at3.html"])
        #expect(r.status == 0, "\(r)")
        #expect(try data(try dir.read("at3.html"))["openAt"]?.intValue == 3)
    }

    @Test func badInputIsOneLineWithItsExitCode() async throws {
        CLI.expectError(try await run(["report", "nope.json"]), status: 2, "no such file: nope.json")
        CLI.expectError(try await run(["report", "upsell.json@99", "-o", "x.html"]), status: 2, "out of range: 99")
        CLI.expectError(try await run(["report", "latest", "--store", "missing"]), status: 3, "not a store: missing")
        CLI.expectError(try await run(["report", "upsell.json", "-o", "no/such/dir/x.html"]), status: 3, "cannot write no/such/dir/x.html")
        CLI.expectError(try await run(["serve", "--port", "70000"]), status: 2, "--port out of range: 70000")
        CLI.expectError(try await run(["serve", "--store", "missing", "--port", "0"]), status: 3, "not a store: missing")
    }

    @Test func fixturesCheckReportWritesAPageForEachFailingFixtureOnly() async throws {
        try dir.writeSession("fx/pass.json", Sessions.upsell, label: "pass", expect: true)
        try dir.write("fx/fail.json", """
        {"format": "routelog-fixture/1", "name": "fail", "events": [{"push": {"route": {"id": "a"}}}, {"dismiss": {}}],
         "expect": {"outcomes": ["applied", "applied"]}}
        """)
        let r = try await run(["fixtures", "check", "fx", "--report", "pages"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("report: pages/fx-fail.html"), "\(r)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.path("pages"))
        #expect(pages == ["fx-fail.html"])
        let d = try data(try dir.read("pages/fx-fail.html"))
        #expect(d["fixture"]?["first"]?.intValue == 2)
        #expect(d["openAt"]?.intValue == 2)
        let rows = try #require(d["fixture"]?["outcomes"]?.arrayValue)
        #expect(rows[1] == .array([.int(2), .string("applied"), .string("rejected:nothingToDismiss")]))
        let json = try await run(["fixtures", "check", "fx", "--report", "pages", "--json"])
        #expect(try json.stdout.json()["results"]?.arrayValue?.first { $0["ok"] == .bool(false) }?["report"]?.stringValue == "pages/fx-fail.html")
    }
}
