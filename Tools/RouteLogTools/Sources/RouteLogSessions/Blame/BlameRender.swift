@_spi(Tools) import RouteLogCore

/// Renderings of ``Blame`` and ``Lifetimes``, shared by `routelog blame`, `routelog lifetimes` and
/// the MCP server's tools.
package enum BlameRender {
    /// `replacingTop`, `onTop`, `in root`, `in #12`.
    package static func placement(_ p: Placement) -> String {
        switch p {
        case .replacingTop: "replacingTop"
        case .onTop: "onTop"
        case .in(let f): "in \(f)"
        }
    }

    /// One element as JSON: what it is, where, the event that put it there and the one that took it away.
    /// `events` gives the short text of an event by seq (`push thread`), when known.
    package static func json(_ l: Lifetime, events: [UInt64: String] = [:], at seq: UInt64? = nil) -> JSONValue {
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
    package static func elements(_ b: Blame) -> [Int] {
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
    package static func namedSeqs(_ b: Blame) -> [UInt64] {
        var seqs = Set<UInt64>()
        for i in elements(b) {
            seqs.insert(b.put(i))
            if let e = b[i].end { seqs.insert(e) }
        }
        return seqs.sorted()
    }

    /// `routelog blame --json`: `{"seq", "digest", "elements": [...]}`.
    package static func json(_ b: Blame, events: [UInt64: String]) -> JSONValue {
        .object([
            "seq": .int(Int64(b.seq)), "digest": .string(b.state.digest.hex),
            "elements": .array(elements(b).map { json(b[$0], events: events, at: b.seq) }),
        ])
    }
}
