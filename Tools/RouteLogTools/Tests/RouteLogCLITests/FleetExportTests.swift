import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// `routelog export --format events-jsonl`: one flat row per event, every column on every row.
struct FleetExportTests: UpsellSuite {
    let dir: TempDir

    @Test func rowsOfAFileSession() async throws {
        let r = await run(["export", "--format", "events-jsonl", "$/upsell.json", "-o", "-"])
        #expect(r.status == 0, "\(r)")
        let rows = try r.stdout.jsonObjectLines()
        #expect(rows.count == Sessions.upsell.count)
        for row in rows { #expect(Set(row.keys) == Set(FleetRows.columns), "\(row.keys.sorted())") }
        // seq 5: the undismissible upsell shown on top of the composer.
        let show = rows[4]
        #expect(show["seq"]?.intValue == 5)
        #expect(show["kind"]?.stringValue == "show" && show["route_id"]?.stringValue == "upsell")
        #expect(show["style"]?.stringValue == "sheet" && show["placement"]?.stringValue == "onTop")
        #expect(show["outcome"]?.stringValue == "applied" && show["reason"] == .null)
        #expect(show["top_id"]?.stringValue == "upsell" && show["top_dismissible"] == .bool(false))
        #expect(show["depth"]?.intValue == 2 && show["token"]?.intValue != nil)
        #expect(show["call_site"]?.stringValue == "Paywall.swift:7" && show["origin"]?.stringValue == "app")
        #expect(show["time"]?.stringValue == ISO8601.format(milliseconds: Sessions.t0 + 5_000))
        // seq 6: the swipe refused on it.
        let swipe = rows[5]
        #expect(swipe["kind"]?.stringValue == "interactiveDismiss" && swipe["outcome"]?.stringValue == "rejected")
        #expect(swipe["reason"]?.stringValue == "notDismissible" && swipe["top_id"]?.stringValue == "upsell")
        #expect(swipe["route_id"] == .null && swipe["call_site"] == .null)
        // The digest column is the replay's digest after each event; the path length of the inbox push is 1.
        let digests = replay(Sessions.upsell.map(\.event)).steps.map(\.digest.hex)
        #expect(rows.map { $0["digest"]?.stringValue } == digests)
        #expect(rows[0]["path_length"]?.intValue == 1 && rows[0]["depth"]?.intValue == 0)
    }

    @Test func allSessionsOfAStore() async throws {
        let store = dir.path("st")
        var ids: [SessionID] = []
        do {
            let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
            for (i, version) in ["1.0", "2.0"].enumerated() {
                let id = try log.createSession(NewSession(label: "s\(i)", appName: "Mail", appVersion: version)).id
                try log.append(Sessions.generated(seed: UInt64(i), count: 30), to: id, expectedSeq: 0)
                ids.append(id)
            }
        }
        let out = dir.path("events.jsonl")
        let r = await run(["export", "--format", "events-jsonl", "--all", "-o", out, "--store", store])
        #expect(r.stdout == "exported 60 events of 2 sessions to events.jsonl\n", "\(r)")
        let rows = try String(contentsOfFile: out, encoding: .utf8).jsonObjectLines()
        #expect(rows.count == 60)
        #expect(rows.prefix(30).allSatisfy { $0["session"]?.stringValue == ids[0].rawValue && $0["app_version"]?.stringValue == "1.0" })
        #expect(rows.suffix(30).allSatisfy { $0["session"]?.stringValue == ids[1].rawValue && $0["app"]?.stringValue == "Mail" })
        #expect(rows.map { $0["seq"]?.intValue ?? 0 } == Array(1...30) + Array(1...30))
        // Naming one session exports only it; latest@10 only its first ten events.
        let one = await run(["export", "--format", "events-jsonl", "latest@10", "-o", "-", "--store", store])
        #expect(try one.stdout.jsonObjectLines().map { $0["session"]?.stringValue } == Array(repeating: ids[1].rawValue, count: 10))
    }

    @Test func badCombinationsAreUsageErrors() async throws {
        CLI.expectError(await run(["export", "--format", "events-jsonl", "-o", "-"]), status: 2, "give at least one SESSION, or --all")
        CLI.expectError(await run(["export", "--format", "events-jsonl", "--all", "$/upsell.json", "-o", "-"]), status: 2, "not both")
        CLI.expectError(await run(["export", "--all", "-o", "-"]), status: 2, "--all needs --format events-jsonl")
        CLI.expectError(await run(["export", "$/upsell.json", "$/upsell.json", "-o", "-"]), status: 2, "give one SESSION")
        CLI.expectError(await run(["export", "--format", "csv", "$/upsell.json", "-o", "-"]), status: 2, "format")
        CLI.expectError(await run(["export", "--format", "events-jsonl", "--redact", "$/upsell.json", "-o", "-"]), status: 2, "--redact")
        CLI.expectError(await run(["export", "--format", "events-jsonl", "$/upsell.json", "-o", "$/missing/dir/x.jsonl"]), status: 2, "cannot write")
        CLI.expectError(await run(["export", "--format", "events-jsonl", "--all", "-o", "-", "--store", dir.path("none")]), status: 3, "not a store")
    }
}
