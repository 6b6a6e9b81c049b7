import ArgumentParser
import RouteLogCore

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
        let log = try store.workspace().store()
        let all = try call { try log.sessions() }
        let runs = try all.map { s in try call { try (log as? any JournalingEventLog)?.runs(of: s.id) ?? [] } }
        let out = Output.stdout()
        let prefixes = shortestUniquePrefixes(all.map(\.id.rawValue))
        if json {
            out.line(JSONValue.array(zip(all, runs).map { Self.json($0, prefix: prefixes[$0.id.rawValue], runs: $1) }).canonicalText)
            return
        }
        if all.isEmpty {
            out.line("no sessions in \(store.path)")
            return
        }
        var rows = [["#", "ID", "PREFIX", "LABEL", "APP", "CREATED", "ADDED", "EVENTS", "LAST EVENT", "HEAD", "RUNS"].map { out.paint($0, .bold) }]
        for (s, r) in zip(all, runs) {
            rows.append([
                s.entryOrder == 0 ? "-" : String(s.entryOrder),
                s.id.rawValue, prefixes[s.id.rawValue] ?? s.id.rawValue, s.label.isEmpty ? "-" : s.label, Self.app(s), Render.time(s.createdAt), Render.time(s.enteredAt),
                String(s.eventCount), Render.time(s.lastEventAt), s.headDigest.short, Self.runs(r),
            ])
        }
        for line in Render.table(rows) { out.line(line) }
    }

    static func app(_ s: SessionInfo) -> String {
        switch (s.appName, s.appVersion) {
        case (let n?, let v?): "\(n)/\(v)"
        case (let n?, nil): n
        case (nil, let v?): "/\(v)"
        default: "-"
        }
    }

    /// `3`, `3 (1 crashed)`, or `-` without runs.
    static func runs(_ runs: [RunInfo]) -> String {
        guard !runs.isEmpty else { return "-" }
        let crashed = runs.filter { if case .crashed = $0.end { true } else { false } }.count
        return crashed == 0 ? String(runs.count) : "\(runs.count) (\(crashed) crashed)"
    }

    /// One session of `sessions --json`; `prefix` (the shortest unique prefix among the store's
    /// sessions) is `null` when not given, and `runs` empty when not read.
    static func json(_ s: SessionInfo) -> JSONValue { json(s, prefix: nil) }

    static func json(_ s: SessionInfo, prefix: String?, runs: [RunInfo] = []) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(s.id.rawValue), "label": .string(s.label), "created": .string(ISO8601.format(milliseconds: s.createdAt)),
            "events": .int(Int64(s.eventCount)), "headDigest": .string(s.headDigest.hex),
        ]
        o["app"] = s.appName.map(JSONValue.string) ?? .null
        o["appVersion"] = s.appVersion.map(JSONValue.string) ?? .null
        // Events recorded without a time carry 0: that is "no time", not 1970 (the table prints "-").
        o["lastEventAt"] = s.lastEventAt.flatMap { $0 == 0 ? nil : JSONValue.string(ISO8601.format(milliseconds: $0)) } ?? .null
        o["added"] = s.enteredAt.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null
        o["order"] = s.entryOrder == 0 ? .null : .int(Int64(s.entryOrder))
        o["prefix"] = prefix.map(JSONValue.string) ?? .null
        o["imported"] = .bool(s.imported)
        // The runs: how many, and each one's start, app version, build and end.
        o["runs"] = .int(Int64(runs.count))
        o["crashedRuns"] = .int(Int64(runs.filter { if case .crashed = $0.end { true } else { false } }.count))
        o["runList"] = .array(runs.map(Self.json))
        return .object(o)
    }

    static func json(_ run: RunInfo) -> JSONValue {
        var o: [String: JSONValue] = [
            "run": .int(Int64(run.number)), "firstSeq": .int(Int64(run.firstSeq)), "end": .string(run.end.name),
            "started": .string(ISO8601.format(milliseconds: run.startedAt)),
        ]
        o["appVersion"] = run.appVersion.map(JSONValue.string) ?? .null
        o["build"] = run.build.map(JSONValue.string) ?? .null
        if case .crashed(let n, let last) = run.end {
            o["recovered"] = .int(Int64(n))
            o["lastSeq"] = .int(Int64(last))
        }
        return .object(o)
    }
}
