import Foundation
@testable import RouteLogAgent
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// Issue 39, third round, item 7: `repro --shortest` and `reproduce_crash` with shortest are
/// bounded, and the MCP tools answer while one searches.
struct ShortestPathBoundTests: InProcessSuite {
    let dir: TempDir

    /// A store holding one session of `events` recorded by one run; returns its id and the state
    /// after its last event. The store is closed when it returns.
    func store(_ events: [Event]) throws -> (path: String, id: String, state: NavigationState) {
        let path = dir.path("st")
        let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
        let id = try log.createSession(NewSession(label: "long", appName: "Pods", appVersion: "1.0")).id
        let journal = try log.beginRun(of: id, head: 0, RunStart(appVersion: "1.0", build: "1"))
        try log.append(events.map { RecordedEvent($0, meta: EventMetadata()) }, to: id, expectedSeq: 0)
        journal.close(allCommitted: true)
        return (path, id.rawValue, try log.state(of: id, at: UInt64(events.count)))
    }

    /// Two tabs, each pushed onto in turn: no state comes back, every push is needed and most
    /// tab switches are not (a long search for ddmin).
    static func tabs(_ count: Int) -> [Event] {
        [.setTabs(["a", "b"], selected: "a")] + (0..<count).flatMap { i -> [Event] in
            [.selectTab("a"), .push(RouteRef(id: "a\(i)")), .selectTab("b"), .push(RouteRef(id: "b\(i)"))]
        }
    }

    @Test(.timeLimit(.minutes(10))) func shortestOfTenThousandPushesFinishes() async throws {
        let events = (0..<10_000).map { Event.push(RouteRef(id: "screen-\($0)")) }
        let (path, id, state) = try store(events)
        let out = dir.path("out")
        let r = await run(["repro", id, "--run", "1", "--store", path, "-o", out, "--shortest", "--json", "--name", "pushes"])
        try #require(r.status == 0, "\(r)")
        let summary = try JSONValue(parsing: r.stdout)
        #expect(summary["shortestEvents"] == .int(10_000) && summary["shortestComplete"] == .bool(true), "\(r.stdout)")
        let shortest = try Fixture(contentsOf: out + "/pushes-shortest.json")
        #expect(ScreenLayout(replay(shortest.events.map(\.event)).state) == ScreenLayout(state))
    }

    @Test(.timeLimit(.minutes(10))) func loopsAreCutInOnePass() async throws {
        // 3,000 detours (a push and its pop, a sheet and its dismiss) around 10 needed pushes.
        var events: [Event] = []
        for i in 0..<3_000 {
            if i % 300 == 0 { events.append(.push(RouteRef(id: "keep-\(i / 300)"))) }
            events += i % 2 == 0 ? [.push(RouteRef(id: "detour")), .pop()] : [.show(RouteRef(id: "sheet"), style: .sheet), .dismiss()]
        }
        let (path, id, state) = try store(events)
        let r = await run(["repro", id, "--run", "1", "--store", path, "-o", dir.path("out"), "--shortest", "--json", "--name", "loops"])
        try #require(r.status == 0, "\(r)")
        #expect(try JSONValue(parsing: r.stdout)["shortestEvents"] == .int(10), "\(r.stdout)")
        let shortest = try Fixture(contentsOf: dir.path("out/loops-shortest.json"))
        #expect(ScreenLayout(replay(shortest.events.map(\.event)).state) == ScreenLayout(state))
    }

    @Test(.timeLimit(.minutes(10))) func toolsAnswerWhileReproduceCrashSearches() async throws {
        // 1,001 events: a search that folds millions of events (its answer, a fixture of 1,001
        // events, is then refused as too large for an agent; what counts here is that it ends,
        // and that the other tools answer meanwhile).
        let (path, id, _) = try store(Self.tabs(250))
        let tools = AgentTools(storePath: path)
        let finished = Flag()
        let search = Task {
            let answer = await tools.call("reproduce_crash", ["session": .string(id), "run": .int(1), "shortest": .bool(true)])
            finished.set()
            return answer
        }
        // Let the search start, then ask for the sessions: they come back while it runs.
        try await Task.sleep(for: .seconds(1))
        let list = await tools.call("list_sessions", [:])
        let searchWasRunning = !finished.isSet
        #expect(list.error == nil, "\(list.text)")
        #expect(searchWasRunning, "list_sessions waited for reproduce_crash")
        let answer = await search.value
        #expect(answer.error == nil || answer.error!.contains("over the 30 KB limit"), "\(answer.text)")
    }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension ShortestPathBoundTests {
    /// `routelog mcp` runs in the store's watch, like every reading command (routelog-mcp beats the
    /// heartbeat itself, see Tests/MCP's `outlives_the_store_watch`); `serve` does not.
    @Test func theMCPServerIsWatchedAndServeIsNot() throws {
        let (path, _, _) = try store([.push(RouteRef(id: "a"))])
        #expect(StoreContainment.storeRead(by: ["mcp", "--store", path], environment: [:]) == path)
        #expect(StoreContainment.storeRead(by: ["serve", "--store", path], environment: [:]) == nil)
        #expect(StoreContainment.storeRead(by: ["log", "latest", "--store", path], environment: [:]) == path)
    }
}
