import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// Prints log lines; keeps the replayed state between calls so `--follow` folds incrementally.
final class LogPrinter {
    let session: ResolvedSession
    let json: Bool
    let out: Output
    /// The fold from `from`: the state after each event, its run and whether it is journaled.
    private var lines: LogLines
    private var origin: Int64?
    /// The summary column, kept from one line to the next.
    private var summary = SummaryLine()
    /// The first seq to print; events before it are only folded.
    let from: UInt64
    /// The last seq folded so far.
    var folded: UInt64 { lines.seq }
    /// The widths of the event and call-site columns: the widest of the rows printed by
    /// ``print(from:through:)``, at least 38 and 22; later rows (``--follow``) are cut with `…`.
    private(set) var widths = LogColumnWidths()
    var eventWidth: Int { widths.event }
    var siteWidth: Int { widths.site }
    static let maxEventWidth = LogColumnWidths.maxEvent, maxSiteWidth = LogColumnWidths.maxSite
    /// The session's runs and the seqs a reader shows from a crashed app's journal (the run
    /// boundaries are drawn by `RunBoundary.swift`).
    let marks: RunMarks
    /// The origin column: as wide as the longest origin (`deepLink`).
    static let originWidth = Origin.allCases.map(\.rawValue.count).max() ?? 6

    init(session: ResolvedSession, json: Bool, out: Output, from: UInt64) throws {
        self.session = session
        self.json = json
        self.out = out
        self.from = from
        lines = try LogLines(session, from: from)
        marks = lines.marks
        if session.info.eventCount >= 1, let e = try session.event(at: 1) { origin = e.meta.timestamp }
    }

    func print(from: UInt64, through: UInt64) throws {
        if !json {
            // Size the columns to the widest row of the range (a first pass over the events,
            // without folding), so that long event texts do not push the outcome column right. It
            // stops when both columns are as wide as they may be: no later row can widen them.
            // A stored session's long range is sized on two threads, half each (a crashed app's
            // journal, read after the stored events, is read on one).
            try call {
                if session.store != nil && marks.journaled == nil {
                    try widths.fitInParallel(session, from: from, through: through)
                } else {
                    try widths.fit(session, from: from, through: through)
                }
            }
        }
        let pages = MappedPages(session.store)
        // A text line costs more than reading its event: the next events are read meanwhile, on
        // a thread that also writes their columns up to the summary (all but the summary and the
        // fold it needs are known once the columns are sized). A JSON line is read on this
        // thread: reading ahead saved no time there, handing each event's strings over cost some.
        guard !json, origin != nil else {
            return try call {
                // The lines fold the events themselves (the state after each, and its digest).
                try session.log.readWithoutDigests(session.id, from: from, through: through) { e in
                    print(e)
                    pages.tick()
                    return true
                }
            }
        }
        let format = self.format
        try call {
            try ReadAhead.read(session.log, session.id, from: from, through: through,
                               prepare: { PreparedColumns($0, format) }) { events, prepared in
                for i in events.indices {
                    print(events[i], prepared, i, format)
                    pages.tick()
                }
                return true
            }
        }
    }

    /// ``print(_:)`` for a text line whose columns were written beforehand (`prepared`, the
    /// chunk's, `e` its `i`-th event), in `format`.
    private func print(_ e: StoredEvent, _ prepared: PreparedColumns, _ i: Int, _ format: LogLineFormat) {
        lines.fold(e)
        guard e.seq >= from else { return }
        if e.seq == 1 { Self.printDivergences(lines.screens, after: 0, to: out) }
        if let boundary = marks.boundary(before: e.seq) { out.line(out.paint(boundary, .dim)) }
        out.line { b in
            b += prepared.columns(i)
            summary.update(lines.state, after: e)
            format.writeSummary(summary.bytes, into: &b)
            b += prepared.note(i)
        }
        Self.printDivergences(lines.screens, after: e.seq, to: out)
    }

    /// The error that kept the session's divergences from being marked (a damaged screen record).
    var divergenceError: RouteLogError? { lines.screens.error }

    /// The divergences of `marks` found after event `seq`, a line each (what a session without
    /// events prints too).
    static func printDivergences(_ marks: DivergenceMarks, after seq: UInt64, to out: Output) {
        for d in marks.after(seq) { out.line("      " + out.paint("! " + d.divergence.markText, .yellow)) }
    }

    /// Prints one event (the next one after those printed so far).
    func print(_ e: StoredEvent) {
        if origin == nil { origin = e.meta.timestamp }
        // Fold the event to know the state after it (the log's outcome is what is shown).
        lines.fold(e)
        guard e.seq >= from else { return }
        if json {
            out.line(jsonLine(e))
        } else {
            if e.seq == 1 { Self.printDivergences(lines.screens, after: 0, to: out) }
            if let boundary = marks.boundary(before: e.seq) { out.line(out.paint(boundary, .dim)) }
            out.line { writeTextLine(e, into: &$0) }
            Self.printDivergences(lines.screens, after: e.seq, to: out)
        }
    }

    func jsonLine(_ e: StoredEvent) -> String {
        lines.line(e).canonicalText
    }

    /// How the text lines are laid out, once the columns are sized.
    var format: LogLineFormat { LogLineFormat(colors: out.colors, widths: widths, origin: origin, journaled: marks.journaled) }

    /// The text line of `e`, the event folded last.
    func textLine(_ e: StoredEvent) -> String {
        var bytes: [UInt8] = []
        writeTextLine(e, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the text line of `e`, the event folded last (see ``LogLineFormat``).
    func writeTextLine(_ e: StoredEvent, into b: inout [UInt8]) {
        summary.update(lines.state, after: e)
        format.writeLine(e, summary: summary.bytes, into: &b)
    }
}
