import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// `bisect` and `minimize` against answers computed here by a plain linear scan, run in-process.
struct BisectMinimizeTests: UpsellSuite {
    let dir: TempDir

    /// The first seq whose state (after the event) satisfies `p`, by a linear fold.
    func firstSeq(_ events: [RecordedEvent], _ p: (NavigationState, Outcome) -> Bool) -> Int? {
        var r = Replayer()
        for e in events {
            let step = r.apply(e.event)
            if p(r.state, step.outcome) { return Int(step.seq) }
        }
        return nil
    }

    @Test func binaryOnAMonotonePredicateMatchesALinearScan() async throws {
        let events = Sessions.generated(seed: 11, count: 600, mix: .deepPath)
        try dir.writeSession("deep.json", events)
        for k in [1, 2, 37, 300, 599, 600] {
            let r = await run(["bisect", "$/deep.json", "--binary", "--predicate", "path.count >= \(k)", "--json"])
            #expect(r.status == 1, "found bad exits 1: \(r)")
            let v = try r.stdout.json()
            #expect(v["seq"]?.intValue == Int64(k), "k=\(k): \(r)")
            let m = try #require(v["materialized"]?.intValue)
            #expect(m >= 1 && m <= 11, "O(log N) states for N=600, got \(m)")
            #expect(v["mode"]?.stringValue == "binary")
        }
        let never = await run(["bisect", "$/deep.json", "--binary", "--predicate", "path.count > 600"])
        #expect(never.status == 0, "\(never)")
        #expect(never.stdout.hasPrefix("no bad end: --predicate 'path.count > 600' does not say bad at seq 600"), "\(never)")
        let none = await run(["bisect", "$/deep.json", "--predicate", "path.count > 600"])
        #expect(none.status == 0, "\(none)")
        #expect(none.stdout.hasPrefix("no bad seq: --predicate 'path.count > 600' says bad at no seq in 0...600"), "\(none)")
        #expect(none.stdout.hasSuffix("judged 601 seqs (linear)\n"), "\(none)")
    }

