@_spi(Tools) import RouteLogCore

/// What a session's events carry besides themselves: the runs of the app that wrote them (each
/// event's run number) and the seqs a reader shows from a crashed app's journal before the store
/// holds them.
package struct RunMarks {
    package let runs: [RunInfo]
    package let journaled: ClosedRange<UInt64>?

    package init(runs: [RunInfo], journaled: ClosedRange<UInt64>?) {
        self.runs = runs
        self.journaled = journaled
    }

    package func isJournaled(_ seq: UInt64) -> Bool { journaled?.contains(seq) ?? false }

    /// The number of the run that wrote `seq`, `nil` for a session without runs.
    package func run(of seq: UInt64) -> Int? { runs.run(of: seq)?.number }
}
