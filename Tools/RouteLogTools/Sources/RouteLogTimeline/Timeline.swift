@_spi(Tools) import RouteLogCore

/// What the timeline page shows about a session, computed in Swift so that the page never folds
/// an event itself.
///
/// The page receives the canonical JSON text of the state before the first event and, for each
/// event, a ``Splice``: the edit that turns the canonical text of the state before the event into
/// the text after it. Applying the splices in order reproduces, byte for byte, the `"state"`
/// member of `routelog state REF@N --json` at every seq, so the file grows with the number of
/// events plus the size of the changes, not with events × state size. Each event also carries its
/// ``StateDiff`` from the previous seq and its log line (time, origin, description, outcome, call
/// site).
public struct Timeline: Sendable {
    /// The page header.
    public var header: Header
    /// The canonical JSON text of the state at seq 0.
    public var initialStateJSON: String
    /// One entry per event, seq 1 first. (A part of a session, `routelog report --from`, is built
    /// by ``Collector``.)
    public var entries: [Entry]
    /// The seq the page selects when it opens.
    public var openAt: UInt64?
    /// The lanes drawn under the slider (see ``TimelineLanes``), when built from events.
    public var lanes: JSONValue?
    /// The "on screen" lane (see ``ScreenLane``), when the session has screen records; `nil`, the
    /// page has no such lane.
    public var screens: JSONValue?

    public init(header: Header, initialStateJSON: String, entries: [Entry], openAt: UInt64? = nil) {
        self.header = header
        self.initialStateJSON = initialStateJSON
        self.entries = entries
        self.openAt = openAt
    }

    /// The session facts in the page header.
    public struct Header: Hashable, Sendable {
        public var session: String
        public var label: String
        public var app: String?
        public var version: String?
        /// Unix milliseconds, or nil when unknown.
        public var created: Int64?
        public var eventCount: UInt64
        public var headDigest: String
        public init(session: String, label: String, app: String? = nil, version: String? = nil, created: Int64? = nil,
                    eventCount: UInt64, headDigest: String) {
            self.session = session
            self.label = label
            self.app = app
            self.version = version
            self.created = created
            self.eventCount = eventCount
            self.headDigest = headDigest
        }

        public init(_ info: SessionInfo) {
            self.init(session: info.id.rawValue, label: info.label, app: info.appName, version: info.appVersion,
                      created: info.createdAt == 0 ? nil : info.createdAt, eventCount: info.eventCount,
                      headDigest: info.headDigest.hex)
        }

        var json: JSONValue {
            .object([
                "session": .string(session), "label": .string(label), "app": app.map(JSONValue.string) ?? .null,
                "version": version.map(JSONValue.string) ?? .null,
                "created": created.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null,
                "count": .int(Int64(eventCount)), "head": .string(headDigest),
            ])
        }
    }

    /// A text edit in UTF-16 code units (the units of a JavaScript string): keep `prefix` units,
    /// drop the next `removed` units, insert `inserted`. It never splits a surrogate pair.
    public struct Splice: Hashable, Sendable {
        public var prefix: Int
        public var removed: Int
        public var inserted: String

        public static let none = Splice(prefix: 0, removed: 0, inserted: "")

        public init(prefix: Int, removed: Int, inserted: String) {
            self.prefix = prefix
            self.removed = removed
            self.inserted = inserted
        }

        /// The smallest splice turning `old` into `new`: common prefix and suffix are kept.
        public static func between(_ old: String, _ new: String) -> Splice {
            let a = Array(old.utf16), b = Array(new.utf16)
            var p = 0
            let limit = min(a.count, b.count)
            while p < limit, a[p] == b[p] { p += 1 }
            if p > 0, UTF16.isLeadSurrogate(a[p - 1]) { p -= 1 }
            var s = 0
            while s < limit - p, a[a.count - 1 - s] == b[b.count - 1 - s] { s += 1 }
            if s > 0, UTF16.isTrailSurrogate(a[a.count - s]) { s -= 1 }
            return Splice(prefix: p, removed: a.count - p - s, inserted: String(decoding: b[p..<(b.count - s)], as: UTF16.self))
        }

