import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogSessions
@_spi(Tools) import RouteLogTimeline
import Testing

@Suite struct SessionJSONTests {
    @Test func summaryMatchesTheLogLine() {
        var r = Replayer()
        r.apply(.setTabs(["home", "library"]))
        r.apply(.push(RouteRef(id: "episode-42")))
        r.apply(.show(RouteRef(id: "player"), style: .sheet))
        r.apply(.push(RouteRef(id: "queue")))
        #expect(SessionJSON.summary(r.state) == "[home] episode-42 ┃ sheet player#3 ▸ queue")
    }

    /// The page's run marks: run starts after the first, and each crashed run's last event. The
    /// page reads the runs as `runList` holds them (one set of keys: `appVersion`).
    @Test func runMarksCarryStartsAndCrashes() throws {
        let runs = [
            RunInfo(number: 1, firstSeq: 1, startedAt: 0, appVersion: "1.0", build: "7", end: .crashed(recovered: 3, lastSeq: 12)),
            RunInfo(number: 2, firstSeq: 13, startedAt: 1, appVersion: "1.1", end: .open),
        ]
        let json = SessionJSON.runs(runs)
        guard case .array(let items) = json, items.count == 2, case .object(let first) = items[0], case .object(let second) = items[1] else {
            Issue.record("not two run objects: \(json)")
            return
        }
        #expect(first["end"] == .string("crashed") && first["lastSeq"] == .int(12) && first["recovered"] == .int(3))
        #expect(second["firstSeq"] == .int(13) && second["appVersion"] == .string("1.1") && second["lastSeq"] == nil)
        let page = Timeline.build(header: .init(session: "s", label: "l", eventCount: 0, headDigest: ""), events: [StoredEvent]()).html(extra: ["runs": json])
        #expect(page.contains("function drawRunMarks"))
        #expect(page.contains("\"lastSeq\":12"))
        #expect(page.contains("r.appVersion"), "the page reads the run's app version by the key runList gives it")
    }

    /// The table of JSON fields in the tools' manual (`Docs/JSON.md`) names exactly the keys these
    /// objects have (every optional key present): a key added, renamed or dropped fails here until
    /// the table says so.
    @Test func theManualsTableNamesEveryKey() throws {
        let manual = try String(contentsOfFile: Self.packageRoot + "/Tools/RouteLogTools/Docs/JSON.md", encoding: .utf8)
        var documented: [String: Set<String>] = [:]
        var inTable = false
        for line in manual.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| object | key |") { inTable = true; continue }
            guard inTable else { continue }
            guard line.hasPrefix("|") else { if !documented.isEmpty { break } else { continue } }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
            documented[cells[1], default: []].insert(cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")))
        }
        let run = RunInfo(number: 1, firstSeq: 1, startedAt: 1, appVersion: "1.0", build: "7", end: .crashed(recovered: 1, lastSeq: 2))
        let info = SessionInfo(id: SessionID.v7(milliseconds: 1, random: (1, 2)), label: "l", appName: "App", appVersion: "1.0", createdAt: 1,
                               eventCount: 2, lastEventAt: 5, entryOrder: 1, enteredAt: 1)
        var r = Replayer()
        let event = RecordedEvent(.push(RouteRef(id: "a")), meta: EventMetadata(timestamp: 5, origin: .user, callSite: CallSite(file: "A.swift", line: 3), note: "n"))
        let step = r.apply(event.event)
        let stored = StoredEvent(seq: step.seq, recorded: event, outcome: step.outcome, digest: step.digest)
        let divergence = Divergence(kind: .depthMismatch, screen: .presentation(token: 1, routeID: "a"), seq: 1, cause: .removedWithoutWrite,
                                    visibleDepth: 2, stateDepth: 1, detectedAt: 6)
        let record = ScreenRecord(.diverged(divergence), headSeq: 1, time: 6)
        let line = SessionJSON.logLine(stored, state: r.state)
        // A screen's keys depend on its kind: the table names those of every kind.
        var screen: [String: JSONValue] = [:]
        for s in [ScreenID.presentation(token: 1, routeID: "a"), .stackEntry(frame: .root, index: 0, routeID: "a", tab: "t"), .tabRoot("t")] {
            if case .object(let o) = s.json { screen.merge(o) { a, _ in a } }
        }
        let objects: [String: JSONValue] = [
            "`sessions`": SessionJSON.session(info, prefix: "0", runs: [run]),
            "`runList`": SessionJSON.run(run),
            "`log`": SessionJSON.logLine(stored, state: r.state, run: 1, recovered: true, divergences: [SessionJSON.divergence(record, divergence)]),
            "`state`": SessionJSON.state(r.state, seq: 1),
            "`divergence`": SessionJSON.divergence(record, divergence, before: [line], after: []),
            "`screen`": .object(screen),
            "`drift`": SessionJSON.drift(session: info.id, status: "diverged", summary: "1 divergence in 1 screen record", screenRecords: 1,
                                         context: 2, divergences: [SessionJSON.divergence(record, divergence, before: [line], after: [])]),
        ]
        #expect(Set(documented.keys) == Set(objects.keys), "documented objects: \(documented.keys.sorted())")
        for (name, value) in objects {
            guard case .object(let o) = value else { Issue.record("\(name) is not an object"); continue }
            #expect(documented[name] == Set(o.keys), "\(name): documented \(documented[name]?.sorted() ?? []), JSON \(o.keys.sorted())")
        }
    }

    /// The repository (this file is Tools/RouteLogTools/Tests/RouteLogSessionsTests/…).
    static let packageRoot = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../..").standardized.path
}
