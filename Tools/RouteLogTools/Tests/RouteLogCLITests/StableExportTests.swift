import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import Testing

/// `export --redact-ids` (ids built from payloads do not leak, replays stay the same) and
/// `export`/`minimize --no-times` (the same events give the same bytes).
struct StableExportTests: InProcessSuite {
    let dir: TempDir

    /// A podcast app whose ids are built from payloads, as the README's `"episode-\(id)"` is:
    /// tabs, in-place updates, an empty id, a swipe, a deep-link reset, then generated events.
    static let leaky: [RecordedEvent] = {
        func route(_ id: String, _ payload: [String: JSONValue]? = nil) -> RouteRef {
            RouteRef(id: id, type: payload == nil ? nil : "AppRoute", payload: payload.map { RawJSON(.object($0)) })
        }
        var events: [Event] = [
            .setTabs(["library", "search"], selected: "search"),
            .push(route("show-atp", ["show": .string("ATP")])),
            .show(route("episode-303", ["id": .int(303), "rating": .double(4.5)]), style: .sheet),
            .show(route("episode-303", ["id": .int(303), "rating": .double(5)]), style: .sheet),   // in place
            .push(route("")),                                                                      // emptyRouteID
            .selectTab("library"),
            .selectTab("podcasts-of-7"),                                                           // unknownTab
            .push(route("show-atp", ["show": .string("ATP")])),
            .show(route("player-303"), style: .fullScreenCover, placement: .onTop),
            .interactiveDismiss(token: 99),                                                        // stale
            .reset(NavigationState(tabs: [Tab(id: "library", root: Frame(path: [route("episode-17", ["id": .int(17)])])),
                                          Tab(id: "search", root: Frame())], selectedTab: "search")),
            .selectTab("library"),
            .setTabs(["library", "library"]),                                                      // invalidTabs
        ]
        var g = SessionGenerator(seed: 77, mix: .realistic)
        events += g.events(150)
        return events.enumerated().map { i, e in RecordedEvent(e, meta: Sessions.at(Int64(i) * 250)) }
    }()

    static func directory() throws -> TempDir {
        let dir = try TempDir()
        try dir.writeSession("leaky.json", Self.leaky, label: "leaky")
        // The same steps recorded twice: other times, another session.
        try dir.writeSession("run1.json", Sessions.upsell, label: "upsell")
        try dir.writeSession("run2.json", Sessions.upsell.map { e in
            var e = e
            e.meta.timestamp += 86_400_000 + 17
            return e
        }, label: "upsell")
        return dir
    }

