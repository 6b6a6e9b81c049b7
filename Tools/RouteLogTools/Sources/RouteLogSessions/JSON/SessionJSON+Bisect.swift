@_spi(Tools) import RouteLogCore

extension SessionJSON {
    /// What `bisect --json` prints (and the MCP server's `bisect` tool answers): the counts, the
    /// mode, the first bad seq (`null` when none) with its event, outcome and the state changes
    /// across it.
    package static func bisect(_ result: Bisect.Result) -> JSONValue {
        var o: [String: JSONValue] = [
            "materialized": .int(Int64(result.materialized)), "folded": .int(Int64(result.eventsFolded)),
            "evaluations": .int(Int64(result.evaluations)), "mode": .string(result.mode.rawValue),
            "undecided": .array(result.undecided.map { .int(Int64($0)) }), "seq": .null,
        ]
        if let seq = result.seq, let context = result.context {
            o["seq"] = .int(Int64(seq))
            o["event"] = context.event?.recorded.json ?? .null
            o["outcome"] = context.outcome?.json ?? .null
            o["changes"] = .array((result.diff?.changes ?? []).map(\.json))
        }
        return .object(o)
    }
}
