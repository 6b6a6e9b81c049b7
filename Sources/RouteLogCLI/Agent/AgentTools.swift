import Foundation
import RouteLogCore

/// The read-only questions an agent can ask of a store, answered as JSON: what `routelog mcp`
/// serves over the Model Context Protocol. The MCP server is a thin adapter over this type; every
/// answer is the CLI's own (`--json` output or the same renderings), every error the CLI's one-line
/// message, and no answer is larger than ``maxAnswerBytes`` (longer lists page with a cursor).
public final class AgentTools: @unchecked Sendable {
    /// The largest answer, in bytes of JSON; clients accept about 25,000 tokens. Half of the
    /// response budget (80 KB) with room to spare: the answer goes out twice, structured and as
    /// its JSON text (escaped inside a string, up to about 1.4 times longer).
    public static let maxAnswerBytes = 30_000

    let storePath: String
    let unredacted: Bool
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

    public init(storePath: String?, unredacted: Bool = false) {
        self.storePath = defaultStorePath(storePath)
        self.unredacted = unredacted
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
        static func failure(_ message: String) -> Answer { Answer(structured: .object(["error": .string(message)]), error: message) }
    }

    // MARK: - Calls

    /// Calls tool `name` with `arguments`. Never throws: a bad argument or ref is an error answer.
    public func call(_ name: String, _ arguments: [String: JSONValue]) async -> Answer {
        guard let spec = Self.specs.first(where: { $0.name == name }) else {
            return .failure("unknown tool: \(printable(name)) (tools: \(Self.specs.map(\.name).joined(separator: ", ")))")
        }
        do {
            let args = try Arguments(arguments, spec: spec)
            let value = try await serialized { () async throws(CLIError) -> JSONValue in try await self.answer(name, args) }
            let size = value.canonicalText.utf8.count
            if size > Self.maxAnswerBytes {
                return .failure("the answer is \(size / 1000) KB, over the \(Self.maxAnswerBytes / 1000) KB limit; ask for a smaller part (an earlier seq, a route id, a narrower ref)")
            }
            return Answer(structured: value, error: nil)
        } catch {
            return .failure(error.message)
        }
    }

    private func serialized<R>(_ body: () async throws(CLIError) -> R) async throws(CLIError) -> R {
        await gate.acquire()
        let result: Result<R, CLIError>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        await gate.release()
        return try result.get()
    }

