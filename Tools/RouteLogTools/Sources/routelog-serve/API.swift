import Foundation
import Hummingbird
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogSessions
@_spi(Tools) import RouteLogTimeline

/// The pages and the JSON API. Every handler answers errors itself, as one line with the status
/// of their cause (an unknown session 404, a bad parameter 400, a busy store 503, a damaged one
/// 500: see `HTTPError.init(_:)`), never a crash.
struct API: Sendable {
    let store: StoreHandle
    var storePath: String { store.path }
    let streams: Streams
    let stopping: Stopping
    /// The longest wait between two polls of the store for a stream.
    static let pollInterval: Duration = .milliseconds(150)
    /// The most events one API response or stream message carries.
    static let maxBatch: UInt64 = 5_000
    /// The shortest wait between two counts of a stream's screen records.
    static let screensInterval: Duration = .milliseconds(500)

    func router(names: AllowedNames) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: HostGuard(names: names))
        router.get("/") { _, _ in await self.guarded { try self.sessionsPage() } }
        router.get("/sessions/{ref}") { _, context in await self.guarded { try self.viewerPage(context) } }
        router.get("/api/sessions") { _, _ in await self.guarded { try self.sessions() } }
        router.get("/api/sessions/{ref}") { _, context in
            await self.guarded {
                let ws = try self.workspace()
                return Self.json(try ws.sessionJSON(try self.session(context, in: ws)))
            }
        }
        // Reading and folding many events runs on the work threads (see `Work`).
        router.get("/api/sessions/{ref}/events") { request, context in
            await self.guarded { try await Work.run { try self.events(request, context) } }
        }
        router.get("/api/sessions/{ref}/state") { request, context in
            await self.guarded { try await Work.run { try self.state(request, context) } }
        }
        router.get("/api/sessions/{ref}/stream") { request, context in await self.guarded { try await self.stream(request, context) } }
        router.get("/api/sessions/{ref}/lanes") { _, context in
            await self.guarded { try await Work.run { try self.lanes(context) } }
        }
        router.get("/api/sessions/{ref}/screens") { _, context in
            await self.guarded { try await Work.run { try self.screens(context) } }
        }
        return router
    }

    // MARK: - Errors

    /// Answers `body`'s errors as ``RouteLogError``s (the API's own are too): the CLI's words (one
    /// line), with the HTTP status of their cause (see `HTTPError.init(_:)`).
    func guarded(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let e as HTTPError {
            return Self.error(e)
        } catch {
            return Self.error(HTTPError(RouteLogError.from(error)))
        }
    }

    /// `error` as the API answers it: `{"error", "status"}`, with its headers (`Retry-After`).
    static func error(_ error: HTTPError) -> Response {
        let body = JSONValue.object(["error": .string(oneLine(error.body ?? "")), "status": .int(Int64(error.status.code))]).canonicalText + "\n"
        var answer = Self.response(body, type: "application/json; charset=utf-8", status: error.status)
        answer.headers.append(contentsOf: error.headers)
        return answer
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response { Self.error(HTTPError(status, message: message)) }

    static func response(_ body: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: type, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    static func json(_ value: JSONValue) -> Response {
        response(value.canonicalText + "\n", type: "application/json; charset=utf-8")
    }

    // MARK: - Sessions and parameters

    /// The sessions the server reads: the store as it is now (reopened when replaced), no files.
    func workspace() throws -> Workspace {
        Workspace(storePath: storePath, log: try store.log(), files: .none)
    }

    /// Resolves `{ref}` as the CLI resolves a session reference (an id, a unique prefix, `latest`,
    /// `latest~N`, `#N`), never as a file.
    func session(_ context: BasicRequestContext, in ws: Workspace) throws -> ResolvedSession {
        guard let raw = context.parameters.get("ref"), !raw.isEmpty else { throw RouteLogError.usage("missing session") }
        // `#N` comes percent-encoded (`%23N`): `#` would end the path.
        return try ws.resolve(raw.removingPercentEncoding ?? raw)
    }

    /// The session `{ref}` names (see ``session(_:in:)``).
    func resolve(_ context: BasicRequestContext) throws -> SessionInfo { try session(context, in: try workspace()).info }

    /// A non-negative integer query parameter: decimal digits only, read as an unsigned 64-bit
    /// value (anything else, or a value past 2^64 - 1, is a 400).
    static func seqParameter(_ request: Request, _ name: String) throws -> UInt64? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let n = UInt64(text) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw RouteLogError.usage("bad \(name): '\(shown)' (expected a whole number from 0 to 18446744073709551615)")
        }
        return n
    }

    /// A seq or count as a JSON number (JSON numbers here are signed 64-bit: larger values are clamped).
    static func number(_ n: UInt64) -> JSONValue { .int(Int64(clamping: n)) }

    // MARK: - JSON API

    func sessions() throws -> Response {
        Self.json(try workspace().sessionsJSON())
    }

    /// `GET /api/sessions/{ref}/events?from=N&limit=M`: the events from seq N (default 1), as
    /// `routelog log --json` prints them, at most `limit` (default and maximum 5000) per response;
    /// `count` is the number returned, `total` the session's number of events.
    func events(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        // One session, read from the log it was resolved in (the store may be replaced meanwhile).
        let s = try session(context, in: try workspace())
        let info = s.info
        let from = try Self.seqParameter(request, "from") ?? 1
        if from == 0 { throw RouteLogError.usage("bad from: 0 (seqs start at 1)") }
        if from > info.eventCount + 1 {
            throw RouteLogError.usage("from out of range: \(from) (session \(info.id) has \(info.eventCount) events)")
        }
        let limit = min(try Self.seqParameter(request, "limit") ?? Self.maxBatch, Self.maxBatch)
        if limit == 0 { throw RouteLogError.usage("bad limit: 0") }
        var lines: [JSONValue] = []
        var last = from - 1
        if from <= info.eventCount {
            // As `log --json`: the state after each event, its run, and the events shown from a
            // crashed app's journal.
            var folder = try LogLines(s, from: from)
            let through = min(info.eventCount, from + limit - 1)
            try s.log.read(info.id, from: from, through: through) { e in
                lines.append(folder.next(e))
                last = e.seq
                return true
            }
        }
        return Self.json(.object([
            "session": .string(info.id.rawValue), "from": Self.number(from), "count": .int(Int64(lines.count)),
            "total": Self.number(info.eventCount), "next": Self.number(last + 1), "events": .array(lines),
        ]))
    }

    /// `GET /api/sessions/{ref}/state?at=N`: `{"digest", "seq", "state"}` as `routelog state REF@N --json`.
    func state(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let s = try session(context, in: try workspace())
        // `?at=N`, else the ref's `@N`, else the last seq.
        let at = try Self.seqParameter(request, "at") ?? s.seqOrHead
        guard at <= s.info.eventCount else {
            throw RouteLogError.usage("at out of range: \(at) (session \(s.id) has \(s.info.eventCount) events)")
        }
        return Self.json(try s.stateJSON(at: at))
    }

    /// `GET /api/sessions/{ref}/stream?from=N`: Server-Sent Events. Each message's data is a
    /// timeline chunk (see `TimelineEncoder`) of the events from seq N on, sent as they are
    /// appended; a comment line every few seconds keeps the connection open. The page's own
    /// events arrive this way too, at most ``maxBatch`` a message, so no response holds a whole
    /// session. At most ``Streams/limit`` streams are open at once (else 503); every stream
    /// ends when the server stops.
    ///
    /// The stream also says when the session's screen records change: a message
    /// `event: screens` with `{"records": N}`, N the number of records, sent when the stream
    /// opens on a session that has some and whenever their number changes. It counts them at
    /// most every ``screensInterval`` (one lookup of the last record's key; a slow count is
    /// repeated less often, at most 1/20 of the stream's time).
    func stream(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let info = try resolve(context)
        let from = try Self.seqParameter(request, "from") ?? 1
        if from == 0 { throw RouteLogError.usage("bad from: 0 (seqs start at 1)") }
        if from > info.eventCount + 1 {
            throw RouteLogError.usage("from out of range: \(from) (session \(info.id) has \(info.eventCount) events)")
        }
        let store = self.store
        let id = info.id
        // From the nearest snapshot: at most a snapshot interval of events, done here.
        let log = try store.log()
        var first: Int64?
        if info.eventCount >= 1 { try log.read(id, from: 1, through: 1) { first = $0.meta.timestamp; return false } }
        let initial = try log.state(of: id, at: from - 1), origin = first
        guard streams.enter() else {
            throw RouteLogError(.busy, "too many streams open (\(streams.limit)); close a page and retry")
        }
        let streams = self.streams, stopping = self.stopping
        let body = ResponseBody { writer in
            defer {
                streams.leave()
                Memory.trim()
            }
            var builder = Timeline.Builder(state: initial, seq: from - 1)
            var encoder = TimelineEncoder(origin: origin)
            var next = from
            var idle = 0
            var screens = (known: 0, due: ContinuousClock.now, wait: API.screensInterval)
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            while !Task.isCancelled && !stopping.isSet {
                if ContinuousClock.now >= screens.due {
                    let started = ContinuousClock.now
                    let count = try await Work.run { try store.log().screenRecordCount(id) }
                    screens.wait = max(API.screensInterval, (ContinuousClock.now - started) * 20)
                    screens.due = ContinuousClock.now + screens.wait
                    if count != screens.known {
                        screens.known = count
                        try await writer.write(ByteBuffer(string: "event: screens\ndata: {\"records\":\(count)}\n\n"))
                    }
                }
                let (b, e, chunk, after) = try await Work.run { [builder, encoder, next] in
                    var b = builder, e = encoder
                    var entries: [Timeline.Entry] = []
                    try store.log().read(id, from: next, through: next + API.maxBatch - 1) {
                        entries.append(b.add($0.recorded, outcome: $0.outcome))
                        return true
                    }
                    guard let last = entries.last else { return (b, e, nil as String?, next) }
                    return (b, e, "data: " + e.chunk(entries[...]).canonicalText + "\n\n", last.seq + 1)
                }
                builder = b
                encoder = e
                next = after
                guard let chunk else {
                    idle += 1
                    // A comment now and then: a closed connection makes the write fail and ends the loop.
                    if idle % 40 == 0 { try await writer.write(ByteBuffer(string: ": idle\n\n")) }
                    try await Task.sleep(for: API.pollInterval)
                    continue
                }
                idle = 0
                try await writer.write(ByteBuffer(string: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
            body: body)
    }

    // MARK: - Pages

    /// `GET /`: the store's sessions, newest first, each a link to its live timeline.
    func sessionsPage() throws -> Response {
        let all = try store.log().sessions()
        var rows = ""
        for s in all.reversed() {
            let e = TimelinePage.escape
            let app = [s.appName, s.appVersion].compactMap { $0 }.joined(separator: " ")
            rows += "<tr><td><a href=\"/sessions/\(e(s.id.rawValue))\">\(e(s.label.isEmpty ? "(no label)" : s.label))</a>"
                + "<div class=\"id\">\(e(s.id.rawValue))</div></td><td>\(e(app.isEmpty ? "-" : app))</td>"
                + "<td>\(e(ISO8601.format(milliseconds: s.createdAt)))</td><td class=\"n\">\(s.eventCount)</td>"
                + "<td class=\"id\">\(e(s.headDigest.short))</td></tr>\n"
        }
        if all.isEmpty { rows = "<tr><td colspan=\"5\">No sessions yet: run an app that records to this store, then reload.</td></tr>" }
        let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>RouteLog sessions</title>
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <style>
        body { font: 14px/1.45 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; margin:0; background:#f4f5f8; color:#1c2030; }
        header { background:#171a26; color:#eef0f8; padding:14px 24px; font-weight:700; }
        header span { font-weight:400; color:#8f96b3; margin-left:8px; }
        main { padding:18px 24px; }
        table { border-collapse:collapse; background:#fff; border:1px solid #e2e4ec; border-radius:10px; overflow:hidden; min-width:760px; }
        th, td { text-align:left; padding:8px 14px; border-bottom:1px solid #eceef4; vertical-align:top; }
        th { font-size:11px; text-transform:uppercase; letter-spacing:.6px; color:#6b7085; background:#fafbfd; }
        a { color:#3d6df2; font-weight:600; text-decoration:none; }
        .id { font-family: ui-monospace, Menlo, monospace; font-size:11px; color:#6b7085; }
        .n { text-align:right; font-family: ui-monospace, Menlo, monospace; }
        </style></head><body>
        <header>RouteLog <span>sessions in \(TimelinePage.escape(storePath)) · read-only</span></header>
        <main><table id="sessions"><tr><th>Session</th><th>App</th><th>Created</th><th>Events</th><th>Head</th></tr>
        \(rows)</table></main></body></html>

        """
        return Self.response(html, type: "text/html; charset=utf-8")
    }

    /// `GET /sessions/{ref}`: the timeline page, following new events. The page itself carries
    /// the session's header only; its events come through the stream from seq 1, in chunks, as
    /// new ones do (a page of a million events never sits whole in the server's memory).
    func viewerPage(_ context: BasicRequestContext) throws -> Response {
        let info = try resolve(context)
        var timeline = Timeline(header: Timeline.Header(info), initialStateJSON: Timeline.Builder().stateJSON, entries: [])
        // No screens yet: the page asks `live.lanes` for them as the stream brings events.
        timeline.lanes = TimelineLanes.json(Lifetimes(events: [Event]()))
        let live: JSONValue = .object([
            "stream": .string("/api/sessions/\(info.id.rawValue)/stream"),
            "lanes": .string("/api/sessions/\(info.id.rawValue)/lanes"),
            "screens": .string("/api/sessions/\(info.id.rawValue)/screens"),
        ])
        let runs = (try? store.log().runs(of: info.id)) ?? []
        return Self.response(timeline.html(extra: ["live": live, "runs": SessionJSON.runs(runs)]), type: "text/html; charset=utf-8")
    }

    /// `GET /api/sessions/{ref}/lanes`: the timeline's lanes (see `TimelineLanes`) of the whole
    /// session as it is now, with `seq`, the last seq they cover. A live page asks again as events arrive.
    func lanes(_ context: BasicRequestContext) throws -> Response {
        let info = try resolve(context)
        var tracker = LifetimeTracker()
        try store.log().read(info.id, from: 1, through: info.eventCount) { tracker.apply($0.event); return true }
        guard case .object(var lanes) = TimelineLanes.json(tracker.lifetimes) else { return Self.json(.null) }
        lanes["seq"] = .int(Int64(tracker.seq))
        return Self.json(.object(lanes))
    }

    /// `GET /api/sessions/{ref}/screens`: the timeline's "on screen" lane (see `ScreenLane`) of the
    /// whole session as it is now, from its screen records (`"records": 0` and no bars without
    /// them), with `seq`, the session's last seq. A live page asks again when the stream says
    /// the records changed.
    func screens(_ context: BasicRequestContext) throws -> Response {
        let s = try session(context, in: try workspace())
        let records = try s.screenRecords()
        let origin = records.isEmpty ? nil : try s.event(at: 1)?.recorded.meta.timestamp
        guard case .object(var lane) = ScreenLane(records)?.json(origin: origin) ?? ScreenLane.none else { return Self.json(.null) }
        lane["seq"] = .int(Int64(clamping: s.info.eventCount))
        return Self.json(.object(lane))
    }
}
