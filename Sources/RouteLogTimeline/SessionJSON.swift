import RouteLogCore

/// The JSON objects the CLI's `--json` output prints, for the server's API to mirror.
public enum SessionJSON {
    /// A session as `routelog sessions --json` prints it.
    public static func session(_ s: SessionInfo) -> JSONValue {
        .object([
            "id": .string(s.id.rawValue), "label": .string(s.label), "created": .string(ISO8601.format(milliseconds: s.createdAt)),
            "events": .int(Int64(s.eventCount)), "headDigest": .string(s.headDigest.hex),
            "app": s.appName.map(JSONValue.string) ?? .null, "appVersion": s.appVersion.map(JSONValue.string) ?? .null,
            "lastEventAt": s.lastEventAt.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null,
        ])
    }

    /// An event as `routelog log --json` prints it; `state` is the state after it, `run` the
    /// number of the run that wrote it (absent for sessions without runs) and `recovered` whether
    /// a reader shows it from a crashed app's journal before the store holds it.
    public static func logLine(_ e: StoredEvent, state: NavigationState, run: Int? = nil, recovered: Bool = false) -> JSONValue {
        var o: [String: JSONValue] = [
            "seq": .int(Int64(e.seq)), "event": e.event.json, "outcome": e.outcome.json, "digest": .string(e.digest.hex),
            "origin": .string(e.meta.origin.rawValue), "summary": .string(summary(state)),
            "time": e.meta.timestamp == 0 ? .null : .string(ISO8601.format(milliseconds: e.meta.timestamp)),
            "site": e.meta.callSite.map { .string("\($0.file):\($0.line)") } ?? .null,
            "note": e.meta.note.map(JSONValue.string) ?? .null,
        ]
        if let run { o["run"] = .int(Int64(run)) }
        if recovered { o["recovered"] = .bool(true) }
        return .object(o)
    }

    /// The state as `routelog state REF@N --json` prints it: `{"digest", "seq", "state"}`.
    public static func state(_ state: NavigationState, seq: UInt64) -> JSONValue {
        .object(["seq": .int(Int64(seq)), "digest": .string(state.digest.hex), "state": state.json])
    }

    /// The one-line summary `routelog log` prints: `[home] inbox ▸ thread-42 ┃ sheet composer#12 ▸ attachments`.
    public static func summary(_ state: NavigationState) -> String {
        let root = state.root
        var parts = [root.path.isEmpty ? "root" : root.path.map(\.id).joined(separator: " ▸ ")]
        var frame = root
        while let p = frame.presented {
            var s = "\(p.style.rawValue) \(p.route.id)#\(p.token)"
            if let c = p.content, !c.path.isEmpty { s += " ▸ " + c.path.map(\.id).joined(separator: " ▸ ") }
            parts.append(s)
            guard let c = p.content else { break }
            frame = c
        }
        let line = parts.joined(separator: " ┃ ")
        if let tab = state.selectedTab { return "[\(tab)] \(line)" }
        return line
    }
}