    /// The state with every id and payload blanked: what "the same shape" compares.
    static func shape(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let o):
            var out: [String: JSONValue] = [:]
            for (k, x) in o {
                switch k {
                case "id", "selectedTab": out[k] = x.stringValue.map { $0.isEmpty ? .string("") : .string("_") } ?? x
                case "payload": out[k] = .null
                default: out[k] = shape(x)
                }
            }
            return .object(out)
        case .array(let a): return .array(a.map(shape))
        default: return v
        }
    }

    @Test func redactedIDsReplayToTheSameOutcomesAndShape() async throws {
        let r = await run(["export", "$/leaky.json", "-o", "$/red.json", "--redact-ids"])
        #expect(r.status == 0 && r.stdout.contains("ids hashed"), "\(r)")
        let text = try dir.read("red.json")
        // No id, payload string or payload number of the original is left.
        for leaked in ["episode-303", "episode-17", "player-303", "show-atp", "podcasts-of-7", "\"library\"", "\"search\"", "ATP", ":303", "\"rating\":4.5"] {
            #expect(!text.contains(leaked), "\(leaked) leaked")
        }
        let redacted = try #require(try JSONValue(parsing: text)["events"]?.arrayValue).map { try RecordedEvent(json: $0) }
        #expect(redacted.count == Self.leaky.count)
        let original = replay(Self.leaky.map(\.event)), again = replay(redacted.map(\.event))
        #expect(again.steps.map(\.outcome) == original.steps.map(\.outcome), "the same outcomes")
        #expect(original.steps.contains { $0.outcome == .applied(.updatedInPlace) } && original.steps.contains { $0.outcome == .rejected(.unknownTab) })
        #expect(Self.shape(again.state.json) == Self.shape(original.state.json), "the same shape of state")
        // At every seq, not only the last.
        for n in stride(from: 1, through: Self.leaky.count, by: 7) {
            let a = replay(Self.leaky.prefix(n).map(\.event)).state, b = replay(redacted.prefix(n).map(\.event)).state
            #expect(Self.shape(b.json) == Self.shape(a.json), "shape at seq \(n)")
        }
        #expect(again.state.digest != original.state.digest, "ids are part of the digest: they did change")
        // One id, one hash, throughout the file; empty ids stay empty; numbers stay numbers.
        let pushed = redacted.compactMap { e -> RouteRef? in if case .push(let r, _) = e.event { r } else { nil } }
        #expect(pushed[0].id == pushed[2].id && pushed[0].id.hasPrefix("id-") && pushed[1].id.isEmpty)
        guard case .show(let sheet, _, _, _) = redacted[2].event, case .show(let inPlace, _, _, _) = redacted[3].event else {
            Issue.record("expected two shows"); return
        }
        #expect(sheet.id == inPlace.id)
        #expect(sheet.payload?.value["id"]?.intValue != nil && sheet.payload?.value["id"]?.intValue != 303, "an int stays an int")
        if case .double(let d)? = sheet.payload?.value["rating"] { #expect(d != 4.5 && d != d.rounded()) } else { Issue.record("a double stays a double") }
        #expect(try JSONValue(parsing: text)["description"]?.stringValue?.contains("Route and tab ids hashed.") == true)
        // Deterministic: the same input gives the same bytes.
        _ = await run(["export", "$/leaky.json", "-o", "$/red2.json", "--redact-ids", "--name", "red"])
        #expect(try dir.read("red2.json") == text)
        #expect(await run(["fixtures", "check", "$/red.json"]).status == 0)
        // --redact alone keeps ids (what a tester wants when the ids say nothing).
        _ = await run(["export", "$/leaky.json", "-o", "$/ids.json", "--redact"])
        #expect(try dir.read("ids.json").contains("episode-303"))
    }

    @Test func noTimesGivesTheSameBytesForTheSameEvents() async throws {
        let store = dir.path("st")
        for file in ["run1.json", "run2.json"] {
            // Imported without a header: each session gets its own id and creation time.
            #expect(await InProcess.run(["import", "--store", store, "$/\(file)"], in: dir).status == 0)
        }
        func export(_ ref: String, _ out: String, _ extra: [String] = []) async throws -> String {
            let r = await run(["export", ref, "--store", store, "-o", "$/\(out)", "--name", "upsell"] + extra)
            #expect(r.status == 0, "\(r)")
            return try dir.read(out)
        }
        let a = try await export("#1", "a.json", ["--no-times"]), b = try await export("#2", "b.json", ["--no-times"])
        #expect(a == b)
        #expect(!a.contains("\"time\"") && !a.contains("\"created\""), "\(a)")
        #expect(a.contains("Exported from session 'upsell'"), "\(a)")
        // Without it the two recordings differ (their times and ids), so the check above can fail.
        #expect(try await export("#1", "c.json") != (try await export("#2", "d.json")))
        // Events-jsonl rows are not fixtures: the flag is refused there.
        CLI.expectError(await run(["export", "#1", "--store", store, "--format", "events-jsonl", "--no-times", "-o", "-"]), status: 2, "--no-times")
    }

    @Test func minimizeWritesNoAbsolutePathsAndNoTimes() async throws {
        // The judge: bad when the upsell is on screen (git bisect run: exit 1 is bad).
        try dir.write("tools/judge.sh", "#!/bin/sh\nif grep -q '\"upsell\"'; then exit 1; fi\nexit 0\n")
        #expect(chmod(dir.path("tools/judge.sh"), 0o755) == 0)
        let judge = dir.path("tools/judge.sh")
        func minimize(_ file: String, _ out: String) async throws -> String {
            let r = await run(["minimize", "$/\(file)", "--run", judge, "-o", "$/\(out)", "--name", "upsell-min", "--no-times"])
            #expect(r.status == 0, "\(r)")
            return try dir.read(out)
        }
        let one = try await minimize("run1.json", "m1.json"), two = try await minimize("run2.json", "m2.json")
        let description = try #require(try JSONValue(parsing: one)["description"]?.stringValue)
        #expect(!description.contains(dir.url.path) && !one.contains(dir.url.path), "\(description)")
        #expect(description.contains("--run 'judge.sh'"), "\(description)")
        #expect(description.hasPrefix("Minimized from run1.json"), "\(description)")
        #expect(!one.contains("\"time\""), "\(one)")
        // The two recordings differ only in times and file names: with the file name in the description only.
        #expect(one.replacingOccurrences(of: "run1.json", with: "run2.json") == two)
    }
}
