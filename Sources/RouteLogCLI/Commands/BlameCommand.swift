import ArgumentParser
import RouteLogCore

/// Folding a resolved session once for `blame` and `lifetimes` (the CLI's commands and the MCP tools).
enum BlameQuery {
    /// Blames the state at `seq` (removals are looked for to the session's last event), with the
    /// short text of every event the answer names.
    static func blame(_ s: ResolvedSession, at seq: UInt64) throws(RouteLogError) -> (blame: Blame, events: [UInt64: String]) {
        var tracker = LifetimeTracker()
        var layout = tracker.layout
        var state = tracker.state
        try call {
            try s.log.read(s.id, from: 1, through: s.info.eventCount) { e in
                tracker.apply(e.event)
                if tracker.seq == seq { layout = tracker.layout; state = tracker.state }
                return true
            }
        }
        let blame = Blame(seq: seq, state: state, lifetimes: tracker.lifetimes, layout: layout)
        var events: [UInt64: String] = [:]
        for n in BlameRender.namedSeqs(blame) where n >= 1 {
            if let e = try call({ try s.event(at: n) }) { events[n] = Render.event(e.event) }
        }
        return (blame, events)
    }

    /// Every element's lifetime over the session.
    static func lifetimes(_ s: ResolvedSession) throws(RouteLogError) -> Lifetimes {
        var tracker = LifetimeTracker()
        try call {
            try s.log.read(s.id, from: 1, through: s.info.eventCount) { e in
                tracker.apply(e.event)
                return true
            }
        }
        return tracker.lifetimes
    }
}

/// `routelog blame`: what put each element of the state there, and what later removed it.
struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Show the state with the event that put each screen there (like git blame).",
        discussion: """
        Prints the state at seq N (REF@N; default: the last seq) as `routelog state` prints it, \
        each line prefixed with the seq and the short form of the event that put its element \
        there in its present form (a push, a show, a reset, an in-place update, a setTabs), and \
        followed by the seq that later removed it, if one did (looked for to the session's end). \
        A reset puts every element of its state there anew. --json prints \
        {"seq", "digest", "elements": [...]} with each element's kind, id, place, start, put, \
        updates, end and the events' short forms. A session without events blames the state at seq 0.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json, or REF@N).") var session: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let ref = try parseRef(session)
        let s = try store.workspace().resolve(ref)
        let seq = s.seqOrHead
        let (blame, events) = try BlameQuery.blame(s, at: seq)
        let out = Output.stdout()
        if json {
            out.line(BlameRender.json(blame, events: events).canonicalText)
            return
        }
        out.line(out.paint("\(s.name) at seq \(seq) of \(s.info.eventCount)", .bold) + "  digest \(blame.state.digest.short)")
        for line in BlameRender.lines(blame, events: events) { out.line(line) }
    }
}

/// `routelog lifetimes`: every screen's interval.
struct LifetimesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetimes",
        abstract: "List every screen's lifetime: the seq it appeared, the seq it went away.",
        discussion: """
        One row per screen (a route pushed on a stack, a presentation), in the order they \
        appeared: the seq and kind of the event that put it there, the seq and kind of the one \
        that took it away (- while it is still there), its style, route id, place (tab, frame, \
        index or presentation level and token) and the seqs that updated it in place. \
        --route ID keeps the screens of that route id. --json prints \
        {"seq", "rejected": [...], "lifetimes": [...]}. A session without events has no screens: \
        lifetimes says so and exits 0.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, or FILE.json).") var session: String
    @Option(help: ArgumentHelp("Only the screens with this route id.", valueName: "id")) var route: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let ref = try parseRef(session)
        if ref.seq != nil { throw RouteLogError.usage("lifetimes covers the whole session: give \(ref.text.split(separator: "@").first.map(String.init) ?? ref.text) without @N") }
        let s = try store.workspace().resolve(ref)
        let lifetimes = try BlameQuery.lifetimes(s)
        // Read in place (a million lifetimes are not copied): the screens, of `route` if given.
        func shown(_ l: Lifetime) -> Bool { l.isScreen && (route == nil || l.routeID == route) }
        let screens = lifetimes.all.lazy.filter(shown)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "seq": .int(Int64(lifetimes.seq)),
                "rejected": .array(lifetimes.rejected.map { .int(Int64($0)) }),
                "lifetimes": .array(Array(screens.map { BlameRender.json($0) })),
            ]).canonicalText)
            return
        }
        if s.info.eventCount == 0 {
            out.line("\(s.name) has no events yet")
            return
        }
        if let route, screens.isEmpty {
            out.line("no screen with route id \(printable(route)) in \(s.name)")
            return
        }
        // Streamed with column widths from a first pass: a million rows are never held as text.
        let header = ["START", "END", "STYLE", "ROUTE", "WHERE", "UPDATES"]
        var widths = header.map(\.count)
        for l in screens {
            for (i, width) in BlameRender.rowWidths(l).enumerated() { widths[i] = max(widths[i], width) }
        }
        func emit(_ row: [String]) {
            out.line(row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - Render.visibleWidth(cell))
            }.joined(separator: "  ").trimmingTrailingSpaces())
        }
        emit(header)
        for l in screens { emit(BlameRender.row(l, events: [:])) }
    }
}

extension String {
    /// The string without its trailing spaces.
    func trimmingTrailingSpaces() -> String {
        // On the UTF-8 bytes: a space is one byte, so the cut falls between characters.
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
        return end == bytes.endIndex ? self : String(Substring(bytes[..<end]))
    }
}
