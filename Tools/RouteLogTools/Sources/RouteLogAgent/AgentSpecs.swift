@_spi(Tools) import RouteLogCore
import RouteLogSessions

/// The tools' schemas, the resources and the prompts of ``AgentTools``.
extension AgentTools {
    // MARK: - Schema helpers

    private static func obj(_ props: [String: JSONValue], required: [String] = []) -> JSONValue {
        .object(["type": .string("object"), "properties": .object(props), "required": .array(required.map { .string($0) })])
    }
    private static func str(_ d: String) -> JSONValue { .object(["type": .string("string"), "description": .string(d)]) }
    private static func int(_ d: String) -> JSONValue { .object(["type": .string("integer"), "minimum": .int(0), "description": .string(d)]) }
    private static func any(_ d: String) -> JSONValue { .object(["description": .string(d)]) }
    private static func list(_ items: JSONValue, _ d: String) -> JSONValue { .object(["type": .string("array"), "items": items, "description": .string(d)]) }
    private static let next: JSONValue = .object(["type": .array([.string("string"), .string("null")]), "description": .string("pass as cursor for the next page; null on the last")])
    private static let total = int("how many items there are in all")

    static let sessionArg = str("a session of the store: an id or unique prefix, latest, latest~N or #N (REF@N where a seq is meant); a fixture file's name only when the server serves a fixtures folder")
    static let cursorArg = str("the next of an earlier answer, to read the next page")

    static let lifetime = obj([
        "kind": str("entry (a route on a stack), presentation, tab or selection"), "id": str("route id (tab id for tabs)"),
        "tab": str("the tab, when the state has tabs"), "frame": str("root or #TOKEN: the frame it lives in"),
        "depth": int("presentations between the root and its frame"), "index": int("position on its stack"),
        "style": str("presentation style"), "token": int("presentation token"), "placement": str("the show's placement"),
        "start": int("seq that put it there"), "createdBy": str("that event's kind"), "put": int("seq of its present form (last in-place update)"),
        "updates": list(.object(["type": .string("integer")]), "seqs of in-place updates"),
        "end": .object(["type": .array([.string("integer"), .string("null")]), "description": .string("seq that removed it, or null")]),
        "endedBy": .object(["type": .array([.string("string"), .string("null")])]), "putEvent": str("the putting event, short"), "endEvent": str("the removing event, short"),
    ], required: ["kind", "id", "start", "put", "end", "updates"])

