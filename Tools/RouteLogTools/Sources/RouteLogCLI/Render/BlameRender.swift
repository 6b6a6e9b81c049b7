@_spi(Tools) import RouteLogCore

/// The text renderings of ``Blame`` and ``Lifetimes``: `routelog blame` and `routelog lifetimes`.
extension BlameRender {
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
