@_spi(Tools) import RouteLogCore

/// Encodes timeline entries as the compact JSON the page reads.
///
/// A chunk is `{"from": N, "sites": [...], "outcomes": [...], "events": [...]}`: `sites` and
/// `outcomes` are the chunk's own tables (the page merges them into its tables as it appends
/// the chunk), and each event is an array
/// `[t, origin, text, outcome, site, prefix, removed, inserted, changes, note, ids]`:
///
/// - `t`: milliseconds since the session's first event, or null when unknown;
/// - `origin`: an index into `Origin.allCases` (the page's `origins`);
/// - `outcome`, `site`: indices into the tables (`site` is -1 when there is no call site);
/// - `prefix`, `removed`, `inserted`: the ``Timeline/Splice`` of the canonical state text;
/// - `changes`: the state diff from the previous seq, `[[path, old, new]]`: each side is null
///   when absent, else `[offset, length]`, the UTF-16 range of the value's canonical text in the
///   state text before (old) or after (new) the event (or the text itself, should it not be found);
/// - `note`: the event's note, or null;
/// - `ids`: the route and tab ids the event names (the page's search looks at them).
///
/// Chunks are independent, so a live page can append chunk after chunk from any encoder that
/// knows the session's first timestamp.
public struct TimelineEncoder: Sendable {
    /// The timestamp of the session's first event (times are shown relative to it).
    public private(set) var origin: Int64?
    /// The tables of the chunk being encoded.
    private(set) var sites: [JSONValue] = []
    private(set) var outcomes: [JSONValue] = []
    private var siteIndex: [String: Int] = [:]
    private var outcomeIndex: [String: Int] = [:]

    /// - Parameter origin: the timestamp of the session's first event, when the chunks to come
    ///   do not start at seq 1.
    public init(origin: Int64? = nil) { self.origin = origin }

    static let originNames: [String] = Origin.allCases.map(\.rawValue)

    /// The chunk of `entries` (consecutive, the first one at `entries[0].seq`).
    public mutating func chunk(_ entries: ArraySlice<Timeline.Entry>) -> JSONValue {
        sites = []
        outcomes = []
        siteIndex = [:]
        outcomeIndex = [:]
        var events: [JSONValue] = []
        events.reserveCapacity(entries.count)
        for e in entries { events.append(event(e)) }
        return .object([
            "from": .int(Int64(entries.first?.seq ?? 0)), "sites": .array(sites), "outcomes": .array(outcomes),
            "events": .array(events),
        ])
    }

    /// One event as the page's array; its call site and outcome join the tables of the chunk
    /// being encoded.
    mutating func event(_ e: Timeline.Entry) -> JSONValue {
        if e.seq == 1 { origin = e.timestamp }
        let t: JSONValue
        if let origin, origin != 0, e.timestamp != 0 { t = .int(e.timestamp - origin) } else { t = .null }
        let outcome = e.outcome.description
        let o: Int
        if let i = outcomeIndex[outcome] { o = i } else {
            o = outcomeIndex.count
            outcomeIndex[outcome] = o
            outcomes.append(.string(outcome))
        }
        var site = -1
        if let s = e.callSite {
            if let i = siteIndex[s] { site = i } else {
                site = siteIndex.count
                siteIndex[s] = site
                sites.append(.string(s))
            }
        }
        let changes: [JSONValue] = zip(e.changes, e.changeRanges).map { c, r in
            func side(_ value: JSONValue?, _ range: Range<Int>?) -> JSONValue {
                guard let value else { return .null }
                guard let range else { return .string(value.canonicalText) }
                return .array([.int(Int64(range.lowerBound)), .int(Int64(range.count))])
            }
            return .array([.string(c.path), side(c.old, r.old), side(c.new, r.new)])
        }
        return .array([
            t, .int(Int64(Self.originNames.firstIndex(of: e.origin.rawValue) ?? 0)), .string(e.text), .int(Int64(o)),
            .int(Int64(site)), .int(Int64(e.splice.prefix)), .int(Int64(e.splice.removed)), .string(e.splice.inserted),
            .array(changes), e.note.map(JSONValue.string) ?? .null, .array(e.ids.map(JSONValue.string)),
        ])
    }
}

extension Timeline {
    /// The page's data document: header, initial state text (the state at seq 0, `base`), tables
    /// and every event.
    ///
    /// - Parameter extra: members added to the document (`live` for the server's page,
    ///   `fixture` for a failing fixture's page, `runs` for a session's runs).
    public func document(extra: [String: JSONValue] = [:]) -> JSONValue {
        var encoder = TimelineEncoder()
        var o = Self.members(header: header, initialSeq: 0, initialStateJSON: initialStateJSON, openAt: openAt,
                             lanes: lanes, screens: screens, extra: extra)
        o["chunk"] = encoder.chunk(entries[...])
        return .object(o)
    }

    /// The data document's members other than its `chunk`.
    static func members(header: Header, initialSeq: UInt64, initialStateJSON: String, openAt: UInt64?, lanes: JSONValue?,
                        screens: JSONValue? = nil, extra: [String: JSONValue]) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            "format": .string("routelog-timeline/1"),
            "header": header.json,
            "base": .int(Int64(initialSeq)),
            "initial": .string(initialStateJSON),
            "origins": .array(TimelineEncoder.originNames.map(JSONValue.string)),
            "openAt": openAt.map { .int(Int64($0)) } ?? .null,
        ]
        if let lanes { o["lanes"] = lanes }
        if let screens { o["screens"] = screens }
        for (k, v) in extra { o[k] = v }
        return o
    }

    /// The self-contained HTML page for this timeline.
    public func html(extra: [String: JSONValue] = [:]) -> String {
        TimelinePage.html(data: document(extra: extra))
    }
}
