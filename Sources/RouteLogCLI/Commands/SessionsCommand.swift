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
        (when the session entered this store), events, last event time, head digest. Either the \
        prefix or #N (the # column; quote it in a shell, where # starts a comment) names the \
        session wherever a command takes a SESSION. --json prints the same fields, the prefix as \
        "prefix" and # as "order".
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print a JSON array.") var json = false

    func run() throws {
        let log = try store.workspace().store()
        let all = try call { try log.sessions() }
        let out = Output.stdout()
        let prefixes = shortestUniquePrefixes(all.map(\.id.rawValue))
        if json {
            out.line(JSONValue.array(all.map { Self.json($0, prefix: prefixes[$0.id.rawValue]) }).canonicalText)
            return
        }
        if all.isEmpty {
            out.line("no sessions in \(store.path)")
            return
        }
        var rows = [["#", "ID", "PREFIX", "LABEL", "APP", "CREATED", "ADDED", "EVENTS", "LAST EVENT", "HEAD"].map { out.paint($0, .bold) }]
        for s in all {
            rows.append([
                s.entryOrder == 0 ? "-" : String(s.entryOrder),
                s.id.rawValue, prefixes[s.id.rawValue] ?? s.id.rawValue, s.label.isEmpty ? "-" : s.label, Self.app(s), Render.time(s.createdAt), Render.time(s.enteredAt),
                String(s.eventCount), Render.time(s.lastEventAt), s.headDigest.short,
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

    /// One session of `sessions --json`; `prefix` (the shortest unique prefix among the store's
    /// sessions) is `null` when not given.
    static func json(_ s: SessionInfo) -> JSONValue { json(s, prefix: nil) }

    static func json(_ s: SessionInfo, prefix: String?) -> JSONValue {
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
        return .object(o)
    }
}
