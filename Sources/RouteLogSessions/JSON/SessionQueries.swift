import RouteLogCore
import RouteLogLMDB

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

    /// One session as an element of ``sessionsJSON()``: a stored session with its prefix among
    /// the store's sessions and its runs; a file's session as it would be alone in a store.
    package func sessionJSON(_ s: ResolvedSession) throws(RouteLogError) -> JSONValue {
        guard s.store != nil else { return SessionJSON.session(s.info, prefix: SessionJSON.shortestUniquePrefixes([s.id.rawValue])[s.id.rawValue]) }
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

/// Events as `routelog log --json` prints them, one object an event: folds the session from a
/// seq on to give each event the state after it (its `summary`), its run and whether it is shown
/// from a crashed app's journal.
package struct LogLines {
    private var replayer: Replayer
    package let marks: RunMarks

    /// Ready for the events from `from` (≥ 1) on: the state before it comes from the nearest snapshot.
    package init(_ s: ResolvedSession, from: UInt64) throws(RouteLogError) {
        let known = min(from > 0 ? from - 1 : 0, s.info.eventCount)
        replayer = Replayer(state: try s.state(at: known), seq: known)
        marks = s.marks()
    }

    /// The state after the last event folded.
    package var state: NavigationState { replayer.state }
    /// The last seq folded.
    package var seq: UInt64 { replayer.seq }

    /// Folds the next event (without rendering it).
    package mutating func fold(_ e: StoredEvent) { replayer.apply(e.event) }

    /// The line of the event folded last.
    package func line(_ e: StoredEvent) -> JSONValue {
        SessionJSON.logLine(e, state: replayer.state, run: marks.run(of: e.seq), recovered: marks.isJournaled(e.seq))
    }

    /// Folds the next event and returns its line.
    package mutating func next(_ e: StoredEvent) -> JSONValue {
        fold(e)
        return line(e)
    }
}