        /// `text` with this splice applied (the page does the same in JavaScript).
        public func apply(to text: String) -> String {
            let u = Array(text.utf16)
            return String(decoding: u[0..<prefix] + Array(inserted.utf16) + u[(prefix + removed)...], as: UTF16.self)
        }
    }

    /// The UTF-16 ranges of a change's old and new values in the state texts before and after it.
    public struct ChangeRange: Hashable, Sendable {
        public var old: Range<Int>?
        public var new: Range<Int>?
    }

    /// The UTF-16 range of `needle` in `haystack`: the first occurrence at or after `hint`, else the
    /// first one before it. Values looked for in the order of the text (a path's routes, one after
    /// another) are each found where the search starts, so finding them all is linear.
    static func find(_ needle: [UInt16], in haystack: [UInt16], from hint: Int = 0) -> Range<Int>? {
        if needle.isEmpty { return 0..<0 }
        let start = min(max(0, hint), haystack.count)
        return find(needle, in: haystack, within: start..<haystack.count) ?? find(needle, in: haystack, within: 0..<min(haystack.count, start + needle.count - 1))
    }

    static func find(_ needle: [UInt16], in haystack: [UInt16], within bounds: Range<Int>) -> Range<Int>? {
        guard let first = needle.first, needle.count <= bounds.count else { return nil }
        var i = bounds.lowerBound
        let last = bounds.upperBound - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i..<(i + needle.count) }
            }
            i += 1
        }
        return nil
    }

    /// One event as the page shows it.
    public struct Entry: Hashable, Sendable {
        public var seq: UInt64
        /// Unix milliseconds, 0 when unknown.
        public var timestamp: Int64
        public var origin: Origin
        public var text: String
        public var outcome: Outcome
        public var callSite: String?
        public var note: String?
        /// The route and tab ids the event names (for the page's search).
        public var ids: [String]
        /// The edit of the canonical state JSON this event made.
        public var splice: Splice
        /// The state diff from the previous seq.
        @_spi(Tools) public var changes: [StateDiff.Change]
        /// Where each change's values sit: the old one in the canonical text of the state before
        /// the event, the new one in the text after it (a canonical value's text is a substring of
        /// its container's), so the page slices them out instead of carrying them twice.
        public var changeRanges: [ChangeRange]
        /// The digest of the state after the event.
        public var digest: Digest
    }

    /// Folds events one at a time with RouteLogCore's ``Replayer`` and records what the page needs.
    ///
    /// An event's splice, changes and ranges come from the part of the state it touched (see
    /// `StateTextLayout`), so adding an event costs the size of its change plus the number of
    /// frames, not the size of the state: a path 100,000 routes deep is never serialized again.
    public struct Builder: Sendable {
        private var replayer: Replayer
        private var layout: StateTextLayout

        /// The state after the last event added.
        public var state: NavigationState { replayer.state }
        /// The seq of the last event added.
        public var seq: UInt64 { replayer.seq }
        /// The canonical JSON text of ``state`` (serialized when asked for).
        public var stateJSON: String { replayer.state.json.canonicalText }

        public init(state: NavigationState = NavigationState(), seq: UInt64 = 0) {
            replayer = Replayer(state: state, seq: seq)
            layout = StateTextLayout(state)
        }

        /// Folds the next event. The outcome shown is `outcome` when given (what the log stored),
        /// else the replay's.
        public mutating func add(_ recorded: RecordedEvent, outcome stored: Outcome? = nil) -> Entry {
            let shape = StateTextLayout.Shape(replayer.state)
            // A push or a pop grows or shrinks a path in place: keeping the state before would
            // make that a copy of the whole path. Other events leave paths alone, and a
            // presentation's old value comes from the state before.
            let before: NavigationState?
            switch recorded.event {
            case .push, .pop, .popToRoot: before = nil
            default: before = replayer.state
            }
            let step = replayer.apply(recorded.event)
            var edit: StateTextLayout.Edit?
            if case .reset = recorded.event {} else if step.outcome.isApplied {
                edit = layout.edit(from: shape, to: StateTextLayout.Shape(replayer.state), after: replayer.state, before: before)
            } else {
                edit = StateTextLayout.Edit(splice: .none, changes: [], ranges: [])
            }
            if edit == nil {
                if let before {
                    edit = Self.wholeEdit(before, replayer.state)
                } else {
                    // Not reached by the reducer's events (a push or a pop edits one path); should
                    // it be, the page still gets the right text, without the changes.
                    let old = layout.totalLength(shape)
                    edit = StateTextLayout.Edit(splice: Splice(prefix: 0, removed: old, inserted: stateJSON), changes: [], ranges: [])
                }
                layout.rebuild(replayer.state)
            }
            let meta = recorded.meta
            return Entry(
                seq: step.seq, timestamp: meta.timestamp, origin: meta.origin, text: EventText.describe(recorded.event),
                outcome: stored ?? step.outcome, callSite: meta.callSite.map { "\($0.file):\($0.line)" }, note: meta.note,
                ids: Self.ids(recorded.event), splice: edit?.splice ?? .none, changes: edit?.changes ?? [],
                changeRanges: edit?.ranges ?? [], digest: step.digest)
        }

        /// The edit between two whole states (for `reset` and `setTabs`, which may change every part).
        static func wholeEdit(_ before: NavigationState, _ after: NavigationState) -> StateTextLayout.Edit {
            guard before != after else { return StateTextLayout.Edit(splice: .none, changes: [], ranges: []) }
            let text = before.json.canonicalText, next = after.json.canonicalText
            let changes = StateDiff.between(before, after).changes
            let a = Array(text.utf16), b = Array(next.utf16)
            var hints = (old: 0, new: 0)
            let ranges = changes.map { c in
                let r = ChangeRange(old: c.old.flatMap { Timeline.find(Array($0.canonicalText.utf16), in: a, from: hints.old) },
                                    new: c.new.flatMap { Timeline.find(Array($0.canonicalText.utf16), in: b, from: hints.new) })
                hints = (r.old?.upperBound ?? hints.old, r.new?.upperBound ?? hints.new)
                return r
            }
            return StateTextLayout.Edit(splice: Splice.between(text, next), changes: changes, ranges: ranges)
        }

        static func ids(_ e: Event) -> [String] {
            switch e {
            case .push(let r, _), .show(let r, _, _, _): [r.id]
            case .setTabs(let ids, let selected): ids + (selected.map { [$0] } ?? [])
            case .selectTab(let id): [id]
            default: []
            }
        }
    }

    /// The timeline of stored events (seq 1 first).
    public static func build(header: Header, events: [StoredEvent], openAt: UInt64? = nil) -> Timeline {
        var b = Builder()
        let initial = b.stateJSON
        var entries: [Entry] = []
        entries.reserveCapacity(events.count)
        for e in events { entries.append(b.add(e.recorded, outcome: e.outcome)) }
        var t = Timeline(header: header, initialStateJSON: initial, entries: entries, openAt: openAt)
        t.lanes = TimelineLanes.json(Lifetimes(events: events.lazy.map(\.event)))
        return t
    }

    /// The timeline of a fixture's events, replayed from the empty state.
    public static func build(header: Header, events: [RecordedEvent], openAt: UInt64? = nil) -> Timeline {
        var b = Builder()
        let initial = b.stateJSON
        let entries = events.map { b.add($0) }
        var t = Timeline(header: header, initialStateJSON: initial, entries: entries, openAt: openAt)
        t.lanes = TimelineLanes.json(Lifetimes(events: events.lazy.map(\.event)))
        return t
    }
}