    private func answer(_ name: String, _ a: Arguments) async throws(CLIError) -> JSONValue {
        switch name {
        case "list_sessions":
            let sessions = try await runJSON(["sessions", "--json"])
            return page(key: "sessions", items: sessions.agentArray ?? [], cursor: try a.cursor(), extra: [:])
        case "get_events":
            return try events(a)
        case "get_state":
            var args = ["state", try a.string("session"), "--json"]
            if let seq = try a.int("seq") { args += ["--at", String(seq)] }
            return try await runJSON(args)
        case "diff":
            return try await runJSON(["diff", try a.string("a"), try a.string("b"), "--json"], okCodes: [0, 1])
        case "blame":
            let s = try resolve(a, seqKey: "seq")
            let (blame, names) = try BlameQuery.blame(s, at: s.seqOrHead)
            let items = BlameRender.elements(blame).map { BlameRender.json(blame[$0], events: names, at: blame.seq) }
            return page(key: "elements", items: items, cursor: try a.cursor(), extra: [
                "session": .string(s.id.rawValue), "seq": .int(Int64(blame.seq)), "digest": .string(blame.state.digest.hex),
            ])
        case "lifetimes":
            let s = try resolve(a, seqKey: nil)
            let route = try a.optionalString("route")
            let lifetimes = try BlameQuery.lifetimes(s)
            let items = lifetimes.all.filter { $0.isScreen && (route == nil || $0.routeID == route) }.map { BlameRender.json($0) }
            return page(key: "lifetimes", items: items, cursor: try a.cursor(), extra: [
                "session": .string(s.id.rawValue), "seq": .int(Int64(lifetimes.seq)), "rejectedCount": .int(Int64(lifetimes.rejected.count)),
            ])
        case "bisect":
            return try await runJSON(["bisect", try a.string("session"), "--predicate", try a.string("predicate"), "--json"], okCodes: [0, 1])
        case "minimize":
            return try await minimize(a)
        case "verify":
            let ref = try a.optionalString("session")
            let lines = try await runLines(["verify", "--json"] + (ref.map { [$0] } ?? ["--all"]), okCodes: [0, 1])
            return page(key: "sessions", items: lines, cursor: try a.cursor(), extra: [:])
        case "export":
            var args = ["export", try a.string("session"), "-o", "-"]
            if !unredacted { args.append("--redact") }
            guard case .object(var fixture) = try await runJSON(args) else { throw .data("export printed no fixture") }
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

    // MARK: - Running commands in-process

    /// Runs `routelog ARGS --store DIR` in this process, capturing its output; a failure's
    /// one-line message (without the `routelog: ` prefix) becomes the error.
    func run(_ args: [String], okCodes: Set<Int32> = [0]) async throws(CLIError) -> String {
        let console = Console()
        let status = await Console.$capture.withValue(console) {
            await RouteLogCommand.execute(args + ["--store", storePath])
        }
        guard okCodes.contains(status) else {
            var message = console.stderr.split(separator: "\n").first.map(String.init) ?? "routelog exited with status \(status)"
            if message.hasPrefix("routelog: ") { message.removeFirst("routelog: ".count) }
            throw CLIError(message, code: status)
        }
        return console.stdout
    }

    func runJSON(_ args: [String], okCodes: Set<Int32> = [0]) async throws(CLIError) -> JSONValue {
        let text = try await run(args, okCodes: okCodes)
        do { return try JSONValue(parsing: text) } catch { throw .data("routelog \(args[0]) printed no JSON") }
    }

    func runLines(_ args: [String], okCodes: Set<Int32> = [0]) async throws(CLIError) -> [JSONValue] {
        let text = try await run(args, okCodes: okCodes)
        var out: [JSONValue] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            do { out.append(try JSONValue(parsing: String(line))) } catch { throw .data("routelog \(args[0]) printed a line that is not JSON") }
        }
        return out
    }

    func resolve(_ a: Arguments, seqKey: String?) throws(CLIError) -> ResolvedSession {
        var ref = try parseRef(try a.string("session"))
        if let seqKey, let seq = try a.int(seqKey) {
            if let at = ref.seq, at != UInt64(seq) { throw .usage("\(seqKey) \(seq) contradicts \(ref.text)") }
            ref.seq = UInt64(seq)
        }
        if seqKey == nil, ref.seq != nil { throw .usage("lifetimes covers the whole session: give the session without @N") }
        return try Workspace(storePath: storePath).resolve(ref)
    }

    // MARK: - Events

    /// Events from `from` (or the cursor), filtered by origin, outcome and route id, at most `limit`,
    /// within the answer budget. Scans at most 50,000 events per call; `next` continues.
    func events(_ a: Arguments) throws(CLIError) -> JSONValue {
        let s = try resolve(a, seqKey: nil)
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
            try RouteLogCLI.call {
                try s.log.read(s.id, from: max(1, start), through: last) { e in
                    if items.count == limit || scanned == 50_000 { next = e.seq; return false }
                    scanned += 1
                    if let origin, e.meta.origin.rawValue != origin { return true }
                    if let outcome, (outcome == "applied") != e.outcome.isApplied { return true }
                    if let route, !Self.routeIDs(e.event).contains(route) { return true }
                    let item = Self.eventJSON(e)
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

    static func eventJSON(_ e: StoredEvent) -> JSONValue {
        var o: [String: JSONValue] = [
            "seq": .int(Int64(e.seq)), "kind": .string(e.event.kind.rawValue), "event": .string(Render.event(e.event)),
            "outcome": .string(e.outcome.description), "origin": .string(e.meta.origin.rawValue),
        ]
        if e.meta.timestamp != 0 { o["time"] = .string(ISO8601.format(milliseconds: e.meta.timestamp)) }
        if let note = e.meta.note { o["note"] = .string(note) }
        if let site = e.meta.callSite { o["site"] = .string("\(site.file):\(site.line)") }
        return .object(o)
    }

    // MARK: - Minimize

    func minimize(_ a: Arguments) async throws(CLIError) -> JSONValue {
        let session = try a.string("session"), predicate = try a.string("predicate")
        let name = try a.optionalString("name") ?? "minimized"
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw .usage("name must be letters, digits, - and _: \(printable(name))")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-mcp-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            throw .data("cannot create a temporary directory: \(error)")
        }
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("\(name).json").path
        let summary = try await runJSON(["minimize", session, "--predicate", predicate, "-o", file, "--name", name, "--json"], okCodes: [0, 1])
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            return .object(["summary": summary, "fixture": .null, "test": .null])
        }
        let fixture: JSONValue
        do { fixture = try JSONValue(parsing: text) } catch { throw .data("minimize wrote a fixture that is not JSON") }
        return .object(["summary": summary, "fixture": fixture, "fileName": .string("\(name).json"), "test": .string(Self.test(name: name, predicate: predicate))])
    }

    /// A Swift Testing test that replays the minimized fixture.
    static func test(name: String, predicate: String) -> String {
        let ident = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).enumerated()
            .map { i, w in i == 0 ? w.lowercased() : w.prefix(1).uppercased() + w.dropFirst().lowercased() }.joined()
        let comment = predicate.replacingOccurrences(of: "\n", with: " ")
        return """
        import RouteLogTesting
        import Testing

        /// Regression: the smallest session for which `\(comment)` holds.
        /// Save the fixture as Fixtures/\(name).json in the package.
        @Test func \(ident.first?.isLetter == true ? ident : "replay" + ident)Replays() {
            expectReplay(fixture: "Fixtures/\(name).json")
        }

        """
    }
}

extension NavigationState {
    /// Every route id in the state (paths and presentations, every tab).
    var allRouteIDs: [String] {
        var out: [String] = []
        for t in tabs ?? [Tab(id: "", root: root)] {
            var frame: Frame? = t.root
            while let f = frame {
                out += f.path.map(\.id)
                if let p = f.presented { out.append(p.route.id) }
                frame = f.presented?.content
            }
        }
        return out
    }
}

extension JSONValue {
    var agentArray: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
}


/// A tool call's arguments, checked against the tool's input schema's properties.
struct Arguments {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue], spec: AgentTools.Spec) throws(CLIError) {
        guard case .object(let schema) = spec.input, case .object(let props)? = schema["properties"] else { self.values = values; return }
        for key in JSONValue.sortedKeys(values.keys) where props[key] == nil {
            throw .usage("unknown argument \(printable(key)) for \(spec.name) (arguments: \(JSONValue.sortedKeys(props.keys).joined(separator: ", ")))")
        }
        if case .array(let required)? = schema["required"] {
            for case .string(let r) in required where values[r] == nil || values[r] == .null { throw .usage("\(spec.name) needs \(r)") }
        }
        self.values = values
    }

    func string(_ key: String) throws(CLIError) -> String {
        guard let v = try optionalString(key) else { throw .usage("missing argument: \(key)") }
        return v
    }

    func optionalString(_ key: String) throws(CLIError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw .usage("\(key) must be a string")
        }
    }

    func int(_ key: String) throws(CLIError) -> Int? {
        switch values[key] {
        case nil, .null?: return nil
        case .int(let i)?:
            guard i >= 0, i <= Int64(Int.max) else { throw .usage("\(key) out of range: \(i)") }
            return Int(i)
        case .double(let d)? where d >= 0 && d < 9e18 && d.rounded() == d: return Int(d)
        default: throw .usage("\(key) must be a non-negative integer")
        }
    }

    /// The `cursor` argument: an offset (or seq) from an earlier answer's `next`.
    func cursor(default value: Int = 0) throws(CLIError) -> Int {
        guard let c = try optionalString("cursor") else { return value }
        guard let n = Int(c), n >= 0 else { throw .usage("bad cursor: \(printable(c)) (pass an answer's next as is)") }
        return n
    }
}
