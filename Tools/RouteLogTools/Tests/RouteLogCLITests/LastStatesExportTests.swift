import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// `routelog export --format last-states`: one line per session with its last state, the corpus
/// of RouteLogTesting's restore gate.
struct LastStatesExportTests: UpsellSuite {
    let dir: TempDir

    /// A store of two sessions: one recorded by 1.0 and continued by a run of 1.1, one by 2.0
    /// without runs; with the states after seq 25 of the first, 30 and 10 of the second (the
    /// store is closed when it returns).
    func store() throws -> (path: String, ids: [SessionID], states: [NavigationState]) {
        let path = dir.path("st")
        let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
        let a = try log.createSession(NewSession(label: "a", appName: "Pods", appVersion: "1.0")).id
        try log.append(Sessions.generated(seed: 1, count: 20), to: a, expectedSeq: 0)
        let journal = try log.beginRun(of: a, head: 20, RunStart(appVersion: "1.1", build: "9"))
        try log.append(Sessions.generated(seed: 2, count: 5), to: a, expectedSeq: 20)
        journal.close(allCommitted: true)
        let b = try log.createSession(NewSession(label: "b", appName: "Pods", appVersion: "2.0")).id
        try log.append(Sessions.generated(seed: 3, count: 30), to: b, expectedSeq: 0)
        return (path, [a, b], [try log.state(of: a, at: 25), try log.state(of: b, at: 30), try log.state(of: b, at: 10)])
    }

    @Test func everySessionOfAStoreRoundTrips() async throws {
        let (path, ids, states) = try store()
        let out = dir.path("last-states.jsonl")
        let r = await run(["export", "--format", "last-states", "--all", "-o", out, "--store", path])
        #expect(r.status == 0 && r.stdout == "exported the last states of 2 sessions to last-states.jsonl\n", "\(r)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).jsonObjectLines()
        try #require(lines.count == 2)
        for line in lines { #expect(line.keys.sorted() == LastStates.keys) }
        #expect(lines.map { $0["session"]?.stringValue } == ids.map(\.rawValue))
        #expect(lines.map { $0["app"]?.stringValue } == ["Pods", "Pods"])
        // The run that wrote the last event names the version; the session's is what migrations see.
        #expect(lines.map { $0["app_version"]?.stringValue } == ["1.1", "2.0"])
        #expect(lines.map { $0["session_app_version"]?.stringValue } == ["1.0", "2.0"])
        #expect(lines.map { $0["seq"]?.intValue } == [25, 30])
        for (line, expected) in zip(lines, states) {
            let state = try NavigationState(json: try #require(line["state"]))
            #expect(state == expected && state.json == line["state"])
            #expect(line["digest"]?.stringValue == expected.digest.hex)
        }
    }

    @Test func refsAFileAndStdout() async throws {
        let (path, ids, states) = try store()
        let r = await run(["export", "--format", "last-states", "latest@10", "$/upsell.json", "-o", "-", "--store", path])
        #expect(r.status == 0, "\(r)")
        let lines = try r.stdout.jsonObjectLines()
        try #require(lines.count == 2)
        let at10 = states[2]
        #expect(lines[0] == [
            "session": .string(ids[1].rawValue), "label": .string("b"), "app": .string("Pods"), "app_version": .string("2.0"),
            "session_app_version": .string("2.0"), "seq": .int(10), "digest": .string(at10.digest.hex), "state": at10.json,
        ])
        // A fixture without a session header: named by its file, no app or version.
        let upsell = replay(Sessions.upsell.map(\.event)).state
        #expect(lines[1] == [
            "session": .string("upsell.json"), "label": .null, "app": .null, "app_version": .null, "session_app_version": .null,
            "seq": .int(Int64(Sessions.upsell.count)), "digest": .string(upsell.digest.hex), "state": upsell.json,
        ])
    }

    @Test func badCombinationsAreUsageErrors() async throws {
        CLI.expectError(await run(["export", "--format", "last-states", "-o", "-"]), status: 2, "give at least one SESSION, or --all")
        CLI.expectError(await run(["export", "--format", "last-states", "--all", "$/upsell.json", "-o", "-"]), status: 2, "not both")
        CLI.expectError(await run(["export", "--format", "last-states", "--redact", "$/upsell.json", "-o", "-"]), status: 2, "--redact")
        CLI.expectError(await run(["export", "--all", "-o", "-"]), status: 2, "--all needs --format events-jsonl or last-states")
    }
}
