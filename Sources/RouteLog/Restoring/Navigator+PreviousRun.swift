@_spi(Tools) import RouteLogCore

extension Navigator {
    /// The run of this session before this launch's, when the store records runs (a journaling
    /// store, such as `LMDBEventLog`) and the navigator restored a session that had one: how it
    /// ended, its last seq and the state then. `nil` for a new session, an in-memory log, or a
    /// store that is not open yet.
    ///
    /// ```swift
    /// if let previous = navigator.previousRun, previous.crashed {
    ///     let fixture = try previous.fixtureData()   // attach it to the crash report
    ///     print("crashed on \(previous.screens)")
    /// }
    /// ```
    public var previousRun: PreviousRun? {
        guard let journaling = log.journaling,
              let runs = try? journaling.runs(of: session), !runs.isEmpty,
              let info = try? log.session(session) else { return nil }
        // This launch's run is the journal's; without one (the journal could not start), the last.
        let current = journal?.runNumber ?? runs.last!.number
        guard let run = runs.last(where: { $0.number < current }) else { return nil }
        let lastSeq = runs.lastSeq(of: run, head: info.eventCount)
        guard let state = try? log.state(of: session, at: lastSeq) else { return nil }
        return PreviousRun(session: info, run: run, lastSeq: lastSeq, state: state, log: log)
    }
}
