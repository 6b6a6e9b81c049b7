import Foundation
@_spi(Tools) import RouteLogCore

/// Replaces payload strings and numbers with stable hashes; with `ids`, route and tab ids too.
/// Types, styles, tokens and the shape of everything are kept. Every hash is ``StableHasher``'s
/// (never `Hasher`, which is seeded per process), so the same input gives the same file.
package struct Redactor {
    /// Whether route ids and tab ids are hashed too.
    package var ids = false

    package func redact(_ e: RecordedEvent) -> RecordedEvent {
        var meta = e.meta
        meta.note = meta.note.map(Self.hash)
        return RecordedEvent(redact(e.event), meta: meta)
    }

    package func redact(_ e: Event) -> Event {
        switch e {
        case .push(let r, let f): .push(redact(r), frame: f)
        case .show(let r, let style, let d, let p): .show(redact(r), style: style, dismissible: d, placement: p)
        case .reset(let state): .reset(redact(state))
        case .setTabs(let tabs, let selected): .setTabs(tabs.map(id), selected: selected.map(id))
        case .selectTab(let tab): .selectTab(id(tab))
        case .pop, .popToRoot, .dismiss, .interactiveDismiss: e
        }
    }

    package func redact(_ r: RouteRef) -> RouteRef {
        RouteRef(id: id(r.id), type: r.type, payload: r.payload.map { RawJSON(Self.redact($0.value)) })
    }

    package static func redact(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s): .string(hash(s))
        case .int: .int(number(v.canonicalText))
        case .double: .double(Double(number(v.canonicalText)) / 1000 + 0.0005)  // never a whole number
        case .array(let a): .array(a.map(redact))
        case .object(let o): .object(o.mapValues(redact))
        case .null, .bool: v
        }
    }

    package func redact(_ f: Frame) -> Frame {
        var f = f
        f.path = f.path.map(redact)
        if var p = f.presented {
            p.route = redact(p.route)
            p.content = p.content.map(redact)
            f.presented = p
        }
        return f
    }

    package func redact(_ s: NavigationState) -> NavigationState {
        if let tabs = s.tabs {
            return NavigationState(tabs: tabs.map { Tab(id: id($0.id), root: redact($0.root)) }, selectedTab: id(s.selectedTab ?? ""))
        }
        return NavigationState(root: redact(s.root))
    }

    /// An id as written: hashed (`id-` and 12 hex digits) when ``ids`` is set; an empty id stays
    /// empty, so an event the reducer rejects for its empty id is still rejected.
    package func id(_ text: String) -> String {
        guard ids, !text.isEmpty else { return text }
        var h = StableHasher()
        h.combine("route-id")
        h.combine(text)
        return "id-" + h.finalize().short
    }

    /// `redacted:` and 12 hex digits of a stable hash of the text.
    package static func hash(_ text: String) -> String {
        var h = StableHasher()
        h.combine(text)
        return "redacted:" + h.finalize().short
    }

    /// A stable hash of a number's text, below 10^9: a number that stays a number (an app's
    /// `Int` or `Double` field still decodes) and fits any JSON reader's integers.
    package static func number(_ text: String) -> Int64 {
        var h = StableHasher()
        h.combine("number")
        h.combine(text)
        return Int64(h.finalize().lo % 1_000_000_000)
    }
}
