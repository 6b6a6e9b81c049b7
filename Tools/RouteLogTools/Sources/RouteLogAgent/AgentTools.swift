import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogSessions

/// The read-only questions an agent can ask of a store, answered as JSON: what `routelog mcp`
/// serves over the Model Context Protocol. The MCP server is a thin adapter over this type; every
/// answer is the object the CLI's `--json` prints (the same functions build it, called with the
/// tool's values: nothing is parsed as a command line, nothing printed and read back), every error
/// the CLI's one-line message, and no answer is larger than ``maxAnswerBytes`` (longer lists page
/// with a cursor).
///
/// The tools answer for their own store only: a session argument names a session of the store,
/// never a file, unless the server was started with a folder of fixtures to serve (then it may
/// name a file inside that folder). An agent reads session payloads, and a payload can carry text
/// that reads as instructions: the server must not be a way out of the store.
public final class AgentTools: @unchecked Sendable {
    /// The largest answer, in bytes of JSON; clients accept about 25,000 tokens. Half of the
    /// response budget (80 KB) with room to spare: the answer goes out twice, structured and as
    /// its JSON text (escaped inside a string, up to about 1.4 times longer).
    public static let maxAnswerBytes = 30_000

    let storePath: String
    let unredacted: Bool
    /// The folder of fixture and export files the tools may read, if any.
    let fixtures: String?
    /// One call at a time: the commands share the process's store environment.
    private let gate = Gate()

    /// A first-come, first-served lock for async callers.
    private actor Gate {
        private var busy = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func acquire() async {
            if !busy { busy = true; return }
            await withCheckedContinuation { waiters.append($0) }
        }

        func release() {
            if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
        }
    }

    /// - Parameters:
    ///   - storePath: the store (default: `$ROUTELOG_STORE`, else the platform's default).
    ///   - unredacted: `export` returns payloads as recorded (default: redacted).
    ///   - fixtures: a folder whose fixture and export files a session argument may name (by a
    ///     path relative to it, or inside it); without it, no file is read.
    public init(storePath: String?, unredacted: Bool = false, fixtures: String? = nil) {
        self.storePath = StoreAccess.path(storePath)
        self.unredacted = unredacted
        self.fixtures = fixtures
    }

    /// Where the tools read sessions: the store, and the fixtures folder if any.
    func workspace() -> Workspace {
        Workspace(storePath: storePath, files: fixtures.map { .inside($0) } ?? .none)
    }

    /// A tool's description, input schema and output schema (JSON Schema).
    public struct Spec: Sendable {
        public let name: String
        public let title: String
        public let description: String
        public let input: JSONValue
        public let output: JSONValue
    }

    /// An answer: structured JSON, and an error message when the call failed.
    public struct Answer: Sendable {
        public let structured: JSONValue
        public let error: String?
        /// The answer as text: the error, or the JSON.
        public var text: String { error ?? structured.canonicalText }
        /// The answer to a call that failed with `error`: a tool error whose text is its one line.
        static func failure(_ error: RouteLogError) -> Answer {
            Answer(structured: .object(["error": .string(error.message)]), error: error.message)
        }
    }

    // MARK: - Calls

    /// Calls tool `name` with `arguments`. Never throws: a bad argument or ref is an error answer.
    public func call(_ name: String, _ arguments: [String: JSONValue]) async -> Answer {
        guard let spec = Self.specs.first(where: { $0.name == name }) else {
            return .failure(.usage("unknown tool: \(printable(name)) (tools: \(Self.specs.map(\.name).joined(separator: ", ")))"))
        }
        do {
            let args = try Arguments(arguments, spec: spec)
            let value: JSONValue
            if name == "reproduce_crash" {
                value = try await reproduceCrash(args)
            } else {
                // Each tool's work runs on a thread of its own, never on the cooperative pool the
                // server reads and answers requests on.
                value = try await serialized { () throws(RouteLogError) -> JSONValue in
                    try await Self.onOwnThread { () throws(RouteLogError) -> SendableJSON in SendableJSON(try self.answer(name, args)) }.value
                }
            }
            let size = value.canonicalText.utf8.count
            if size > Self.maxAnswerBytes {
                return .failure(.usage("the answer is \(size / 1000) KB, over the \(Self.maxAnswerBytes / 1000) KB limit; ask for a smaller part (an earlier seq, a route id, a narrower ref)"))
            }
            return Answer(structured: value, error: nil)
        } catch {
            return .failure(error)
        }
    }

