import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// Text renderings of states, events and outcomes.
enum Render {
    // MARK: - Routes and events

    /// `thread-42` or `thread-42 {"id":42}` with its payload.
    static func route(_ r: RouteRef, payload: Bool = true) -> String {
        var s = r.id
        if payload, let p = r.payload { s += " " + p.text }
        return s
    }

    static func frame(_ f: FrameRef) -> String {
        switch f {
        case .root: "root"
        case .presentation(let t): "#\(t)"
        }
    }

    /// The outcome as the library spells it (``Outcome/description``): `applied`,
    /// `applied:updatedInPlace` or `rejected:stale`; rejected outcomes in bold red on a terminal.
    static func outcome(_ o: Outcome, _ out: Output) -> String {
        switch o {
        case .applied: out.paint(o.description, .green)
        case .rejected: out.paint(o.description, .boldRed)
        }
    }

    /// ``Outcome/description`` as UTF-8 bytes appended to `b` (`log` writes one per line).
    static func writeOutcome(_ o: Outcome, into b: inout [UInt8]) {
        switch o {
        case .applied(.changed): b.appendUTF8("applied")
        case .applied(let d): b.appendUTF8("applied:"); b.appendUTF8(d.rawValue)
        case .rejected(let r): b.appendUTF8("rejected:"); b.appendUTF8(r.rawValue)
        }
    }

    /// `s` cut to `width` visible characters, ending in `…` when cut.
    static func truncate(_ s: String, _ width: Int) -> String {
        guard visibleWidth(s) > width, width >= 1 else { return s }
        return String(s.prefix(width - 1)) + "…"
    }

    // MARK: - States

    /// The state as an indented tree, one line per frame, route and presentation.
    static func tree(_ state: NavigationState) -> [String] { treeLines(state).map(\.text) }

    /// What a line of ``tree(_:)`` shows: a tab (by its index), a route (root, presentations
    /// above the root stack, index on the stack), a presentation (root, its index in the chain),
    /// or nothing of its own (`nil`: a `path:` or `root` heading).
    enum TreeElement: Equatable {
        case tab(Int)
        case entry(root: Int, level: Int, index: Int)
        case presentation(root: Int, level: Int)
    }

    /// ``tree(_:)``'s lines, each with the element it shows (`routelog blame` prefixes each with its cause).
    static func treeLines(_ state: NavigationState) -> [(text: String, element: TreeElement?)] {
        var lines: [(text: String, element: TreeElement?)] = []
        // A frame presents at most one presentation, whose content is one frame: the chain is a
        // list, walked with a loop (no recursion, however deep a session nests its sheets).
        func frame(_ start: Frame, _ startIndent: String, root t: Int) {
            var current: Frame? = start
            var indent = startIndent
            var level = 0
            while let f = current {
                if f.path.isEmpty {
                    lines.append(("\(indent)path: (empty)", nil))
                } else {
                    lines.append(("\(indent)path:", nil))
                    for (i, r) in f.path.enumerated() {
                        lines.append(("\(indent)  [\(i)] \(route(r))" + (r.type.map { "  (\($0))" } ?? ""), .entry(root: t, level: level, index: i)))
                    }
                }
                guard let p = f.presented else { return }
                var head = "\(indent)\(p.style.rawValue) #\(p.token): \(route(p.route))" + (p.route.type.map { "  (\($0))" } ?? "")
                if !p.dismissible { head += "  [not dismissible]" }
                lines.append((head, .presentation(root: t, level: level)))
                current = p.content
                indent += "  "
                level += 1
            }
        }
        if let tabs = state.tabs {
            for (i, t) in tabs.enumerated() {
                lines.append(("tab \(t.id)" + (t.id == state.selectedTab ? "  (selected)" : ""), .tab(i)))
                frame(t.root, "  ", root: i)
            }
        } else {
            lines.append(("root", nil))
            frame(state.root, "  ", root: 0)
        }
        return lines
    }

    // MARK: - Times

    /// `+1.250s`, `+2m03.400s`, `+1h02m03.400s`; the offset from the session's first event.
    static func relativeTime(_ ms: Int64, from origin: Int64) -> String {
        var bytes: [UInt8] = []
        writeRelativeTime(ms, from: origin, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``relativeTime(_:from:)`` as UTF-8 bytes appended to `b` (`log` writes one per line).
    static func writeRelativeTime(_ ms: Int64, from origin: Int64, into b: inout [UInt8]) {
        let d = ms - origin
        b.append(d < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let a = d.magnitude
        let millis = a % 1000, secs = a / 1000
        if secs < 60 {
            b.appendDecimal(secs)
        } else if secs < 3600 {
            b.appendDecimal(secs / 60)
            b.append(UInt8(ascii: "m"))
            b.appendDecimal(secs % 60, width: 2)
        } else {
            b.appendDecimal(secs / 3600)
            b.append(UInt8(ascii: "h"))
            b.appendDecimal(secs / 60 % 60, width: 2)
            b.append(UInt8(ascii: "m"))
            b.appendDecimal(secs % 60, width: 2)
        }
        b.append(UInt8(ascii: "."))
        b.appendDecimal(millis, width: 3)
        b.append(UInt8(ascii: "s"))
    }

    /// A UTC time, `2026-11-22T21:43:54.123Z`, or `-` when unknown.
    static func time(_ ms: Int64?) -> String {
        guard let ms, ms != 0 else { return "-" }
        return ISO8601.format(milliseconds: ms)
    }

    // MARK: - Tables

    /// Pads columns to a common width (the last column is left as is).
    static func table(_ rows: [[String]]) -> [String] {
        guard let n = rows.map(\.count).max(), n > 0 else { return [] }
        var widths = [Int](repeating: 0, count: n)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], visibleWidth(cell)) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - visibleWidth(cell))
            }.joined(separator: "  ")
        }
    }

    /// The width of text on a terminal, ignoring ANSI escapes.
    static func visibleWidth(_ s: String) -> Int {
        // Unicode scalars, counted on the UTF-8 bytes: every byte but a continuation byte starts one.
        var n = 0
        var inEscape = false
        for b in s.utf8 {
            if inEscape { if b == UInt8(ascii: "m") { inEscape = false }; continue }
            if b == 0x1B { inEscape = true; continue }
            if b & 0xC0 != 0x80 { n += 1 }
        }
        return n
    }
}
