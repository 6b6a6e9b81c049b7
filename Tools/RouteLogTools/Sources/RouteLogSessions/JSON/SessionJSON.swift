@_spi(Tools) import RouteLogCore

/// The JSON objects of sessions, runs, events and states: what `routelog --json` prints, what
/// `routelog-serve`'s API and `routelog-mcp`'s tools answer. One set of keys for all three; the
/// table of fields in the tools' manual (Docs/JSON.md) is checked against these objects.
package enum SessionJSON {
    /// A session as `routelog sessions --json` prints it (the CLI prints this very value);
    /// `prefix` (the shortest unique prefix among the store's sessions) is `null` when not given.
    /// `runs` are the session's runs (empty when not read); `imported` says whether it entered the
    /// store by `routelog import`.
    package static func session(_ s: SessionInfo, prefix: String? = nil, runs: [RunInfo] = []) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(s.id.rawValue), "label": .string(s.label), "created": .string(ISO8601.format(milliseconds: s.createdAt)),
            "events": .int(Int64(clamping: s.eventCount)), "headDigest": .string(s.headDigest.hex),
        ]
        o["app"] = s.appName.map(JSONValue.string) ?? .null
        o["appVersion"] = s.appVersion.map(JSONValue.string) ?? .null
        // Events recorded without a time carry 0: that is "no time", not 1970 (the table prints "-").
        o["lastEventAt"] = s.lastEventAt.flatMap { $0 == 0 ? nil : JSONValue.string(ISO8601.format(milliseconds: $0)) } ?? .null
        // When the session entered this store, and its place in that order (`latest` is the highest).
        o["added"] = s.enteredAt.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null
        o["order"] = s.entryOrder == 0 ? .null : .int(Int64(clamping: s.entryOrder))
        o["prefix"] = prefix.map(JSONValue.string) ?? .null
        o["imported"] = .bool(s.imported)
        // The runs: how many, and each one's start, app version, build and end.
        o["runs"] = .int(Int64(runs.count))
        o["crashedRuns"] = .int(Int64(runs.filter { if case .crashed = $0.end { true } else { false } }.count))
        o["runList"] = Self.runs(runs)
        return .object(o)
    }

    /// A session's runs as `runList` holds them (and the timeline page marks them): ``RouteLogCore/RunInfo/json``.
    package static func runs(_ runs: [RunInfo]) -> JSONValue { .array(runs.map(\.json)) }

    /// One run of a session, as in `runList`.
    package static func run(_ run: RunInfo) -> JSONValue { run.json }

    /// All of a store's sessions as `routelog sessions --json` prints them, each with its prefix
    /// and its runs (`runs` reads them; none by default).
    package static func sessions(_ all: [SessionInfo], runs: (SessionInfo) throws -> [RunInfo] = { _ in [] }) rethrows -> JSONValue {
        let prefixes = shortestUniquePrefixes(all.map(\.id.rawValue))
        return .array(try all.map { session($0, prefix: prefixes[$0.id.rawValue], runs: try runs($0)) })
    }

    /// The shortest prefix of each id that names it and no other (what `sessions` prints, and what a
    /// session reference's prefix resolves back to that session): one character past the longest
    /// common prefix with its neighbours in sorted order.
    package static func shortestUniquePrefixes(_ ids: [String]) -> [String: String] {
        let sorted = Array(Set(ids)).sorted()
        func common(_ a: String, _ b: String) -> Int { zip(a, b).prefix { $0 == $1 }.count }
        var out: [String: String] = [:]
        for (i, id) in sorted.enumerated() {
            var shared = 0
            if i > 0 { shared = max(shared, common(id, sorted[i - 1])) }
            if i + 1 < sorted.count { shared = max(shared, common(id, sorted[i + 1])) }
            out[id] = String(id.prefix(min(id.count, shared + 1)))
        }
        return out
    }

    /// An event as `routelog log --json` prints it; `state` is the state after it (its digest is
    /// the line's: the reader folds the events, and need not read them with digests), `run` the
    /// number of the run that wrote it (absent for sessions without runs) and `recovered` whether
    /// a reader shows it from a crashed app's journal before the store holds it; `divergences` the
    /// divergences found after it and before the next event (``divergence(_:_:before:after:)``
    /// objects; absent when there are none).
    package static func logLine(_ e: StoredEvent, state: NavigationState, run: Int? = nil, recovered: Bool = false,
                                divergences: [JSONValue] = []) -> JSONValue {
        var o: [String: JSONValue] = [
            "seq": .int(Int64(e.seq)), "event": e.event.json, "outcome": e.outcome.json, "digest": .string(state.digest.hex),
            "origin": .string(e.meta.origin.rawValue), "summary": .string(summary(state)),
            "time": e.meta.timestamp == 0 ? .null : .string(ISO8601.format(milliseconds: e.meta.timestamp)),
            "site": e.meta.callSite.map { .string("\($0.file):\($0.line)") } ?? .null,
            "note": e.meta.note.map(JSONValue.string) ?? .null,
        ]
        if let run { o["run"] = .int(Int64(run)) }
        if recovered { o["recovered"] = .bool(true) }
        if !divergences.isEmpty { o["divergences"] = .array(divergences) }
        return .object(o)
    }

    /// The state as `routelog state REF@N --json` prints it: `{"digest", "seq", "state"}`.
    package static func state(_ state: NavigationState, seq: UInt64) -> JSONValue {
        .object(["seq": .int(Int64(seq)), "digest": .string(state.digest.hex), "state": state.json])
    }

    /// The one-line summary `routelog log` prints: `[home] inbox ▸ thread-42 ┃ sheet composer#12 ▸ attachments`.
    package static func summary(_ state: NavigationState) -> String {
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