    /// `reproduce_crash`: the run is read under the store lock, and the shortest path (asked for
    /// with `shortest`) is searched after it, on a thread of its own, so the other tools answer
    /// meanwhile; the search is bounded by a count of events folded
    /// (``RouteLogCore/Reproduction/shortestBudget``).
    private func reproduceCrash(_ a: Arguments) async throws(RouteLogError) -> JSONValue {
        let ws = workspace()
        let (r, work) = try await serialized { () throws(RouteLogError) -> (RunReproduction, RunReproduction.ShortestWork?) in
            let s = try self.resolve(a, ws, seqKey: nil, whole: true)
            var r = try RunReproduction(s, run: try a.int("run"), name: nil, shortest: try a.bool("shortest") ?? false)
            return (r, r.takeShortestWork())
        }
        var reproduction = r
        if let work {
            let found = try await Self.onOwnThread { () throws(RouteLogError) -> Reproduction.ShortestPath? in
                try RouteLogSessions.call { try Reproduction.shortestPath(work.events, reaching: work.target) }
            }
            reproduction.setShortest(found)
        }
        let file = "\(reproduction.name).json"
        var o = reproduction.json
        o["fileName"] = .string(file)
        o["fixture"] = reproduction.fixture.json
        o["test"] = .string(reproduction.test(fixture: .folder("Fixtures"), routeType: nil, module: nil))
        o["shortest"] = reproduction.shortestFixture?.json ?? .null
        return .object(o)
    }

    /// A JSON value handed back from a tool's thread.
    private struct SendableJSON: @unchecked Sendable {
        let value: JSONValue
        init(_ value: JSONValue) { self.value = value }
    }

