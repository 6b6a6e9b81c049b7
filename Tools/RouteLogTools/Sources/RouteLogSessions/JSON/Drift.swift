@_spi(Tools) import RouteLogCore

// What the user saw: the divergences a session's navigator found between its screens and its
// state (screen records, see RouteLogCore's `ScreenRecord`), as `routelog drift`, `routelog log`'s
// marks and the MCP tool `list_divergences` show them.

/// The divergences of a session, each with the events around the place it holds among them
/// (after the event its record's `headSeq` names), as `routelog drift` prints them and
/// `routelog drift --json` and the MCP tool `list_divergences` answer.
package struct Drift {
    /// An event around a divergence: the event, its `log` JSON line (with the state after it).
    package struct ContextEvent {
        package let event: StoredEvent
        package let line: JSONValue
        package let summary: String
    }

    /// One divergence: its record, the events up to and including the one it follows (`before`)
    /// and the events after it (`after`), at most ``context`` of each.
    package struct Item {
        package let record: ScreenRecord
        package let divergence: Divergence
        package let before: [ContextEvent]
        package let after: [ContextEvent]
    }

    /// Whether the session's screens reported, and whether they agreed with the state.
    package enum Status: String {
        /// At least one divergence.
        case diverged
        /// The screens reported themselves and never disagreed with the state.
        case agreed
        /// No screen record at all: the app's screens never reported themselves.
        case unreported
    }

    package let session: ResolvedSession
    /// How many screen records the session has (appearances, disappearances, divergences).
    package let recordCount: Int
    package let items: [Item]
    /// How many events before and after each divergence.
    package let context: Int

    /// The largest `context`: a divergence's events are a window, not the session.
    package static let maxContext = 100

    /// Reads the session's screen records and the events around each divergence. Throws the store's
    /// error for a damaged record, a usage error for a file's session (files carry no screen
    /// records) or a `context` over ``maxContext``.
    package init(_ s: ResolvedSession, context: Int) throws(RouteLogError) {
        guard s.store != nil else {
            throw .usage("no screen records in a file: \(printableName(s.name)) is a fixture or export file, and only a store keeps what the screens reported (give a session of the store)")
        }
        guard (0...Self.maxContext).contains(context) else { throw .usage("context out of range: \(context) (0...\(Self.maxContext))") }
        let records = try s.screenRecords()
        session = s
        recordCount = records.count
        self.context = context
        let last = s.info.eventCount
        var items: [Item] = []
        for r in records {
            guard let d = r.divergence else { continue }
            let head = min(r.headSeq, last)
            var before: [ContextEvent] = [], after: [ContextEvent] = []
            let n = UInt64(context)
            let lo = head >= n ? head - n + 1 : 1
            let hi = min(last, head + n)
            if context > 0, lo <= hi, hi >= 1 {
                var lines = try LogLines(s, from: lo, screenMarks: false)
                try call {
                    try s.log.read(s.id, from: lo, through: hi) { e in
                        let line = lines.next(e)
                        let c = ContextEvent(event: e, line: line, summary: SessionJSON.summary(lines.state))
                        if e.seq <= head { before.append(c) } else { after.append(c) }
                        return true
                    }
                }
            }
            items.append(Item(record: r, divergence: d, before: before, after: after))
        }
        self.items = items
    }

    package var status: Status { !items.isEmpty ? .diverged : recordCount > 0 ? .agreed : .unreported }

    /// `3 divergences in 12 screen records`, `no divergences: the screens agreed with the state
    /// (12 screen records)`, `no screen reports in this session`.
    package var summary: String {
        let records = "\(recordCount) screen record\(recordCount == 1 ? "" : "s")"
        switch status {
        case .diverged: return "\(items.count) divergence\(items.count == 1 ? "" : "s") in \(records)"
        case .agreed: return "no divergences: the screens agreed with the state (\(records))"
        case .unreported: return "no screen reports in this session"
        }
    }

    /// `routelog drift --json`: `session`, `status`, `summary`, `screenRecords`, `context`,
    /// `total` and `divergences` (each a ``SessionJSON/divergence(_:_:before:after:)`` object with
    /// its `before` and `after` events).
    package var json: JSONValue {
        SessionJSON.drift(session: session.id, status: status.rawValue, summary: summary, screenRecords: recordCount, context: context,
                          divergences: items.map { SessionJSON.divergence($0.record, $0.divergence, before: $0.before.map(\.line), after: $0.after.map(\.line)) })
    }
}