    /// The podcast bug report: the queue-actions dialog is on top from seq 6 until it is answered,
    /// so the predicate holds for a while and then stops. The default (linear) finds seq 6; a
    /// binary search sees a good end and says so instead of "never".
    @Test func aPredicateThatHoldsForAWhileIsFoundByDefault() async throws {
        let fixture = CLI.packageRoot.appendingPathComponent("Fixtures/exported-session-podcast-bug-report.json").path
        let predicate = #"top.id == "queueActions""#
        let text = await run(["bisect", fixture, "--predicate", predicate])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.hasPrefix("first bad seq: 6 of 21\nevent: show confirmationDialog queueActions onTop"), "\(text)")
        #expect(text.stdout.hasSuffix("judged 7 seqs (linear)\n"), "\(text)")
        let json = await run(["bisect", fixture, "--predicate", predicate, "--json"])
        #expect(json.status == 1, "\(json)")
        let v = try json.stdout.json()
        #expect(v["seq"]?.intValue == 6 && v["mode"]?.stringValue == "linear", "\(json)")
        #expect(v["event"]?["show"]?["route"]?["id"]?.stringValue == "queueActions", "\(json)")
        #expect(Set(v.objectValue?.keys.map { $0 } ?? []) == ["seq", "event", "outcome", "changes", "materialized", "folded", "evaluations", "mode", "undecided"],
                "the JSON keeps its shape: \(json)")
        // The queue dialog is gone by the end: binary search has no bad end to narrow from.
        let binary = await run(["bisect", fixture, "--predicate", predicate, "--binary"])
        #expect(binary.status == 0, "\(binary)")
        #expect(binary.stdout.hasPrefix("no bad end: --predicate 'top.id == \"queueActions\"' does not say bad at seq 21, the end of 0...21"), "\(binary)")
        #expect(!binary.stdout.contains("never"), "\(binary)")
        let binaryJSON = try await run(["bisect", fixture, "--predicate", predicate, "--binary", "--json"]).stdout.json()
        #expect(binaryJSON["seq"] == .null && binaryJSON["mode"]?.stringValue == "binary", "\(binaryJSON)")
        // A predicate that holds only at one seq (a rejection) is found too.
        let rejected = try await run(["bisect", fixture, "--predicate", #"outcome == "rejected""#, "--json"]).stdout.json()
        let want = try firstRejection(fixture)
        #expect(rejected["seq"]?.intValue == want, "\(rejected)")
        CLI.expectError(await run(["bisect", fixture, "--predicate", predicate, "--linear", "--binary"]), status: 2, "give either --linear or --binary")
    }

    /// The first rejected seq of a fixture, by a plain replay.
    func firstRejection(_ path: String) throws -> Int64? {
        let doc = try JSONValue(parsing: String(contentsOfFile: path, encoding: .utf8))
        let events = try (doc["events"]?.arrayValue ?? []).map { try RecordedEvent(json: $0) }
        return firstSeq(events) { _, o in !o.isApplied }.map(Int64.init)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func linearMatchesAScanOnRealisticSessions(seed: UInt64) async throws {
        let events = Sessions.generated(seed: seed, count: 400)
        try dir.writeSession("s\(seed).json", events)
        let predicates: [(String, (NavigationState, Outcome) -> Bool)] = [
            (#"top.id == "upsell" && outcome == "rejected""#, { s, o in s.presentationChainTop?.route.id == "upsell" && !o.isApplied }),
            (#"reason == "stale""#, { _, o in o.reason == .stale }),
            ("depth >= 2 && !top.dismissible", { s, _ in s.chainDepth >= 2 && s.presentationChainTop?.dismissible == false }),
            (#"path.ids contains "settings" || tab == "library""#, { s, _ in s.activePathIDs.contains("settings") || s.selectedTab == "library" }),
        ]
        for (text, p) in predicates {
            let r = await run(["bisect", "$/s\(seed).json", "--linear", "--predicate", text, "--json"])
            let want = firstSeq(events, p)
            let v = try r.stdout.json()
            #expect(v["seq"]?.intValue == want.map(Int64.init), "seed \(seed) \(text): \(r)")
            #expect(r.status == (want == nil ? 0 : 1), "seed \(seed) \(text)")
            if let want { #expect(v["evaluations"]?.intValue == Int64(want + 1), "seq 0 and 1...\(want) judged") }
            #expect(v["mode"]?.stringValue == "linear")
        }
    }

    @Test func textOutputShowsSeqEventDiffAndCount() async throws {
        let r = await run(["bisect", "$/upsell.json", "--linear", "--predicate", #"top.id == "upsell" && outcome == "rejected""#])
        #expect(r.status == 1, "\(r)")
        try Golden.check(r.stdout, "bisect-upsell.txt")
        let b = await run(["bisect", "$/upsell.json", "--binary", "--predicate", "path.count == 0 && depth == 2"])
        try Golden.check(b.stdout, "bisect-upsell-binary.txt")
    }

    @Test func runFollowsGitBisectRun() async throws {
        let events = Sessions.generated(seed: 3, count: 64, mix: .deepPath)
        try dir.writeSession("deep.json", events)
        // Bad from seq 17 on; the state JSON arrives on stdin.
        let r = await run(["bisect", "$/deep.json", "--json", "--run",
                         #"n=$(cat | grep -o '"type"' | wc -l); test "$ROUTELOG_SEQ" -lt 17 && test "$n" -lt 17"#])
        #expect(r.status == 1, "\(r)")
        #expect(try r.stdout.json()["seq"]?.intValue == 17, "\(r)")
        // 125 skips: with 18, 19 and 32 skipped the search still lands on 17.
        let skip = await run(["bisect", "$/deep.json", "--json", "--run",
                            #"case $ROUTELOG_SEQ in 18|19|32) exit 125;; esac; test "$ROUTELOG_SEQ" -lt 17"#])
        #expect(try skip.stdout.json()["seq"]?.intValue == 17, "\(skip)")
        // When the last good seq is skipped, the first bad one could be it or the next (git's answer too).
        let edge = await run(["bisect", "$/deep.json", "--json", "--run", #"test "$ROUTELOG_SEQ" -eq 16 && exit 125; test "$ROUTELOG_SEQ" -lt 17"#])
        #expect(try edge.stdout.json()["seq"]?.intValue == 17, "\(edge)")
        #expect(try edge.stdout.json()["undecided"]?.arrayValue?.compactMap(\.intValue) == [16], "\(edge)")
        // With every seq around the boundary skipped, the answer is the first bad seq judged and
        // the skipped seqs before it, any of which may be the real one.
        let amb = await run(["bisect", "$/deep.json", "--json", "--run",
                           #"s=$ROUTELOG_SEQ; if [ $s -ge 14 ] && [ $s -le 20 ]; then exit 125; fi; test $s -lt 17"#])
        #expect(amb.status == 1, "\(amb)")
        let ambJSON = try amb.stdout.json()
        #expect(ambJSON["seq"]?.intValue == 21, "\(amb)")
        #expect(ambJSON["undecided"]?.arrayValue?.compactMap(\.intValue) == Array(14...20), "\(amb)")
        // 128 and above abort with a usage error naming the seq.
        CLI.expectError(await run(["bisect", "$/deep.json", "--run", "exit 130"]), status: 2, "exited with 130 at seq 64")
    }

    @Test func minimizeFindsTheTwoEventsThatMatter() async throws {
        // Noise around the two events that reproduce the bug.
        var events: [RecordedEvent] = []
        for i in 0..<12 { events.append(RecordedEvent(.push(RouteRef(id: "screen-\(i)")), meta: Sessions.at(Int64(i) * 10))) }
        events.append(RecordedEvent(.pop(count: 3), meta: Sessions.at(200)))
        events.append(RecordedEvent(.show(RouteRef(id: "composer"), style: .sheet), meta: Sessions.at(210)))
        events.append(RecordedEvent(.show(RouteRef(id: "upsell"), style: .sheet, dismissible: false, placement: .onTop), meta: Sessions.at(220)))
        events.append(RecordedEvent(.push(RouteRef(id: "inside")), meta: Sessions.at(230)))
        events.append(RecordedEvent(.interactiveDismiss(), meta: Sessions.at(240, .user)))
        for i in 0..<5 { events.append(RecordedEvent(.push(RouteRef(id: "after-\(i)")), meta: Sessions.at(300 + Int64(i)))) }
        try dir.writeSession("noisy.json", events, label: "noisy")

        let r = await run(["minimize", "$/noisy.json", "--predicate", #"reason == "notDismissible""#, "-o", "$/min.json", "--json"])
        #expect(r.status == 0, "\(r)")
        let v = try r.stdout.json()
        #expect(v["originalSeqs"]?.arrayValue?.compactMap(\.intValue) == [15, 17], "\(r)")
        #expect(v["firstBadSeq"]?.intValue == 17)

        let text = try dir.read("min.json")
        let doc = try JSONValue(parsing: text)
        let kept = try #require(doc["events"]?.arrayValue).map { try RecordedEvent(json: $0) }
        #expect(kept.map(\.event) == [events[14].event, events[16].event])
        #expect(kept.map(\.meta) == [events[14].meta, events[16].meta], "metadata travels with the events")
        // 1-minimal: the list fails, and removing any single event makes it pass.
        func fails(_ list: [Event]) -> Bool { replay(list).steps.last?.outcome == .rejected(.notDismissible) }
        #expect(fails(kept.map(\.event)))
        for i in kept.indices {
            var fewer = kept.map(\.event)
            fewer.remove(at: i)
            #expect(!fails(fewer), "removing event \(i) still fails")
        }
        // The fixture's expect block agrees with a replay: fixtures check passes it.
        let check = await run(["fixtures", "check", "$/min.json"])
        #expect(check.status == 0 && check.stdout.hasSuffix("1 passed, 0 failed\n"), "\(check)")
        #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("    {") }.count == 2, "one event per line:\n\(text)")
    }

    @Test(arguments: [UInt64(7), 8, 9])
    func minimizeIsOneMinimalOnGeneratedSessions(seed: UInt64) async throws {
        let events = Sessions.generated(seed: seed, count: 150)
        try dir.writeSession("g\(seed).json", events)
        let predicate = #"depth >= 2"#
        let r = await run(["minimize", "$/g\(seed).json", "--predicate", predicate, "-o", "$/m\(seed).json", "--json"])
        guard firstSeq(events, { s, _ in s.chainDepth >= 2 }) != nil else {
            #expect(r.status == 1, "nothing to minimize: \(r)")
            return
        }
        #expect(r.status == 0, "\(r)")
        let kept = try #require(try JSONValue(parsing: dir.read("m\(seed).json"))["events"]?.arrayValue).map { try RecordedEvent(json: $0).event }
        func fails(_ list: [Event]) -> Bool { !list.isEmpty && replay(list).state.chainDepth >= 2 }
        #expect(fails(kept), "seed \(seed)")
        #expect(kept.count <= 2, "two shows (or one reset) are enough: \(kept)")
        for i in kept.indices {
            var fewer = kept
            fewer.remove(at: i)
            #expect(!fails(fewer), "seed \(seed): removing \(i) still fails")
        }
    }

    @Test func minimizeWithRun() async throws {
        let r = await run(["minimize", "$/upsell.json", "--run", #"grep -q '"upsell"'"# + "; test $? -ne 0", "-o", "$/run.json", "--json"])
        #expect(r.status == 0, "\(r)")
        #expect(try r.stdout.json()["kept"]?.intValue == 1, "one show of the upsell is enough: \(r)")
    }
}

extension NavigationState {
    var presentationChainTop: Presentation? {
        var f = root
        var top: Presentation?
        while let p = f.presented { top = p; guard let c = p.content else { break }; f = c }
        return top
    }

    var chainDepth: Int {
        var f = root
        var n = 0
        while let p = f.presented { n += 1; guard let c = p.content else { break }; f = c }
        return n
    }

    var activePathIDs: [String] {
        var f = root
        while let p = f.presented, let c = p.content { f = c }
        return f.path.map(\.id)
    }
}