    /// Runs `body` on a new thread (8 MiB of stack, as the main thread has) and waits for it
    /// without holding a thread of the cooperative pool.
    static func onOwnThread<R: Sendable>(_ body: @escaping @Sendable () throws(RouteLogError) -> R) async throws(RouteLogError) -> R {
        let result: Result<R, RouteLogError> = await withCheckedContinuation { done in
            let thread = Thread {
                do throws(RouteLogError) { done.resume(returning: .success(try body())) } catch { done.resume(returning: .failure(error)) }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        return try result.get()
    }

    private func serialized<R>(_ body: () async throws(RouteLogError) -> R) async throws(RouteLogError) -> R {
        await gate.acquire()
        let result: Result<R, RouteLogError>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        await gate.release()
        return try result.get()
    }

    private func answer(_ name: String, _ a: Arguments) throws(RouteLogError) -> JSONValue {
        let ws = workspace()
        switch name {
        case "list_sessions":
            return page(key: "sessions", items: try ws.sessionsJSON().agentArray ?? [], cursor: try a.cursor(), extra: [:])
        case "get_events":
            return try events(a, ws)
        case "get_state":
            let s = try resolve(a, ws, seqKey: "seq")
            return try s.stateJSON(at: s.seqOrHead)
        case "diff":
            let (refA, refB) = (try a.string("a"), try a.string("b"))
            let states = try StateComparison(try ws.resolve(refA), refA, try ws.resolve(refB), refB)
            return .object(states.json(equal: states.stateA == states.stateB))
        case "blame":
            let s = try resolve(a, ws, seqKey: "seq")
            let (blame, names) = try BlameQuery.blame(s, at: s.seqOrHead)
            let items = BlameRender.elements(blame).map { BlameRender.json(blame[$0], events: names, at: blame.seq) }
            return page(key: "elements", items: items, cursor: try a.cursor(), extra: [
                "session": .string(s.id.rawValue), "seq": .int(Int64(blame.seq)), "digest": .string(blame.state.digest.hex),
            ])
        case "lifetimes":
            let s = try resolve(a, ws, seqKey: nil, whole: true)
            let route = try a.optionalString("route")
            let lifetimes = try BlameQuery.lifetimes(s)
            let items = lifetimes.all.filter { $0.isScreen && (route == nil || $0.routeID == route) }.map { BlameRender.json($0) }
            return page(key: "lifetimes", items: items, cursor: try a.cursor(), extra: [
                "session": .string(s.id.rawValue), "seq": .int(Int64(lifetimes.seq)), "rejectedCount": .int(Int64(lifetimes.rejected.count)),
            ])
        case "list_divergences":
            let s = try resolve(a, ws, seqKey: nil, whole: true)
            guard case .object(var o) = try Drift(s, context: try a.int("context") ?? 2).json else { throw RouteLogError(.internal, "drift built no object") }
            let items = o.removeValue(forKey: "divergences")?.agentArray ?? []
            return page(key: "divergences", items: items, cursor: try a.cursor(), extra: o)
        case "bisect":
            let (judge, s) = try judged(a, ws)
            let result = try RouteLogSessions.call { try Bisect.run(in: s.log, session: s.id, through: s.seqOrHead, mode: .linear, verdict: judge.judge) }
            return SessionJSON.bisect(result)
        case "minimize":
            return try minimize(a, ws)
        case "verify":
            let targets: [ResolvedSession]
            if let ref = try a.optionalString("session") { targets = [try ws.resolve(ref)] } else { targets = try ws.resolve([], all: true) }
            var items: [JSONValue] = []
            for s in targets { items.append(try RouteLogSessions.call { try SessionVerifier.verify(s, reducer: SessionVerifier.currentReducer).json }) }
            return page(key: "sessions", items: items, cursor: try a.cursor(), extra: [:])
        case "export":
            let s = try resolve(a, ws, seqKey: nil)
            let doc = try s.fixture(name: nil, redact: !unredacted, redactIDs: false, noTimes: false)
            guard case .object(var fixture) = doc.json else { throw RouteLogError(.internal, "export built no fixture") }
            let events = fixture.removeValue(forKey: "events")?.agentArray ?? []
            return page(key: "events", items: events, cursor: try a.cursor(), extra: [
                "fixture": .object(fixture), "redacted": .bool(!unredacted),
            ])
        default:
            throw .usage("unknown tool: \(name)")
        }
    }

    // MARK: - Paging

    /// `items` from `cursor` (an offset), as many as fit the answer budget; `next` names the rest.
    func page(key: String, items: [JSONValue], cursor: Int, extra: [String: JSONValue]) -> JSONValue {
        var out = extra
        out["total"] = .int(Int64(items.count))
        var size = JSONValue.object(out).canonicalText.utf8.count + key.utf8.count + 64
        var taken: [JSONValue] = []
        var i = min(cursor, items.count)
        while i < items.count {
            let n = items[i].canonicalText.utf8.count + 1
            if size + n > Self.maxAnswerBytes, !taken.isEmpty { break }
            size += n
            taken.append(items[i])
            i += 1
        }
        out[key] = .array(taken)
        out["next"] = i < items.count ? .string(String(i)) : .null
        return .object(out)
    }

    // MARK: - Sessions

    /// The session the `session` argument names, at the seq `seqKey` names (or `@N`); `whole`
    /// refuses `@N` (a tool that covers the whole session).
    func resolve(_ a: Arguments, _ ws: Workspace, seqKey: String?, whole: Bool = false) throws(RouteLogError) -> ResolvedSession {
        var ref = try SessionRef(parsing: try a.string("session"))
        if let seqKey, let seq = try a.int(seqKey) {
            if let at = ref.seq, at != UInt64(seq) { throw .usage("\(seqKey) \(seq) contradicts \(printableName(ref.text))") }
            ref.seq = UInt64(seq)
        }
        if whole, ref.seq != nil { throw .usage("this tool covers the whole session: give the session without @N") }
        return try ws.resolve(ref)
    }

    /// The judge of the `predicate` argument and the session it judges (which must have events),
    /// as `bisect` and `minimize` start. A tool judges with a predicate only, never a command.
    func judged(_ a: Arguments, _ ws: Workspace) throws(RouteLogError) -> (Judge, ResolvedSession) {
        let judge = try Judge(predicate: try a.string("predicate"), run: nil)
        let s = try resolve(a, ws, seqKey: nil)
        try s.requireEvents()
        return (judge, s)
    }

    // MARK: - Events

    /// Events from `from` (or the cursor), filtered by origin, outcome and route id, at most `limit`,
    /// within the answer budget. Scans at most 50,000 events per call; `next` continues.
    func events(_ a: Arguments, _ ws: Workspace) throws(RouteLogError) -> JSONValue {
        let s = try resolve(a, ws, seqKey: nil, whole: false)
        let start = UInt64(try a.cursor(default: try a.int("from") ?? 1))
        let limit = try a.int("limit") ?? 100
        guard (1...1000).contains(limit) else { throw .usage("limit out of range: \(limit) (1...1000)") }
        let origin = try a.optionalString("origin")
        if let origin, Origin(rawValue: origin) == nil { throw .usage("unknown origin: \(printable(origin)) (\(Origin.allCases.map(\.rawValue).joined(separator: ", ")))") }
        let outcome = try a.optionalString("outcome")
        if let outcome, outcome != "applied" && outcome != "rejected" { throw .usage("unknown outcome: \(printable(outcome)) (applied, rejected)") }
        let route = try a.optionalString("route")
        var items: [JSONValue] = []
        var size = 256
        var next: UInt64? = nil
        var scanned = 0
        let last = s.info.eventCount
        if start <= last {
            // Each event as `routelog log --json` prints it (with the state after it, its run…).
            var lines = try LogLines(s, from: max(1, start))
            try RouteLogSessions.call {
                try s.log.read(s.id, from: max(1, start), through: last) { e in
                    if items.count == limit || scanned == 50_000 { next = e.seq; return false }
                    scanned += 1
                    lines.fold(e)
                    if let origin, e.meta.origin.rawValue != origin { return true }
                    if let outcome, (outcome == "applied") != e.outcome.isApplied { return true }
                    if let route, !Self.routeIDs(e.event).contains(route) { return true }
                    let item = lines.line(e)
                    let n = item.canonicalText.utf8.count + 1
                    if size + n > Self.maxAnswerBytes, !items.isEmpty { next = e.seq; return false }
                    size += n
                    items.append(item)
                    return true
                }
            }
        }
        return .object([
            "session": .string(s.id.rawValue), "total": .int(Int64(last)), "events": .array(items),
            "next": next.map { .string(String($0)) } ?? .null,
        ])
    }

    static func routeIDs(_ e: Event) -> [String] {
        switch e {
        case .push(let r, _), .show(let r, _, _, _): [r.id]
        case .reset(let s): s.allRouteIDs
        default: []
        }
    }

    // MARK: - Minimize

    func minimize(_ a: Arguments, _ ws: Workspace) throws(RouteLogError) -> JSONValue {
        let name = try a.optionalString("name") ?? "minimized"
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw .usage("name must be letters, digits, - and _: \(printableName(name))")
        }
        let (judge, s) = try judged(a, ws)
        let result = try Minimized(s, judge: judge, name: name, noTimes: false)
        let fileName = "\(name).json"
        return .object([
            "summary": result.json(file: fileName), "fixture": result.fixture.json, "fileName": .string(fileName),
            "test": .string(Self.test(name: name, predicate: try a.string("predicate"))),
        ])
    }

    /// A Swift Testing test that replays the minimized fixture.
    static func test(name: String, predicate: String) -> String {
        let ident = SwiftSource.identifier(name, prefix: "replay")
        return """
        import RouteLogTesting
        import Testing

        /// Regression: the smallest session for which `\(SwiftSource.comment(predicate))` holds.
        /// Save the fixture as Fixtures/\(SwiftSource.comment(name)).json in the package.
        @Test func \(ident)Replays() {
            expectReplay(fixture: \(SwiftSource.literal("Fixtures/\(name).json")))
        }

        """
    }
}