/// The divergences `routelog log` marks after the events they follow (by their records'
/// `headSeq`), and why there are none when the session's screen records could not be read.
package struct DivergenceMarks {
    private let byHead: [UInt64: [(record: ScreenRecord, divergence: Divergence)]]
    /// The error reading the screen records gave (a damaged record): the events are shown without marks.
    package let error: RouteLogError?

    package static let none = DivergenceMarks(byHead: [:], error: nil)

    private init(byHead: [UInt64: [(record: ScreenRecord, divergence: Divergence)]], error: RouteLogError?) {
        self.byHead = byHead
        self.error = error
    }

    /// The session's divergences (none for a file's session); a damaged record leaves them out
    /// and keeps its error.
    package init(_ s: ResolvedSession) {
        var byHead: [UInt64: [(record: ScreenRecord, divergence: Divergence)]] = [:]
        var failure: RouteLogError?
        do throws(RouteLogError) {
            for d in try s.divergences() { byHead[d.record.headSeq, default: []].append(d) }
        } catch {
            failure = error
            byHead = [:]
        }
        self.byHead = byHead
        self.error = failure
    }

    /// Whether there is no mark at all.
    package var isEmpty: Bool { byHead.isEmpty }

    /// The divergences found after event `seq` and before the next (`0`: before the first event), oldest first.
    package func after(_ seq: UInt64) -> [(record: ScreenRecord, divergence: Divergence)] {
        byHead.isEmpty ? [] : byHead[seq] ?? []
    }
}

extension Divergence {
    /// The divergence in `log`'s and `drift`'s words, without its `#seq` prefix:
    /// `not on screen: player (#7) since #7 (likely cause: …)`, `depth mismatch: episode-2 at
    /// root[1] since #9 (2 on screen, 1 in the state)`.
    package var markText: String {
        let notes = [depths, cause.map { "likely cause: \($0.phrase)" }].compactMap { $0 }
        return "\(what) since #\(seq)" + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")
    }
}

extension SessionJSON {
    /// What `routelog drift --json` prints (``Drift/json``); `total` counts `divergences`.
    package static func drift(session: SessionID, status: String, summary: String, screenRecords: Int, context: Int,
                              divergences: [JSONValue]) -> JSONValue {
        .object([
            "session": .string(session.rawValue), "status": .string(status), "summary": .string(summary),
            "screenRecords": .int(Int64(screenRecords)), "context": .int(Int64(context)), "total": .int(Int64(divergences.count)),
            "divergences": .array(divergences),
        ])
    }

    /// A divergence as `log --json` (in an event's `divergences`) and `drift --json` give it:
    /// ``RouteLogCore/Divergence/json`` (`seq`, `kind`, `screen`, `cause`, `causeText`,
    /// `visibleDepth`, `stateDepth`, `detected`, `text`) with its record's `headSeq` and `time`;
    /// in `drift`, also the events `before` and `after` it (`log` objects).
    package static func divergence(_ r: ScreenRecord, _ d: Divergence, before: [JSONValue]? = nil, after: [JSONValue]? = nil) -> JSONValue {
        guard case .object(var o) = d.json else { return d.json }
        o["headSeq"] = .int(Int64(clamping: r.headSeq))
        o["time"] = .string(ISO8601.format(milliseconds: r.time))
        if let before { o["before"] = .array(before) }
        if let after { o["after"] = .array(after) }
        return .object(o)
    }
}
