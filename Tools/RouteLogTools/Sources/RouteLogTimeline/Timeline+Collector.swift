@_spi(Tools) import RouteLogCore

extension Timeline {
    /// Builds a report page event by event, from the empty state or from the state at any seq (a
    /// part of a session, `routelog report --from`), encoding each event as it comes: the events
    /// are not kept, only their page data, so the page's memory is what the page weighs plus the
    /// screens' lifetimes and the state. It keeps count of that memory (``cost``), so that a caller
    /// can stop before a page grows past what it can hold.
    public struct Collector: Sendable {
        private var builder: Builder
        private var tracker: LifetimeTracker
        private var encoder: TimelineEncoder
        /// The events' page data: script-safe JSON arrays joined by commas.
        private var data: [UInt8] = []
        /// The seq of the state the page starts from.
        public let initialSeq: UInt64
        public let initialStateJSON: String
        /// The events added.
        public private(set) var count = 0
        /// The UTF-16 length of the current state's canonical text.
        private var stateLength: Int
        /// The session's screen records (``RouteLogCore/ScreenRecord``), for the page's "on
        /// screen" lane (``ScreenLane``); none, the page has no such lane.
        public var screenRecords: [ScreenRecord] = []

        /// The memory the page is expected to need, in bytes, until it is written: ``eventCost`` per
        /// event (its screens' lifetimes, its share of the tables), ``byteCost`` per byte of page
        /// data and ``stateByteCost`` per unit of the current state's text (the state is held
        /// several times over while the page is built: a path 100,000 routes deep costs more than
        /// its events' data). The constants were fitted to the peak RSS of the release `routelog
        /// report` on small-state, large-payload and ever-deeper sessions (the tools' manual,
        /// Docs/Timeline.md and Docs/Benchmarks.md).
        public var cost: Int { Self.eventCost * count + Self.byteCost * data.count + Self.stateByteCost * stateLength }

        /// Bytes of peak memory per event, whatever its size.
        public static let eventCost = 200
        /// Bytes of peak memory per byte of page data.
        public static let byteCost = 2
        /// Bytes of peak memory per UTF-16 unit of the current state's text.
        public static let stateByteCost = 8

        /// Starts after `seq`, at `state`.
        ///
        /// - Parameter timeOrigin: the timestamp of the session's first event, when the page does
        ///   not start at seq 1 (times on the page count from it).
        public init(state: NavigationState = NavigationState(), seq: UInt64 = 0, timeOrigin: Int64? = nil) {
            builder = Builder(state: state, seq: seq)
            tracker = seq == 0 ? LifetimeTracker() : LifetimeTracker(state: state, seq: seq)
            encoder = TimelineEncoder(origin: timeOrigin)
            initialSeq = seq
            initialStateJSON = builder.stateJSON
            stateLength = initialStateJSON.utf16.count
        }

        /// The state after the last event added.
        public var state: NavigationState { builder.state }
        /// The seq of the last event added.
        public var seq: UInt64 { builder.seq }

        /// Folds the next event (see ``Builder/add(_:outcome:)``) and encodes it.
        public mutating func add(_ recorded: RecordedEvent, outcome: Outcome? = nil) {
            let entry = builder.add(recorded, outcome: outcome)
            tracker.apply(recorded.event)
            if count > 0 { data.append(UInt8(ascii: ",")) }
            TimelinePage.appendScriptSafe(encoder.event(entry).canonicalText, to: &data)
            count += 1
            stateLength += entry.splice.inserted.utf16.count - entry.splice.removed
        }

        /// The page (as ``Timeline/html(extra:)`` writes it) in parts to be written one after
        /// another; the events' data is one of them, not copied.
        public func page(header: Header, openAt: UInt64? = nil, extra: [String: JSONValue] = [:]) -> [[UInt8]] {
            let members = Timeline.members(header: header, initialSeq: initialSeq, initialStateJSON: initialStateJSON, openAt: openAt,
                                           lanes: TimelineLanes.json(tracker.lifetimes),
                                           screens: ScreenLane(screenRecords, first: initialSeq, last: seq)?.json(origin: encoder.origin),
                                           extra: extra)
            // {"chunk":{"events":[…],"from":…,"outcomes":[…],"sites":[…]}, then the other members.
            var after: [UInt8] = []
            let tables: JSONValue = .object([
                "from": .int(Int64(count > 0 ? initialSeq + 1 : 0)), "outcomes": .array(encoder.outcomes), "sites": .array(encoder.sites),
            ])
            TimelinePage.appendScriptSafe("]," + String(tables.canonicalText.dropFirst()) + "," + String(JSONValue.object(members).canonicalText.dropFirst()),
                                           to: &after)
            return [Array(TimelinePage.head.utf8), Array("{\"chunk\":{\"events\":[".utf8), data, after, Array(TimelinePage.tail.utf8)]
        }
    }
}
