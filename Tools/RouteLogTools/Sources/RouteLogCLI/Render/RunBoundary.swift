@_spi(Tools) import RouteLogCore

/// How `log` marks where a run of the app starts: a line of its own before the run's first event.
extension RunMarks {
    /// The line that opens run 2 and later before their first event, e.g.
    /// `── run 2 · app 1.1 (build 7) · the previous run crashed (3 events recovered, last #42) ──`.
    func boundary(before seq: UInt64) -> String? {
        guard let i = runs.firstIndex(where: { $0.firstSeq == seq }), i > 0 else { return nil }
        return "── " + Self.describe(runs[i], previous: runs[i - 1]) + " ──"
    }

    /// `run 2 · app 1.1 (build 7) · the previous run crashed (…)`.
    static func describe(_ run: RunInfo, previous: RunInfo?) -> String {
        var parts = ["run \(run.number)"]
        if let v = run.appVersion { parts.append("app \(v)" + (run.build.map { " (build \($0))" } ?? "")) }
        if let previous { parts.append("the previous run ended \(previous.end)") }
        return parts.joined(separator: " · ")
    }
}
