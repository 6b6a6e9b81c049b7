@_spi(Tools) import RouteLogCore
import RouteLogSessions

/// The lines of `routelog export --format last-states`: one JSON object per session with what a
/// restore gate needs to restore its last state with today's route type (RouteLogTesting's
/// `expectRestore(corpus:…)`), and nothing else.
///
/// Keys: `session` (a stored session's id, a file's name), `label` (the session's: which scene or
/// extension wrote it), `app`, `app_version` (the version of the
/// run that wrote the last event, as that event's `run_app_version` in `events-jsonl`, else the
/// session's: what the gate groups by), `session_app_version` (the session's own version, which a
/// navigator's restore hands to the migrations), `seq` (the last seq, or REF@N's N), `digest` and
/// `state` (the state after `seq` as canonical JSON, folded by the current reducer). Every line has
/// every key (`null` when it does not apply).
enum LastStates {
    /// The keys of a line, sorted as a line writes them.
    static let keys = ["app", "app_version", "digest", "label", "seq", "session", "session_app_version", "state"]

    /// The line of `s`.
    static func line(_ s: ResolvedSession) throws(RouteLogError) -> JSONValue {
        let seq = s.seqOrHead
        let state = try s.state(at: seq)
        let header = s.document?.session
        let sessionVersion = s.info.appVersion ?? header?.appVersion
        let runVersion = s.marks().runs.run(of: seq)?.appVersion
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "session": .string(s.isStored ? s.id.rawValue : s.portableName),
            "label": string(s.isStored ? s.info.label : header?.label),
            "app": string(s.info.appName ?? header?.app),
            "app_version": string(runVersion ?? sessionVersion),
            "session_app_version": string(sessionVersion),
            "seq": .int(Int64(seq)),
            "digest": .string(state.digest.hex),
            "state": state.json,
        ])
    }
}
