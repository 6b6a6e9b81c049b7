@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// Renderings of ``Blame`` and ``Lifetimes``, shared by `routelog blame`, `routelog lifetimes` and
/// the MCP server's tools.
enum BlameRender {
    /// `replacingTop`, `onTop`, `in root`, `in #12`.
    static func placement(_ p: Placement) -> String {
        switch p {
        case .replacingTop: "replacingTop"
        case .onTop: "onTop"
        case .in(let f): "in \(f)"
        }
    }

    /// One element as JSON: what it is, where, the event that put it there and the one that took it away.
    /// `events` gives the short text of an event by seq (`push thread`), when known.
    static func json(_ l: Lifetime, events: [UInt64: String] = [:], at seq: UInt64? = nil) -> JSONValue {
        let put = seq.map { l.lastChange(through: $0) } ?? l.lastChange
        var o: [String: JSONValue] = [
            "kind": .string(l.kind.rawValue), "id": .string(l.routeID), "depth": .int(Int64(l.depth)),
            "frame": .string(l.frame.description),
            "start": .int(Int64(l.start)), "createdBy": .string(l.createdBy.rawValue),
            "put": .int(Int64(put)),
            "updates": .array(l.updates.map { .int(Int64($0)) }),
            "end": l.end.map { .int(Int64($0)) } ?? .null,
            "endedBy": l.endedBy.map { .string($0.rawValue) } ?? .null,
        ]
        if let t = l.tab { o["tab"] = .string(t) }
        if let i = l.index { o["index"] = .int(Int64(i)) }
        if let s = l.style { o["style"] = .string(s.rawValue) }
        if let t = l.token { o["token"] = .int(Int64(t)) }
        if let p = l.placement { o["placement"] = .string(placement(p)) }
        if let e = events[put] { o["putEvent"] = .string(e) }
        if let end = l.end, let e = events[end] { o["endEvent"] = .string(e) }
        return .object(o)
    }

    /// The blamed state's elements in tree order: the selection, then per root its tab, its stack,
    /// and its chain (each presentation, then its stack).
    static func elements(_ b: Blame) -> [Int] {
        var out: [Int] = []
        if let s = b.layout.selection { out.append(s) }
        for root in b.layout.roots {
            if let t = root.tab { out.append(t) }
            out += root.path
            for level in root.chain { out.append(level.presentation); out += level.path }
        }
        return out
    }

    /// The seqs whose events a blame names: the last change and the end of each element.
    static func namedSeqs(_ b: Blame) -> [UInt64] {
        var seqs = Set<UInt64>()
        for i in elements(b) {
            seqs.insert(b.put(i))
            if let e = b[i].end { seqs.insert(e) }
        }
        return seqs.sorted()
    }

    /// `routelog blame --json`: `{"seq", "digest", "elements": [...]}`.
    static func json(_ b: Blame, events: [UInt64: String]) -> JSONValue {
        .object([
            "seq": .int(Int64(b.seq)), "digest": .string(b.state.digest.hex),
            "elements": .array(elements(b).map { json(b[$0], events: events, at: b.seq) }),
        ])
    }

    /// The state as `routelog state` prints its tree, each line prefixed with the seq and the short
    /// form of the event that put its element there (blank for lines that name no element), and
    /// followed by where it was removed, if it was.
    static func lines(_ b: Blame, events: [UInt64: String], width: Int = 32) -> [String] {
        let seqWidth = String(b.lifetimes.seq).count
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - Render.visibleWidth(s))) }
        func prefix(_ i: Int?) -> String {
            guard let i else { return pad("", seqWidth) + "  " + pad("", width) + " │ " }
            let l = b[i]
            let put = b.put(i)
            let text = Render.truncate(events[put] ?? (put == l.start ? l.createdBy.rawValue : "show"), width)
            let seq = String(put)
            return String(repeating: " ", count: max(0, seqWidth - seq.count)) + seq + "  " + pad(text, width) + " │ "
        }
        func removal(_ i: Int?) -> String {
            guard let i, let end = b[i].end else { return "" }
            return "  ⟶ removed at \(end) (\(events[end] ?? b[i].endedBy?.rawValue ?? "?"))"
        }
        var out: [String] = []
        for (line, element) in Render.treeLines(b.state) {
            let index: Int? = switch element {
            case nil: nil
            case .tab(let t): b.layout.roots[t].tab
            case .entry(let t, let level, let i): level == 0 ? b.layout.roots[t].path[i] : b.layout.roots[t].chain[level - 1].path[i]
            case .presentation(let t, let level): b.layout.roots[t].chain[level].presentation
            }
            var text = prefix(index) + line + removal(index)
            if case .tab(let t) = element, b.layout.roots[t].tab != nil, b.state.tabs?[t].id == b.state.selectedTab, let s = b.layout.selection {
                text += "  selected by \(b[s].start) (\(events[b[s].start] ?? b[s].createdBy.rawValue))" + removal(s).replacingOccurrences(of: "removed", with: "unselected")
            }
            out.append(text)
        }
        return out
    }

    /// The visible widths of `row(l, events: [:])`, counted without building its text: the first of
    /// the two passes `routelog lifetimes` makes over its rows (a million rows are never held as text).
    static func rowWidths(_ l: Lifetime) -> [Int] {
        func digits(_ n: UInt64) -> Int {
            var n = n, d = 1
            while n >= 10 { n /= 10; d += 1 }
            return d
        }
        let kind = l.kind == .presentation ? (l.style?.rawValue ?? "presentation") : "push"
        var place = l.tab.map { Render.visibleWidth($0) + 3 } ?? 0
        switch l.kind {
        case .entry: place += Render.visibleWidth(l.frame.description) + 3 + String(l.index ?? 0).utf8.count
        case .presentation: place += 6 + digits(UInt64(l.depth + 1)) + (l.token.map { 2 + digits($0) } ?? 0)
        default: place += Render.visibleWidth(l.routeID)
        }
        return [
            digits(l.start) + 1 + l.createdBy.rawValue.utf8.count,
            l.end.map { digits($0) + 1 + (l.endedBy?.rawValue.utf8.count ?? 0) } ?? 1,
            kind.utf8.count, Render.visibleWidth(l.routeID), place,
            l.updates.isEmpty ? 0 : 8 + l.updates.reduce(l.updates.count - 1) { $0 + digits($1) },
        ]
    }

    /// `routelog lifetimes` as table rows: start, end, kind, route, where, updates.
    static func row(_ l: Lifetime, events: [UInt64: String]) -> [String] {
        let kind = l.kind == .presentation ? (l.style?.rawValue ?? "presentation") : "push"
        var place = l.tab.map { "[\($0)] " } ?? ""
        switch l.kind {
        case .entry: place += "\(l.frame) [\(l.index ?? 0)]"
        case .presentation: place += "level \(l.depth + 1)" + (l.token.map { " #\($0)" } ?? "")
        default: place += l.routeID
        }
        return [
            String(l.start) + " " + (events[l.start] ?? l.createdBy.rawValue),
            l.end.map { String($0) + " " + (events[$0] ?? l.endedBy?.rawValue ?? "") } ?? "-",
            kind, l.routeID, place, l.updates.isEmpty ? "" : "updated " + l.updates.map(String.init).joined(separator: ","),
        ]
    }
}
