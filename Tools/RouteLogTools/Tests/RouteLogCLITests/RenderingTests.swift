import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import Testing

/// Text renderings against golden files, and the JSON forms against the core's canonical JSON, run in-process.
struct RenderingTests: InProcessSuite {
    let dir: TempDir

    static func directory() throws -> TempDir {
        try .withUpsell(adding: "tabs.json", [
            RecordedEvent(.setTabs(["home", "search", "library"], selected: "home"), meta: Sessions.at(0)),
            RecordedEvent(.push(RouteRef(id: "episode-7")), meta: Sessions.at(500, .user)),
            RecordedEvent(.selectTab("search"), meta: Sessions.at(900, .user)),
            RecordedEvent(.show(RouteRef(id: "filters"), style: .popover), meta: Sessions.at(1_300, .user)),
            RecordedEvent(.show(RouteRef(id: "confirm"), style: .alert, placement: .onTop), meta: Sessions.at(1_400)),
            RecordedEvent(.push(RouteRef(id: "blocked")), meta: Sessions.at(1_500)),
            RecordedEvent(.selectTab("nope"), meta: Sessions.at(1_600, .user)),
        ], label: "tabs")
    }

    @Test func logText() async throws {
        let r = await run(["log", "$/upsell.json"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        try Golden.check(r.stdout, "log-upsell.txt")
        #expect(r.stdout.split(separator: "\n").count == Sessions.upsell.count)
        #expect(r.stdout.contains("rejected:notDismissible") && r.stdout.contains("rejected:stale"))
        #expect(!r.stdout.contains("\u{1B}["), "no colors without a terminal")
    }

    /// Long event texts (`show confirmationDialog queueActions onTop`, 41 characters) size the
    /// event column: every outcome starts in the same column, and an updated-in-place show is
    /// spelled as the library spells it.
    @Test func logColumnsStayAlignedWithLongEventTexts() async throws {
        var events = Sessions.upsell
        events.append(RecordedEvent(.show(RouteRef(id: "queueActions", type: "DialogRoute"), style: .confirmationDialog, placement: .onTop),
                                    meta: Sessions.at(11_000, site: "PlayerView.swift:120")))
        events.append(RecordedEvent(.show(RouteRef(id: "queueActions", type: "DialogRoute"), style: .confirmationDialog, placement: .onTop),
                                    meta: Sessions.at(11_500, site: "SomeRatherLongFileNameForAView.swift:1200")))
        try dir.writeSession("long.json", events)
        let r = await run(["log", "$/long.json"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == events.count)
        let outcomes = ["applied", "rejected:"]
        func column(_ line: String) -> Int? {
            outcomes.compactMap { o in line.range(of: "  " + o).map { line.distance(from: line.startIndex, to: $0.lowerBound) } }.min()
        }
        let columns = Set(lines.compactMap(column))
        #expect(columns.count == 1 && lines.allSatisfy { column($0) != nil }, "one outcome column:\n\(r.stdout)")
        #expect(lines[events.count - 2].contains("show confirmationDialog queueActions onTop  applied "), "\(r.stdout)")
        #expect(lines[events.count - 1].contains("applied:updatedInPlace"), "\(r.stdout)")
        #expect(!r.stdout.contains("updated in place"))
        // A column that would be wider than its limit is cut with an ellipsis, not pushed right.
        let narrow = LogPrinter.maxSiteWidth
        #expect(Render.truncate(String(repeating: "x", count: narrow + 5), narrow) == String(repeating: "x", count: narrow - 1) + "…")
    }

    @Test func logRange() async throws {
        let r = await run(["log", "$/upsell.json", "--from", "5", "--to", "6"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        // Relative times stay relative to the session's first event, whatever --from is.
        #expect(lines.first?.contains("+5.000s") == true, "\(r)")
        #expect(lines.last?.contains("+7.100s") == true, "\(r)")
        let r2 = await run(["log", "$/upsell.json@3"])
        #expect(r2.stdout.split(separator: "\n").count == 3, "\(r2)")
    }

    @Test func logJSONLinesAreCanonical() async throws {
        let r = await run(["log", "$/upsell.json", "--json"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == Sessions.upsell.count)
        let steps = replay(Sessions.upsell.map(\.event)).steps
        for (i, line) in lines.enumerated() {
            let v = try line.json()
            #expect(v.canonicalText == line, "canonical: \(line)")
            #expect(v["seq"]?.intValue == Int64(i + 1))
            #expect(v["event"] == Sessions.upsell[i].event.json)
            #expect(v["outcome"]?.stringValue == steps[i].outcome.description)
            #expect(v["digest"]?.stringValue == steps[i].digest.hex)
        }
    }

    @Test func stateTreeText() async throws {
        let r = await run(["state", "$/upsell.json", "--at", "5"])
        #expect(r.status == 0, "\(r)")
        try Golden.check(r.stdout, "state-upsell-5.txt")
        let tabs = await run(["state", "$/tabs.json"])
        #expect(tabs.status == 0, "\(tabs)")
        try Golden.check(tabs.stdout, "state-tabs.txt")
    }

    @Test func stateJSONIsSeqDigestState() async throws {
        for seq in 0...Sessions.upsell.count {
            let r = await run(["state", "$/upsell.json@\(seq)", "--json"])
            #expect(r.status == 0, "\(r)")
            let expected = replay(Sessions.upsell.prefix(seq).map(\.event)).state
            let want = JSONValue.object(["seq": .int(Int64(seq)), "digest": .string(expected.digest.hex), "state": expected.json]).canonicalText
            #expect(r.stdout == want + "\n", "seq \(seq)")
        }
    }

    @Test func summaryLine() async throws {
        let r = await run(["log", "$/upsell.json", "--from", "4", "--to", "4"])
        #expect(r.stdout.contains("inbox ▸ thread-42 ┃ sheet composer#3 ▸ attachments"), "\(r)")
        let t = await run(["log", "$/tabs.json", "--json"])
        let last = try #require(t.stdout.split(separator: "\n").last).description
        #expect(try last.json()["summary"]?.stringValue == "[search] root ┃ popover filters#4 ┃ alert confirm#5")
    }

    @Test func diffAdjacentSeqs() async throws {
        let r = await run(["diff", "$/upsell.json@4", "$/upsell.json@5"])
        #expect(r.status == 1, "different exits 1: \(r)")
        try Golden.check(r.stdout, "diff-upsell-4-5.txt")
        let same = await run(["diff", "$/upsell.json@6", "$/upsell.json@5"])
        #expect(same.status == 0, "a rejected event changes nothing: \(same)")
        #expect(same.stdout.contains("states are equal"))
    }

    /// `diff REF` shows what the event at REF's seq changed, like `git show`: the same changes
    /// as REF@N-1 against REF@N, after a line naming the event.
    @Test func diffWithOneRefShowsTheEventsChange() async throws {
        let r = await run(["diff", "$/upsell.json@5"])
        #expect(r.status == 1, "\(r)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "seq 5 of 10: show sheet upsell undismissible onTop  (app, Paywall.swift:7)  applied", "\(r)")
        let two = await run(["diff", "$/upsell.json@4", "$/upsell.json@5"])
        #expect(Array(lines.dropFirst(3)) == Array(two.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropFirst(2)),
                "the same diff as @4 against @5:\n\(r.stdout)\n\(two.stdout)")
        let json = try await run(["diff", "$/upsell.json@5", "--json"]).stdout.json()
        let pair = try await run(["diff", "$/upsell.json@4", "$/upsell.json@5", "--json"]).stdout.json()
        #expect(json["changes"] == pair["changes"] && json["seq"]?.intValue == 5 && json["outcome"]?.stringValue == "applied")
        // A rejected event changes nothing; the head is the default seq.
        let rejected = await run(["diff", "$/upsell.json@6"])
        #expect(rejected.status == 0 && rejected.stdout.contains("rejected:notDismissible") && rejected.stdout.contains("states are equal"), "\(rejected)")
        let head = await run(["diff", "$/upsell.json"])
        #expect(head.stdout.hasPrefix("seq 10 of 10: "), "\(head)")
        CLI.expectError(await run(["diff", "$/upsell.json@0"]), status: 2, "is seq 0, before any event")
        CLI.expectError(await run(["diff", "$/upsell.json@5", "--events"]), status: 2, "--events compares two refs")
    }

    @Test func diffJSONChanges() async throws {
        let r = await run(["diff", "$/upsell.json@6", "$/upsell.json@7", "--json"])
        #expect(r.status == 1, "\(r)")
        let v = try r.stdout.json()
        #expect(v["equal"] == .bool(false))
        let paths = v["changes"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
        #expect(paths == ["presented#3.presented"], "the upsell sheet went away: \(paths)")
        #expect(v["a"]?["seq"]?.intValue == 6 && v["b"]?["seq"]?.intValue == 7)
    }

    @Test func diffEventsNamesTheFirstDivergentSeq() async throws {
        var other = Sessions.upsell
        other[5] = RecordedEvent(.dismiss(.top), meta: other[5].meta)
        try dir.writeSession("fixed.json", other, label: "fixed")
        let r = await run(["diff", "$/upsell.json", "$/fixed.json", "--events"])
        #expect(r.status == 1, "\(r)")
        try Golden.check(r.stdout, "diff-events.txt")
        let j = await run(["diff", "$/upsell.json", "$/fixed.json", "--events", "--json"])
        #expect(try j.stdout.json()["events"]?["firstDivergence"]?.intValue == 6, "\(j)")
        let same = await run(["diff", "$/upsell.json", "$/upsell.json", "--events"])
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout.contains("events: identical"))
    }
}
