import RouteLogCore

/// The runs of a session as the timeline page marks them on its scrubber: where each run after the
/// first starts (with its app version and how the previous run ended) and where each crashed run's
/// last event is. Passed to the page as the `runs` member of its data document
/// (`timeline.html(extra: ["runs": TimelineRuns.json(runs)])`).
public enum TimelineRuns {
    public static func json(_ runs: [RunInfo]) -> JSONValue {
        .array(runs.map { r in
            var o: [String: JSONValue] = [
                "run": .int(Int64(r.number)), "firstSeq": .int(Int64(r.firstSeq)), "end": .string(r.end.name),
                "version": r.appVersion.map(JSONValue.string) ?? .null, "build": r.build.map(JSONValue.string) ?? .null,
            ]
            if case .crashed(let n, let last) = r.end {
                o["lastSeq"] = .int(Int64(last))
                o["recovered"] = .int(Int64(n))
            }
            return .object(o)
        })
    }
}
