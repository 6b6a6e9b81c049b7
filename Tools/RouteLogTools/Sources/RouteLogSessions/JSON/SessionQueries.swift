@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

// The answers every front end gives in the same words: `routelog sessions/state/log --json`,
// `routelog-serve`'s `/api/sessions…` and `routelog-mcp`'s tools.

extension Workspace {
    /// The store's sessions as `routelog sessions --json` prints them: each with its shortest
    /// unique prefix and its runs.
    package func sessionsJSON() throws(RouteLogError) -> JSONValue {
        let log = try store()
        let all = try sessions()
        return try call { try SessionJSON.sessions(all, runs: { try log.runs(of: $0.id) }) }
    }

    /// One session of the store as an element of ``sessionsJSON()``: with its prefix among the
    /// store's sessions and its runs.
    package func sessionJSON(_ s: ResolvedSession) throws(RouteLogError) -> JSONValue {
        let prefixes = SessionJSON.shortestUniquePrefixes(try sessions().map(\.id.rawValue))
        return SessionJSON.session(s.info, prefix: prefixes[s.id.rawValue], runs: s.marks().runs)
    }
}

extension ResolvedSession {
    /// The state after `seq` as `routelog state REF@N --json` prints it.
    package func stateJSON(at seq: UInt64) throws(RouteLogError) -> JSONValue {
        try check(seq: seq)
        return SessionJSON.state(try state(at: seq), seq: seq)
    }
}
