import ArgumentParser
@_spi(Tools) import RouteLogCore

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
        let ref = try SessionRef(parsing: session)
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
