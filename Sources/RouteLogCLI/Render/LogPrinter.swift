import Foundation
import RouteLogCore
import RouteLogLMDB

/// Prints log lines; keeps the replayed state between calls so `--follow` folds incrementally.
final class LogPrinter {
    let session: ResolvedSession
    let json: Bool
    let out: Output
    /// The fold from `from`: the state after each event, its run and whether it is journaled.
    private(set) var lines: LogLines
    private(set) var origin: Int64?
    /// The summary column, kept from one line to the next.
    var summary = SummaryLine()
    /// The first seq to print; events before it are only folded.
    let from: UInt64
    /// The last seq folded so far.
    var folded: UInt64 { lines.seq }
    /// The widths of the event and call-site columns: the widest of the rows printed by
    /// ``print(from:through:)``, at least 38 and 22; later rows (``--follow``) are cut with `…`.
    private(set) var eventWidth = 38
    private(set) var siteWidth = 22
    static let maxEventWidth = 64, maxSiteWidth = 40
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
        let pages = MappedPages(session.store)
        if !json {
            // Size the columns to the widest row of the range (a first pass over the events,
            // without folding), so that long event texts do not push the outcome column right. It
            // stops when both columns are as wide as they may be: no later row can widen them.
            var scratch: [UInt8] = []
            try call {
                try session.log.read(session.id, from: from, through: through) { e in
                    eventWidth = min(Self.maxEventWidth, max(eventWidth, Self.eventWidth(e, scratch: &scratch)))
                    siteWidth = min(Self.maxSiteWidth, max(siteWidth, Self.siteWidth(e, scratch: &scratch)))
                    pages.tick()
                    return eventWidth < Self.maxEventWidth || siteWidth < Self.maxSiteWidth
                }
            }
        }
        try call {
            try session.log.read(session.id, from: from, through: through) { e in
                print(e)
                pages.tick()
                return true
            }
        }
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
            if let boundary = marks.boundary(before: e.seq) { out.line(out.paint(boundary, .dim)) }
            out.line { writeTextLine(e, into: &$0) }
        }
    }

    func jsonLine(_ e: StoredEvent) -> String {
        lines.line(e).canonicalText
    }
}
