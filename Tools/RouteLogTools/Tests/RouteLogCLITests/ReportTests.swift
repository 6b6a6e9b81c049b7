import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
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

    // MARK: - --from/--to and the page's budget

    /// A store session of 60 generated events (100 ms apart) with a snapshot every 8 events, and
    /// the same events as a file; returns the store's path.
    func rangeStore() throws -> String {
        let store = dir.path("st")
        let events = Sessions.generated(seed: 7, count: 60)
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, snapshotInterval: 8, clock: { Sessions.t0 }, retention: .none))
        let id = try log.createSession(NewSession(label: "ranged")).id
        try log.append(events, to: id, expectedSeq: 0)
        try dir.writeSession("gen.json", events, label: "ranged")
        return store
    }

    /// `text` with the splice of a page event (`[t, origin, text, outcome, site, prefix, removed, inserted, …]`) applied.
    func apply(_ e: [JSONValue], to text: String) throws -> String {
        let u = Array(text.utf16)
        let prefix = try #require(e[5].intValue), removed = try #require(e[6].intValue), inserted = try #require(e[7].stringValue)
        return String(decoding: u[0..<Int(prefix)] + Array(inserted.utf16) + u[Int(prefix + removed)...], as: UTF16.self)
    }

    /// The `"state"` member of `routelog state REF --json`, as canonical text.
    func state(_ ref: String, store: String) async throws -> String {
        let r = await InProcess.run(["state", ref, "--json", "--store", store], in: dir)
        #expect(r.status == 0, "\(r)")
        return try #require(try r.stdout.json()["state"]).canonicalText
    }

    @Test func rangeOptionErrorsAreOneLineAndWriteNothing() async throws {
        let store = try rangeStore()
        func report(_ args: [String]) async -> CLIResult {
            await InProcess.run(["report"] + args + ["-o", "$/bad.html", "--store", store], in: dir)
        }
        for ref in ["latest", "$/gen.json"] {
            CLI.expectError(await report([ref, "--from", "0"]), status: 2, "--from out of range: 0 (seqs start at 1)")
            CLI.expectError(await report([ref, "--from", "9", "--to", "3"]), status: 2, "--to 3 is before --from 9")
            CLI.expectError(await report([ref, "--to", "0"]), status: 2, "--to 0 is before --from 1")
            CLI.expectError(await report([ref, "--from", "61"]), status: 2, "--from out of range: 61 (session ")
            CLI.expectError(await report([ref, "--from", "5", "--to", "61"]), status: 2, "--to out of range: 61 (session ")
            CLI.expectError(await report([ref + "@2", "--from", "5"]), status: 2, "@2 is not on the page: it shows seqs 4…60 (--from 5 --to 60)")
            CLI.expectError(await report([ref + "@30", "--to", "20"]), status: 2, "@30 is not on the page: it shows seqs 0…20 (--from 1 --to 20)")
            CLI.expectError(await report([ref, "--from", "x"]), status: 2, "'x' is invalid for '--from <seq>'")
            CLI.expectError(await report([ref, "--to", "-3"]), status: 2, "never negative")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("bad.html")))
    }

    /// A page of seqs 11…26 starts from the state after seq 10 (the store's snapshot at seq 8 plus
    /// two events, or a fold of the file's), and its splices give `routelog state REF@N` at every
    /// seq up to 26; seqs, times and lanes are the session's own.
    @Test func rangedReportStartsFromTheFoldBeforeItAndShowsTheRealSeqs() async throws {
        let store = try rangeStore()
        var pages: [JSONValue] = []
        for ref in ["latest@18", "$/gen.json@18"] {
            let r = await InProcess.run(["report", ref, "--from", "11", "--to", "26", "-o", "$/part.html", "--store", store], in: dir)
            #expect(r.status == 0, "\(r)")
            let d = try data(try dir.read("part.html"))
            #expect(d["base"]?.intValue == 10 && d["openAt"]?.intValue == 18)
            #expect(d["range"] == .object(["from": .int(11), "to": .int(26)]))
            #expect(d["header"]?["count"]?.intValue == 60, "the header counts the whole session")
            let chunk = try #require(d["chunk"])
            #expect(chunk["from"]?.intValue == 11)
            let events = (chunk["events"]?.arrayValue ?? []).compactMap { $0.arrayValue }
            #expect(events.count == 16)
            #expect(events.first?[0].intValue == 1_000, "times count from seq 1, 100 ms apart")
            var text = try #require(d["initial"]?.stringValue)
            #expect(text == (try await state("latest@10", store: store)))
            for (i, e) in events.enumerated() {
                text = try apply(e, to: text)
                #expect(text == (try await state("latest@\(11 + i)", store: store)), "seq \(11 + i)")
            }
            // Every bar of the lanes lies on the page: a screen there before seq 11 starts at 10.
            let bars = (d["lanes"]?["bars"]?.arrayValue ?? []).compactMap { $0.intValue }
            #expect(!bars.isEmpty && bars.count % 4 == 0)
            for b in stride(from: 0, to: bars.count, by: 4) {
                #expect(bars[b + 1] >= 10 && bars[b + 1] <= 26 && (bars[b + 2] == 0 || (bars[b + 2] > 10 && bars[b + 2] <= 26)), "\(bars[b..<b + 4])")
            }
            pages.append(d)
        }
        // The store's page and the file's show the same events from the same state.
        #expect(pages[0]["chunk"]?["events"] == pages[1]["chunk"]?["events"])
        #expect(pages[0]["initial"] == pages[1]["initial"] && pages[0]["lanes"] == pages[1]["lanes"])
        // --to alone starts at 1 (from the empty state); --from alone ends at the last seq.
        let head = await InProcess.run(["report", "latest", "--to", "7", "-o", "$/head.html", "--store", store], in: dir)
        let h = try data(try dir.read("head.html"))
        #expect(head.status == 0 && h["base"]?.intValue == 0 && h["chunk"]?["events"]?.arrayValue?.count == 7, "\(head)")
        let tail = await InProcess.run(["report", "$/gen.json", "--from", "58", "-o", "$/tail.html"], in: dir)
        let t = try data(try dir.read("tail.html"))
        #expect(tail.status == 0 && t["base"]?.intValue == 57 && t["chunk"]?["events"]?.arrayValue?.count == 3, "\(tail)")
    }

    /// A page that would pass its memory budget is refused in one line that says how many events
    /// the range has and suggests --from/--to, and no file is written; a range that fits is written.
    @Test func aReportOverItsBudgetIsRefusedInOneLine() async throws {
        let store = try rangeStore()
        let budget = 10_000
        #expect(ReportBudget.$bytes.withValue(budget) { ReportBudget.maxEvents } == 50)
        func report(_ args: [String]) async -> CLIResult {
            await ReportBudget.$bytes.withValue(budget) {
                await InProcess.run(["report"] + args + ["-o", "$/big.html", "--store", store], in: dir)
            }
        }
        // More events than any page can hold: refused before anything is read.
        let r = await report(["latest"])
        let id = try #require(try LMDBEventLog.open(at: store, options: .init(readOnly: true)).sessions().first?.id.rawValue)
        CLI.expectError(r, status: 2, "report: \(id) has 60 events; a report holds at most 50 — choose a range with --from/--to")
        CLI.expectError(await report(["latest", "--from", "3", "--to", "58"]), status: 2,
                        "report: seqs 3–58 of \(id) are 56 events; a report holds at most 50 — choose a smaller range with --from/--to")
        // A file is counted as it is read.
        CLI.expectError(await report(["$/gen.json"]), status: 2, "report: gen.json has 60 events; a report holds at most 50 — choose a range")
        // Few enough events, but their data passes the budget on the way.
        let crossing = await report(["latest", "--from", "1", "--to", "45"])
        CLI.expectError(crossing, status: 2, "report: seqs 1–45 of \(id) are 45 events too large for one page")
        #expect(crossing.stderr.contains("choose a range with --from/--to"))
        CLI.expectError(await report(["$/gen.json", "--from", "1", "--to", "45"]), status: 2, "seqs 1–45 of gen.json are 45 events too large for one page")
        #expect(!FileManager.default.fileExists(atPath: dir.path("big.html")), "nothing written")
        let fits = await report(["latest", "--from", "5", "--to", "8"])
        #expect(fits.status == 0 && FileManager.default.fileExists(atPath: dir.path("big.html")), "\(fits)")
    }
}