    static let specs: [Spec] = [
        Spec(name: "list_sessions", title: "List sessions",
             description: "The store's sessions, oldest first, as `routelog sessions --json` prints them: id, prefix, label, events, app, appVersion, times, runs.",
             input: obj(["cursor": cursorArg]),
             output: obj(["sessions": list(obj(["id": str("session id"), "events": int("event count")], required: ["id", "events"]), "sessions"),
                          "total": total, "next": next], required: ["sessions", "total", "next"])),
        Spec(name: "get_events", title: "Read events",
             description: "A page of a session's events from a seq, optionally only those of an origin (app, user, system, deepLink), an outcome (applied, rejected) or a route id. Each as `routelog log --json` prints it: seq, event, outcome, digest, origin, summary (the state after it in one line), time, site, note, run, recovered.",
             input: obj(["session": sessionArg, "from": int("first seq (default 1)"), "limit": int("most events to return (1...1000, default 100)"),
                         "origin": str("app, user, system or deepLink"), "outcome": str("applied or rejected"), "route": str("only events naming this route id"),
                         "cursor": cursorArg], required: ["session"]),
             output: obj(["session": str("session id"), "total": int("events in the session"),
                          "events": list(obj(["seq": int("seq"), "event": any("the event as canonical JSON"), "outcome": any("applied, or the rejection and its reason"),
                                              "digest": str("the state digest after it"), "origin": str("origin"), "summary": str("the state after it, in one line"),
                                              "note": any("the event's note (a restore's dropped routes), or null")],
                                             required: ["seq", "event", "outcome", "digest", "origin", "summary"]), "events"),
                          "next": next], required: ["session", "total", "events", "next"])),
        Spec(name: "get_state", title: "State at a seq",
             description: "The navigation state after seq N (REF@N or seq; default the last), as `routelog state --json` prints it: {seq, digest, state}.",
             input: obj(["session": sessionArg, "seq": int("the seq (0: before any event)")], required: ["session"]),
             output: obj(["seq": int("seq"), "digest": str("state digest"), "state": any("the state as canonical JSON")], required: ["seq", "digest", "state"])),
        Spec(name: "diff", title: "Diff two states",
             description: "What differs between two states (refs such as latest@3 and latest@9, or two sessions), as `routelog diff A B --json` prints it.",
             input: obj(["a": sessionArg, "b": sessionArg], required: ["a", "b"]),
             output: .object(["type": .string("object"), "description": .string("routelog diff --json")])),
        Spec(name: "blame", title: "What put each screen here",
             description: "Each element of the state at a seq (default the last) with the seq and event that put it there in its present form and the seq and event that later removed it, if any, like git blame.",
             input: obj(["session": sessionArg, "seq": int("the seq to blame (default: the last)"), "cursor": cursorArg], required: ["session"]),
             output: obj(["session": str("session id"), "seq": int("blamed seq"), "digest": str("state digest"), "elements": list(lifetime, "in tree order"),
                          "total": total, "next": next], required: ["session", "seq", "elements", "total", "next"])),
        Spec(name: "lifetimes", title: "Screen lifetimes",
             description: "Every screen of a session (routes pushed on a stack, presentations) from the seq it appeared to the seq it went away, with its place, style and in-place updates; optionally only one route id.",
             input: obj(["session": sessionArg, "route": str("only screens with this route id"), "cursor": cursorArg], required: ["session"]),
             output: obj(["session": str("session id"), "seq": int("last seq"), "rejectedCount": int("rejected events"), "lifetimes": list(lifetime, "in order of appearance"),
                          "total": total, "next": next], required: ["session", "seq", "lifetimes", "total", "next"])),
        Spec(name: "list_divergences", title: "Where the screens and the state disagreed",
             description: "What the user saw: the divergences the app's navigator found between its screens (as they reported themselves) and its state (notOnScreen, stillOnScreen, unknownScreen, depthMismatch, with the likely cause), each with the events before and after it, as `routelog drift --json` prints it. status says whether the screens diverged, agreed, or never reported (unreported).",
             input: obj(["session": sessionArg, "context": int("events before and after each divergence (0...100, default 2)"), "cursor": cursorArg], required: ["session"]),
             output: obj(["session": str("session id"), "status": str("diverged, agreed or unreported"), "summary": str("the summary line"),
                          "screenRecords": int("screen records of the session"), "context": int("events before and after each"),
                          "divergences": list(obj(["seq": int("the seq it concerns"), "kind": str("notOnScreen, stillOnScreen, unknownScreen or depthMismatch"),
                                                   "screen": any("the screen: screen (its description), kind, routeID…"),
                                                   "cause": .object(["type": .array([.string("string"), .string("null")]), "description": .string("likely cause, or null")]),
                                                   "headSeq": int("the event it came after"), "time": str("when it was found"), "text": str("one line"),
                                                   "before": list(.object(["type": .string("object")]), "events up to headSeq, as get_events gives them"),
                                                   "after": list(.object(["type": .string("object")]), "events after headSeq")],
                                                  required: ["seq", "kind", "screen", "headSeq", "before", "after"]), "divergences"),
                          "total": total, "next": next], required: ["session", "status", "summary", "screenRecords", "divergences", "total", "next"])),
        Spec(name: "bisect", title: "First seq where a predicate holds",
             description: "The first seq whose state (and event) makes the predicate true, e.g. count(chain, id == \"checkout\") >= 2, as `routelog bisect --predicate P --json` prints it. See the predicate language in `routelog help predicates`.",
             input: obj(["session": sessionArg, "predicate": str("a predicate: top.id == \"upsell\" && outcome == \"rejected\"")], required: ["session", "predicate"]),
             output: obj(["seq": .object(["type": .array([.string("integer"), .string("null")])]), "mode": str("linear or binary")], required: ["seq"])),
        Spec(name: "minimize", title: "Smallest failing session",
             description: "The smallest subsequence of the session's events for which the predicate still holds at the end: the fixture JSON, and a Swift Testing test that replays it with expectReplay.",
             input: obj(["session": sessionArg, "predicate": str("the failure's predicate"), "name": str("the fixture's name (letters, digits, - and _)")], required: ["session", "predicate"]),
             output: obj(["summary": any("routelog minimize --json"), "fixture": any("the fixture JSON, or null"), "fileName": str("where to save the fixture"),
                          "test": .object(["type": .array([.string("string"), .string("null")]), "description": .string("Swift Testing test source")])], required: ["summary", "fixture", "test"])),
        Spec(name: "reproduce_crash", title: "Reproduce a crashed run",
             description: "A run of the session (default: its last crashed run) as a regression fixture (events that rebuild the state the run started from, then the run's own events) and a Swift Testing test that replays it and states the screens the run ended on, as `routelog repro` writes them; with shortest, also the fewest of the session's events from its start that reach the same screens.",
             input: obj(["session": sessionArg, "run": int("the run's number (default: the last crashed run)"),
                         "shortest": .object(["type": .string("boolean"), "description": .string("also the shortest path to the same screens")])], required: ["session"]),
             output: obj(["session": str("session id"), "run": any("the run: number, end, appVersion, build, firstSeq…"), "lastSeq": int("the run's last seq"),
                          "screens": str("what was on screen when the run ended"), "fixture": any("the fixture JSON"),
                          "fileName": str("the fixture's file name: the test finds it as Fixtures/<fileName>, in a Fixtures folder in the test file's directory or one above it"),
                          "test": str("Swift Testing test source"), "shortest": any("the shortest path's fixture, or null")],
                         required: ["session", "run", "lastSeq", "screens", "fixture", "fileName", "test"])),
        Spec(name: "verify", title: "Verify sessions",
             description: "Replays a session (or every session) and checks each stored outcome and digest and the store's checksums, as `routelog verify --json` prints it.",
             input: obj(["session": sessionArg, "cursor": cursorArg]),
             output: obj(["sessions": list(.object(["type": .string("object")]), "one result per session"), "total": total, "next": next], required: ["sessions", "total", "next"])),
        Spec(name: "export", title: "Export a session",
             description: "The session as a fixture (header and events), paged by events; payloads redacted to stable hashes unless the server was started with --unredacted.",
             input: obj(["session": sessionArg, "cursor": cursorArg], required: ["session"]),
             output: obj(["fixture": any("the fixture without its events"), "events": list(.object(["type": .string("object")]), "this page's events"),
                          "redacted": .object(["type": .string("boolean")]), "total": total, "next": next], required: ["fixture", "events", "redacted", "total", "next"])),
    ]

