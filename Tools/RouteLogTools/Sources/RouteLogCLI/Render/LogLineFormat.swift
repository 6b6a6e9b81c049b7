@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

// The text line of `routelog log`, written as UTF-8 straight into the output buffer: `log` writes
// a million of these, so no String is built per line or per field (but for a field cut with `…`).

/// How `log` lays out its text lines: the columns before the summary, the summary, the note.
/// A value (and `Sendable`), so that the columns of the next events can be written on the thread
/// that reads them while the printing thread folds (see ``LogPrinter/print(from:through:)``).
struct LogLineFormat: Sendable {
    /// Whether ANSI colors are written (``Output/colors``).
    let colors: Bool
    let widths: LogColumnWidths
    /// The time of the session's first event: times are shown relative to it.
    let origin: Int64?
    /// The seqs shown from a crashed app's journal (``RunMarks/journaled``); with any, a column
    /// marks them.
    let journaled: ClosedRange<UInt64>?

    /// The whole text line of `e`: ``writeColumns(_:into:)``, the summary of the state after it
    /// (`summary`), ``writeNote(_:into:)``.
    func writeLine(_ e: StoredEvent, summary: [UInt8], into b: inout [UInt8]) {
        writeColumns(e, into: &b)
        writeSummary(summary, into: &b)
        writeNote(e, into: &b)
    }

    /// The summary column, painted.
    func writeSummary(_ summary: [UInt8], into b: inout [UInt8]) {
        if colors { Self.open(.cyan, into: &b) }
        b += summary
        if colors { b += Self.reset }
    }

    /// Writes the columns of `e` before the summary as UTF-8, each padded to its width and
    /// followed by the two spaces between columns, painted as ``Output/paint(_:_:)`` paints (an
    /// empty field is not painted).
    func writeColumns(_ e: StoredEvent, into b: inout [UInt8]) {
        let meta = e.recorded.meta
        /// Writes one field with `body`, painted in `style`, padded to `width` visible characters
        /// and followed by the gap between columns. `ascii`: what `body` writes is ASCII without
        /// escapes, so its width is its length.
        func column(_ width: Int, _ style: Output.Style? = nil, ascii: Bool = false, _ body: (inout [UInt8]) -> Void) {
            let paint = colors && style != nil
            let escape = b.count
            if paint { Self.open(style!, into: &b) }
            let start = b.count
            body(&b)
            let visible = ascii ? b.count - start : Self.width(b, from: start)
            if paint { if b.count == start { b.removeSubrange(escape...) } else { b += Self.reset } }
            Self.spaces(width - visible, gap: true, into: &b)
        }
        /// Writes what `body` writes, cut to `width` as ``Render/truncate(_:_:)`` cuts it, padded to `width`.
        func truncatedColumn(_ width: Int, _ body: (inout [UInt8]) -> Void) {
            column(width) { b in
                let start = b.count
                body(&b)
                guard width >= 1, Self.width(b, from: start) > width else { return }
                // Rare (a text wider than its column's limit): cut on the String, by Characters.
                let cut = Render.truncate(String(decoding: b[start...], as: UTF8.self), width)
                b.removeSubrange(start...)
                b.appendUTF8(cut)
            }
        }
        // The seq right-aligned in 4, painted with its padding.
        if colors { Self.open(.bold, into: &b) }
        Self.spaces(4 - Self.digitCount(e.seq), gap: false, into: &b)
        b.appendDecimal(e.seq)
        if colors { b += Self.reset }
        b += Self.gap
        if let journaled { column(9, .yellow, ascii: true) { if journaled.contains(e.seq) { $0.appendUTF8("recovered") } } }
        column(9, ascii: true) { b in
            if meta.timestamp == 0 || origin == nil || origin == 0 {
                b.append(UInt8(ascii: "-"))
            } else {
                Render.writeRelativeTime(meta.timestamp, from: origin!, into: &b)
            }
        }
        column(LogPrinter.originWidth, ascii: true) { $0.appendUTF8(meta.origin.rawValue) }
        truncatedColumn(widths.event) { EventText.write(e.recorded.event, into: &$0) }
        column(23, e.outcome.isApplied ? .green : .boldRed, ascii: true) { Render.writeOutcome(e.outcome, into: &$0) }
        truncatedColumn(widths.site) { Self.writeSite(meta.callSite, into: &$0) }
    }

