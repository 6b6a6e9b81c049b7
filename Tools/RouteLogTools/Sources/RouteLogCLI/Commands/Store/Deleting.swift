@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

// What the commands that delete sessions (`rm`, `prune`) share.

/// The one line a deleted (or to-be-deleted) session gets in `rm` and `prune`.
func deletionLine(_ verb: String, _ s: SessionInfo) -> String {
    "\(verb) \(s.id.rawValue) \(s.label.isEmpty ? "-" : s.label) (\(s.eventCount) event\(s.eventCount == 1 ? "" : "s"))"
}

/// The JSON object `rm --json` and `prune --json` print.
func deletionJSON(_ sessions: [SessionInfo], dryRun: Bool) -> String {
    JSONValue.object([
        "dryRun": .bool(dryRun),
        "sessions": .array(sessions.map { SessionJSON.session($0) }),
        "events": .int(Int64(sessions.reduce(UInt64(0)) { $0 + $1.eventCount })),
    ]).canonicalText
}