    // MARK: - Resources

    /// The resources: the session list, and per session its events and its state at a seq.
    public static let resourceTemplates: [(uri: String, name: String, description: String)] = [
        ("routelog://sessions/{id}/events", "events", "The first page of a session's events (get_events pages further)."),
        ("routelog://sessions/{id}/state/{seq}", "state", "A session's state after seq N."),
    ]

    /// Reads a resource: `routelog://sessions`, `routelog://sessions/ID/events`, `routelog://sessions/ID/state/N`.
    public func read(uri: String) async -> Answer {
        let prefix = "routelog://sessions"
        guard uri.hasPrefix(prefix) else { return .failure(.usage("unknown resource: \(printable(uri)) (routelog://sessions…)")) }
        let tail = uri.dropFirst(prefix.count)
        if tail.isEmpty { return await call("list_sessions", [:]) }
        let rest = tail.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch rest.count {
        case 3 where rest[0].isEmpty && rest[2] == "events": return await call("get_events", ["session": .string(rest[1])])
        case 4 where rest[0].isEmpty && rest[2] == "state":
            guard let seq = Int64(rest[3]), seq >= 0 else { return .failure(.usage("bad seq in \(printable(uri))")) }
            return await call("get_state", ["session": .string(rest[1]), "seq": .int(seq)])
        default: return .failure(.usage("unknown resource: \(printable(uri)) (routelog://sessions, routelog://sessions/ID/events, routelog://sessions/ID/state/N)"))
        }
    }

    // MARK: - Prompts

    public struct Prompt: Sendable {
        public let name: String
        public let description: String
        public let arguments: [(name: String, description: String, required: Bool)]
    }

    public static let prompts: [Prompt] = [
        Prompt(name: "diagnose_navigation_bug", description: "Find which event put a wrong screen on screen, and why.",
               arguments: [("session", "the session (id, prefix or latest)", true), ("symptom", "what looks wrong, in words", false)]),
        Prompt(name: "write_regression_test", description: "Turn a navigation bug into a minimized fixture and a Swift Testing test.",
               arguments: [("session", "the session (id, prefix or latest)", true), ("predicate", "a predicate that holds when the bug shows", true)]),
    ]

    /// The prompt's text for `arguments`, or an error message.
    public static func prompt(_ name: String, _ arguments: [String: String]) -> Result<String, PromptError> {
        guard let p = prompts.first(where: { $0.name == name }) else { return .failure(PromptError(message: "unknown prompt: \(printable(name))")) }
        for a in p.arguments where a.required && (arguments[a.name] ?? "").isEmpty {
            return .failure(PromptError(message: "\(name) needs \(a.name)"))
        }
        let session = arguments["session"] ?? "latest"
        switch name {
        case "diagnose_navigation_bug":
            let symptom = arguments["symptom"].map { " The symptom: \($0)." } ?? ""
            return .success("""
            Diagnose a navigation bug in RouteLog session \(session).\(symptom)
            1. Call blame on the session (at the seq where it looks wrong) to see which event put each screen there and which removed it.
            2. Call get_events around those seqs (filter by route id, origin or outcome=rejected) to read what the app, the user and the system did.
            3. Call lifetimes with the route id to see every time that screen appeared and went away, and which updates kept it in place.
            4. Express the bug as a predicate (e.g. count(chain, id == "checkout") >= 2) and call bisect to find the first seq where it holds.
            5. If the state looks right but the user saw something else, call list_divergences: where the screens (as they reported themselves) and the state disagreed, with the likely cause.
            Answer with the seq and event that caused it, who caused it (origin), and the reducer rule involved.
            """)
        default:
            let predicate = arguments["predicate"] ?? ""
            return .success("""
            Write a regression test for the navigation bug in RouteLog session \(session), marked by the predicate: \(predicate)
            1. Call bisect with the predicate to confirm it holds and find the first seq.
            2. Call minimize with the predicate: it returns the smallest fixture and a Swift Testing test that replays it with expectReplay.
            3. Save the fixture under Fixtures/ with the returned file name and add the test to the app's test target.
            """)
        }
    }

    public struct PromptError: Error, Sendable { public let message: String }

    /// The tools' specs (for the adapter).
    public static var tools: [Spec] { specs }
}
