import RouteLogCore

/// The JSON objects the CLI's `--json` output prints, for the server's API to mirror.
public enum SessionJSON {
    /// A session as `routelog sessions --json` prints it (the CLI prints this very value).
    public static func session(_ s: SessionInfo) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(s.id.rawValue), "label": .string(s.label), "created": .string(ISO8601.format(milliseconds: s.createdAt)),
            "events": .int(Int64(clamping: s.eventCount)), "headDigest": .string(s.headDigest.hex),
        ]
        o["app"] = s.appName.map(JSONValue.string) ?? .null
        o["version"] = s.appVersion.map(JSONValue.string) ?? .null
        // Events recorded without a time carry 0: that is "no time", not 1970 (the table prints "-").
        o["lastEventAt"] = s.lastEventAt.flatMap { $0 == 0 ? nil : JSONValue.string(ISO8601.format(milliseconds: $0)) } ?? .null
        // When the session entered this store, and its place in that order (`latest` is the highest).
        o["added"] = s.enteredAt.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null
        o["order"] = s.entryOrder == 0 ? .null : .int(Int64(clamping: s.entryOrder))
        return .object(o)
    }

    /// An event as `routelog log --json` prints it; `state` is the state after it.
    public static func logLine(_ e: StoredEvent, state: NavigationState) -> JSONValue {
        .object([
            "seq": .int(Int64(e.seq)), "event": e.event.json, "outcome": e.outcome.json, "digest": .string(e.digest.hex),
            "origin": .string(e.meta.origin.rawValue), "summary": .string(summary(state)),
            "time": e.meta.timestamp == 0 ? .null : .string(ISO8601.format(milliseconds: e.meta.timestamp)),
            "site": e.meta.callSite.map { .string("\($0.file):\($0.line)") } ?? .null,
            "note": e.meta.note.map(JSONValue.string) ?? .null,
        ])
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
