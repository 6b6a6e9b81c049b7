import RouteLogCore
import RouteLogTimeline

// The text line of `routelog log`, written as UTF-8 straight into the output buffer: `log` writes
// a million of these, so no String is built per line or per field (but for a field cut with `…`).

extension LogPrinter {
    /// The text line of `e`, as ``writeTextLine(_:into:)`` writes it.
    func textLine(_ e: StoredEvent) -> String {
        var bytes: [UInt8] = []
        writeTextLine(e, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the text line of `e` as UTF-8: the columns two spaces apart, padded to their widths,
    /// painted as ``Output/paint(_:_:)`` paints (an empty field is not painted).
    func writeTextLine(_ e: StoredEvent, into b: inout [UInt8]) {
        let colors = out.colors
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
        if marks.journaled != nil { column(9, .yellow, ascii: true) { if marks.isJournaled(e.seq) { $0.appendUTF8("recovered") } } }
        column(9, ascii: true) { b in
            if meta.timestamp == 0 || origin == nil || origin == 0 {
                b.append(UInt8(ascii: "-"))
            } else {
                Render.writeRelativeTime(meta.timestamp, from: origin!, into: &b)
            }
        }
        column(Self.originWidth, ascii: true) { $0.appendUTF8(meta.origin.rawValue) }
        truncatedColumn(eventWidth) { EventText.write(e.recorded.event, into: &$0) }
        column(23, e.outcome.isApplied ? .green : .boldRed, ascii: true) { Render.writeOutcome(e.outcome, into: &$0) }
        truncatedColumn(siteWidth) { Self.writeSite(meta.callSite, into: &$0) }
        if colors { Self.open(.cyan, into: &b) }
        summary.update(lines.state, after: e)
        b += summary.bytes
        if colors { b += Self.reset }
        if let note = meta.note {
            b += Self.gap
            if colors { Self.open(.dim, into: &b) }
            b.appendUTF8("# ")
            b.appendUTF8(note)
            if colors { b += Self.reset }
        }
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
