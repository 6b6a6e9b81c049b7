import Foundation
import RouteLogCore
import RouteLogLMDB

/// Prints log lines; keeps the replayed state between calls so `--follow` folds incrementally.
final class LogPrinter {
    let session: ResolvedSession
    let json: Bool
    let out: Output
    /// The fold from `from`: the state after each event, its run and whether it is journaled.
    private var lines: LogLines
    private var origin: Int64?
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
            try call {
                try session.log.read(session.id, from: from, through: through) { e in
                    eventWidth = min(Self.maxEventWidth, max(eventWidth, Render.visibleWidth(Render.event(e.event))))
                    siteWidth = min(Self.maxSiteWidth, max(siteWidth, Render.visibleWidth(Self.site(e))))
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

    static func site(_ e: StoredEvent) -> String { e.meta.callSite.map { "\($0.file):\($0.line)" } ?? "-" }

    func textLine(_ e: StoredEvent) -> String {
        var bytes: [UInt8] = []
        writeTextLine(e, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the text line of `e` as UTF-8: the columns two spaces apart, padded to their widths,
    /// painted as ``Output/paint(_:_:)`` paints (`log` writes a million of these: no strings are
    /// built but the event's description).
    func writeTextLine(_ e: StoredEvent, into b: inout [UInt8]) {
        let colors = out.colors
        /// Appends `s` (painted when colors are on and `s` is not empty) and returns its visible width.
        func put(_ s: String, _ style: Output.Style? = nil) -> Int {
            let paint = colors && style != nil && !s.isEmpty
            if paint { b += Self.escape; b += style!.rawValue.utf8; b.append(UInt8(ascii: "m")) }
            let start = b.count
            b += s.utf8
            let width = Self.width(b, from: start)
            if paint { b += Self.reset }
            return width
        }
        func spaces(_ n: Int) { if n > 0 { b.append(contentsOf: repeatElement(UInt8(ascii: " "), count: n)) } }
        func pad(_ s: String, _ w: Int, _ style: Output.Style? = nil) {
            spaces(w - put(s, style))
            b += Self.gap
        }
        let seq = String(e.seq)
        // The seq right-aligned in 4, painted with its padding.
        if colors { b += Self.escape; b += Output.Style.bold.rawValue.utf8; b.append(UInt8(ascii: "m")) }
        spaces(4 - seq.utf8.count)
        b += seq.utf8
        if colors { b += Self.reset }
        b += Self.gap
        if marks.journaled != nil { pad(marks.isJournaled(e.seq) ? "recovered" : "", 9, .yellow) }
        if e.meta.timestamp == 0 || origin == nil || origin == 0 {
            pad("-", 9)
        } else {
            pad(Render.relativeTime(e.meta.timestamp, from: origin!), 9)
        }
        pad(e.meta.origin.rawValue, Self.originWidth)
        pad(Render.truncate(Render.event(e.event), eventWidth), eventWidth)
        switch e.outcome {
        case .applied: pad(e.outcome.description, 23, .green)
        case .rejected: pad(e.outcome.description, 23, .boldRed)
        }
        if let site = e.meta.callSite {
            pad(Render.truncate("\(site.file):\(site.line)", siteWidth), siteWidth)
        } else {
            pad("-", siteWidth)
        }
        if colors { b += Self.escape; b += Output.Style.cyan.rawValue.utf8; b.append(UInt8(ascii: "m")) }
        Render.writeSummary(lines.state, into: &b)
        if colors { b += Self.reset }
        if let note = e.meta.note {
            b += Self.gap
            _ = put("# " + note, .dim)
        }
    }

    private static let escape: [UInt8] = [0x1B, UInt8(ascii: "[")]
    private static let reset = Array("\u{1B}[0m".utf8)
    private static let gap: [UInt8] = [0x20, 0x20]

    /// ``Render/visibleWidth(_:)`` of the bytes of `b` from `start`.
    private static func width(_ b: [UInt8], from start: Int) -> Int {
        var n = 0
        var inEscape = false
        for i in start..<b.count {
            let c = b[i]
            if inEscape { if c == UInt8(ascii: "m") { inEscape = false }; continue }
            if c == 0x1B { inEscape = true; continue }
            if c & 0xC0 != 0x80 { n += 1 }
        }
        return n
    }

    private static let maxSpaces = 64
    private static let spaceRuns: [String] = (0...maxSpaces).map { String(repeating: " ", count: $0) }
    /// `n` spaces (at most ``maxSpaces``).
    static func spaces(_ n: Int) -> String { spaceRuns[min(max(n, 0), maxSpaces)] }
}
