import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog sessions`: one line per session in the store.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions in the store.",
        discussion: """
        One line per session, in the order they entered the store (so the last line is `latest`): \
        # (that order), id, prefix (the shortest prefix of the id that names this session and no \
        other), label, app/version, created (the time the app recorded; an import keeps it), added \
        (when the session entered this store), events, last event time, head digest, runs (launches \
        of the app that wrote the session, with how many crashed: `3 (1 crashed)`; `-` for a session \
        from before runs were recorded or imported). Either the prefix or #N (the # column; quote it \
        in a shell, where # starts a comment) names the session wherever a command takes a SESSION. \
        --json prints the same fields, the prefix as "prefix", # as "order", and the runs as "runs", \
        "crashedRuns" and "runList".
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print a JSON array.") var json = false

    func run() throws {
        let workspace = store.workspace()
        let out = Output.stdout()
        if json {
            out.line(try workspace.sessionsJSON().canonicalText)
            return
        }
        let log = try workspace.store()
        let all = try workspace.sessions()
        let runs = try all.map { s in try call { try log.runs(of: s.id) } }
        let prefixes = SessionJSON.shortestUniquePrefixes(all.map(\.id.rawValue))
        if all.isEmpty {
            out.line("no sessions in \(StoreAccess.path(store.store))")
            return
        }
        var rows = [["#", "ID", "PREFIX", "LABEL", "APP", "CREATED", "ADDED", "EVENTS", "LAST EVENT", "HEAD", "RUNS"].map { out.paint($0, .bold) }]
        for (s, r) in zip(all, runs) {
            rows.append([
                s.entryOrder == 0 ? "-" : String(s.entryOrder),
                s.id.rawValue, prefixes[s.id.rawValue] ?? s.id.rawValue, s.label.isEmpty ? "-" : s.label, s.app, Render.time(s.createdAt), Render.time(s.enteredAt),
                String(s.eventCount), Render.time(s.lastEventAt), s.headDigest.short, Self.runs(r),
            ])
        }
        for line in Render.table(rows) { out.line(line) }
    }


    /// `3`, `3 (1 crashed)`, or `-` without runs.
    static func runs(_ runs: [RunInfo]) -> String {
        guard !runs.isEmpty else { return "-" }
        let crashed = runs.filter { if case .crashed = $0.end { true } else { false } }.count
        return crashed == 0 ? String(runs.count) : "\(runs.count) (\(crashed) crashed)"
    }

}
