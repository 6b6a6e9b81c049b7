@_spi(Tools) import RouteLogCore

/// Events as `routelog log --json` prints them, one object an event: folds the session from a
/// seq on to give each event the state after it (its `summary`), its run and whether it is shown
/// from a crashed app's journal, and the divergences found after it (``DivergenceMarks``).
package struct LogLines {
    // Inlinable: `log` folds and reads the state once per line, a million times in a session.
    @usableFromInline var replayer: Replayer
    package let marks: RunMarks
    /// The divergences to give each line (none with `screenMarks: false`).
    package let screens: DivergenceMarks

    /// Ready for the events from `from` (≥ 1) on: the state before it comes from the nearest
    /// snapshot. `screenMarks`: read the session's screen records, to give each event's line the
    /// divergences found after it (a damaged record leaves them out, ``DivergenceMarks/error``).
    package init(_ s: ResolvedSession, from: UInt64, screenMarks: Bool = true) throws(RouteLogError) {
        let known = min(from > 0 ? from - 1 : 0, s.info.eventCount)
        replayer = Replayer(state: try s.state(at: known), seq: known)
        marks = s.marks()
        screens = screenMarks ? DivergenceMarks(s) : .none
    }

    /// The state after the last event folded.
    @inlinable package var state: NavigationState { replayer.state }
    /// The last seq folded.
    @inlinable package var seq: UInt64 { replayer.seq }

    /// Folds the next event (without rendering it).
    @inlinable package mutating func fold(_ e: StoredEvent) { replayer.apply(e.event) }

    /// The line of the event folded last.
    package func line(_ e: StoredEvent) -> JSONValue {
        SessionJSON.logLine(e, state: replayer.state, run: marks.run(of: e.seq), recovered: marks.isJournaled(e.seq),
                            divergences: screens.after(e.seq).map { SessionJSON.divergence($0.record, $0.divergence) })
    }

    /// Folds the next event and returns its line.
    package mutating func next(_ e: StoredEvent) -> JSONValue {
        fold(e)
        return line(e)
    }
}