    /// Writes what follows the summary: the note of `e`, if it has one.
    func writeNote(_ e: StoredEvent, into b: inout [UInt8]) {
        guard let note = e.recorded.meta.note else { return }
        b += Self.gap
        if colors { Self.open(.dim, into: &b) }
        b.appendUTF8("# ")
        b.appendUTF8(note)
        if colors { b += Self.reset }
    }

    /// The call-site column: `file:line`, or `-` without a call site.
    static func writeSite(_ site: CallSite?, into b: inout [UInt8]) {
        guard let site else { return b.append(UInt8(ascii: "-")) }
        b.appendUTF8(site.file)
        b.append(UInt8(ascii: ":"))
        b.appendDecimal(site.line)
    }

    /// The visible width of the call-site column of `e` before it is cut (`scratch` is reused).
    static func siteWidth(_ e: StoredEvent, scratch: inout [UInt8]) -> Int {
        scratch.removeAll(keepingCapacity: true)
        writeSite(e.recorded.meta.callSite, into: &scratch)
        return width(scratch, from: 0)
    }

    /// The visible width of the event column of `e` before it is cut (`scratch` is reused).
    static func eventWidth(_ e: StoredEvent, scratch: inout [UInt8]) -> Int {
        scratch.removeAll(keepingCapacity: true)
        EventText.write(e.recorded.event, into: &scratch)
        return width(scratch, from: 0)
    }

    private static func open(_ style: Output.Style, into b: inout [UInt8]) {
        b += escape
        b.appendUTF8(style.rawValue)
        b.append(UInt8(ascii: "m"))
    }

    private static let escape: [UInt8] = [0x1B, UInt8(ascii: "[")]
    private static let reset = Array("\u{1B}[0m".utf8)
    private static let gap: [UInt8] = [0x20, 0x20]
    private static let blanks = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Appends `n` spaces (none when `n` ≤ 0), and with `gap` the two spaces between columns.
    private static func spaces(_ n: Int, gap: Bool, into b: inout [UInt8]) {
        var n = max(n, 0) + (gap ? 2 : 0)
        while n > 0 {
            let run = min(n, blanks.count)
            b += blanks[..<run]
            n -= run
        }
    }

    /// The number of decimal digits of `v`.
    private static func digitCount(_ v: UInt64) -> Int {
        var n = 1
        var rest = v
        while rest >= 10 { rest /= 10; n += 1 }
        return n
    }

    /// ``Render/visibleWidth(_:)`` of the bytes of `b` from `start`.
    static func width(_ b: [UInt8], from start: Int) -> Int {
        b.withUnsafeBufferPointer { p in
            var n = 0
            var inEscape = false
            for c in p[start...] {
                if inEscape { if c == UInt8(ascii: "m") { inEscape = false }; continue }
                if c == 0x1B { inEscape = true; continue }
                if c & 0xC0 != 0x80 { n += 1 }
            }
            return n
        }
    }
}

/// The columns before the summary and the notes of a chunk of events, written by a
/// ``LogLineFormat`` on the thread that reads them.
struct PreparedColumns: Sendable {
    private var bytes: [UInt8] = []
    /// Where event `i`'s columns and note end in `bytes` (its columns start where the note of
    /// event `i − 1` ends).
    private var ends: [(columns: Int, note: Int)] = []

    init(_ events: [StoredEvent], _ format: LogLineFormat) {
        bytes.reserveCapacity(events.count * 160)
        ends.reserveCapacity(events.count)
        for e in events {
            format.writeColumns(e, into: &bytes)
            let columns = bytes.count
            format.writeNote(e, into: &bytes)
            ends.append((columns, bytes.count))
        }
    }

    /// The columns of event `i`.
    func columns(_ i: Int) -> ArraySlice<UInt8> { bytes[(i > 0 ? ends[i - 1].note : 0)..<ends[i].columns] }
    /// The note of event `i` (empty without one).
    func note(_ i: Int) -> ArraySlice<UInt8> { bytes[ends[i].columns..<ends[i].note] }
}
