import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline
@_spi(Tools) import RouteLogLMDB

/// Two sessions' event lists aligned as ``SessionDiff`` aligns them (events compared by canonical
/// JSON, metadata ignored; the first divergence is the first seq whose digests differ), rendered
/// with the CLI's compact event descriptions.
///
/// Built for sessions of millions of events: each session is read once (the store's mapped pages
/// released as it goes, see ``MappedPages``), keeping per event only an id of its (interned)
/// event, its digest and an id of its outcome; the alignment is searched on the ids (with
/// ``SessionDiff``'s step budget) and rendered as it is walked, each distinct event described once.
struct EventAlignment {
    /// One session as the alignment sees it.
    struct Side {
        var ids: [Int] = []
        var digests: [Digest] = []
        var outcomes: [Int32] = []
    }

    let a: Side
    let b: Side
    /// The distinct events, by id.
    let events: [Event]
    let firstDivergentSeq: UInt64?
    let firstOutcomeDivergence: UInt64?
    let alignment: SessionDiff.IDAlignment

    /// One session read with its own interning tables (the two sessions are read at once, each
    /// on its own thread; ``init(_:through:_:through:)`` then maps the second's ids onto the first's).
    struct Reading {
        var side = Side()
        var table: [Event: Int] = [:]
        var events: [Event] = []
        var outcomeTable: [Outcome: Int32] = [:]
        var outcomes: [Outcome] = []

        /// Nothing read (to let go of a reading's tables).
        static var empty: Reading { Reading() }
        private init() {}

        init(_ s: ResolvedSession, through last: UInt64) throws(RouteLogError) {
            let n = Int(min(last, s.info.eventCount))
            side.ids.reserveCapacity(n)
            side.digests.reserveCapacity(n)
            side.outcomes.reserveCapacity(n)
            let pages = MappedPages(s.store)
            try call {
                try s.log.read(s.id, from: 1, through: last) { e in
                    // One lookup an event: the default (the next id) is inserted when it is new.
                    let event = e.event
                    let next = events.count
                    let id = EventAlignment.lookUp(&table[event, default: next])
                    if id == next { events.append(event) }
                    side.ids.append(id)
                    side.digests.append(e.digest)
                    let nextOutcome = Int32(outcomes.count)
                    let o = EventAlignment.lookUp(&outcomeTable[e.outcome, default: nextOutcome])
                    if o == nextOutcome { outcomes.append(e.outcome) }
                    side.outcomes.append(o)
                    pages.tick()
                    return true
                }
            }
        }
    }

    /// Where a reading on another thread leaves its result.
    private final class Slot: @unchecked Sendable {
        var result: Result<Reading, RouteLogError>?
    }

    init(_ sa: ResolvedSession, through seqA: UInt64, _ sb: ResolvedSession, through seqB: UInt64) throws(RouteLogError) {
        let slots = [Slot(), Slot()]
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            slots[k].result = Result { () throws(RouteLogError) in try Reading(k == 0 ? sa : sb, through: k == 0 ? seqA : seqB) }
        }
        var ra = try slots[0].result!.get()
        var rb = try slots[1].result!.get()
        slots[0].result = nil
        slots[1].result = nil
        // The second session's ids onto the first's: its distinct events (and outcomes) looked up
        // in the first's tables, new ones numbered after them, in the order the second met them.
        var events = ra.events
        let eventMap = rb.events.map { e in
            let next = events.count
            let id = Self.lookUp(&ra.table[e, default: next])
            if id == next { events.append(e) }
            return id
        }
        let outcomeMap = rb.outcomes.map { o in
            let next = Int32(ra.outcomeTable.count)
            return Self.lookUp(&ra.outcomeTable[o, default: next])
        }
        for i in rb.side.ids.indices {
            rb.side.ids[i] = eventMap[rb.side.ids[i]]
            rb.side.outcomes[i] = outcomeMap[Int(rb.side.outcomes[i])]
        }
        let a = ra.side, b = rb.side
        ra = Reading.empty
        rb = Reading.empty
        var first: UInt64?
        for i in 0..<max(a.ids.count, b.ids.count) where i >= a.ids.count || i >= b.ids.count || a.digests[i] != b.digests[i] {
            first = UInt64(i + 1)
            break
        }
        var firstOutcome: UInt64?
        for i in 0..<min(a.ids.count, b.ids.count) where a.outcomes[i] != b.outcomes[i] {
            firstOutcome = UInt64(i + 1)
            break
        }
        self.a = a
        self.b = b
        self.events = events
        firstDivergentSeq = first
        firstOutcomeDivergence = firstOutcome
        alignment = SessionDiff.IDAlignment(a.ids, b.ids)
    }

    static func lookUp<T>(_ value: inout T) -> T { value }

    /// An empty seq column: `·` right-aligned in 4.
    private static let noSeq = Array("   ·".utf8)

    /// Whether the event lists differ (a divergence, an outcome divergence, or any edit in the alignment).
    var isDifferent: Bool {
        firstDivergentSeq != nil || firstOutcomeDivergence != nil || a.ids.count != b.ids.count || !alignment.isAllSame
    }

    /// Writes the alignment as the JSON object ``SessionDiff/json`` gives, in canonical text.
    func writeJSON(_ out: Output) {
        out.write("{\"alignment\":[")
        var n = 0
        alignment.forEach { entry in
            out.write(n == 0 ? "" : ",")
            n += 1
            switch entry {
            case .same(let x, let y): out.write("{\"a\":\(x),\"b\":\(y),\"op\":\"same\"}")
            case .removed(let x): out.write("{\"a\":\(x),\"op\":\"removed\"}")
            case .inserted(let y): out.write("{\"b\":\(y),\"op\":\"inserted\"}")
            case .changed(let x, let y): out.write("{\"a\":\(x),\"b\":\(y),\"op\":\"changed\"}")
            }
        }
        out.write("]")
        if let d = firstDivergentSeq {
            let i = Int(d) - 1
            if i < a.digests.count { out.write(",\"digestA\":\"\(a.digests[i].hex)\"") }
            if i < b.digests.count { out.write(",\"digestB\":\"\(b.digests[i].hex)\"") }
        }
        out.write(",\"firstDivergence\":" + (firstDivergentSeq.map { String($0) } ?? "null"))
        if alignment.searchStopped { out.write(",\"searchStopped\":true") }
        out.write("}")
    }

    /// Writes the text rendering: a header line, then one row per entry (two for a change), with
    /// two rows of context around each edit and the other unchanged rows collapsed.
    func writeText(_ out: Output) {
        if let s = firstDivergentSeq {
            out.line(out.paint("events: first divergent seq \(s)", .bold))
        } else {
            out.line(out.paint("events: identical (\(a.ids.count) events, same digests)", .bold))
        }
        if alignment.searchStopped { out.line(out.paint(SessionDiff.searchStoppedNote, .dim)) }
        var described = [String?](repeating: nil, count: events.count)
        func event(_ side: Side, _ seq: UInt64) -> String {
            let i = Int(seq) - 1
            guard side.ids.indices.contains(i) else { return "?" }
            let id = side.ids[i]
            if let text = described[id] { return text }
            let text = EventText.describe(events[id])
            described[id] = text
            return text
        }
        // A row: the mark and a space, both seq columns (each right-aligned in 4, `·` for none),
        // two spaces and the event (from the first session unless only the second has it),
        // written straight into the output.
        func row(_ mark: String, _ x: UInt64?, _ y: UInt64?, _ style: Output.Style? = nil) {
            let text = x.map { event(a, $0) } ?? y.map { event(b, $0) } ?? ""
            out.line { bytes in
                out.painting(style, into: &bytes) { bytes in
                    func column(_ n: UInt64?) {
                        guard let n else { bytes += Self.noSeq; return }
                        let s = String(n)
                        if s.utf8.count < 4 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 4 - s.utf8.count)) }
                        bytes += s.utf8
                    }
                    bytes += mark.utf8
                    column(x)
                    bytes.append(UInt8(ascii: " "))
                    column(y)
                    bytes += [0x20, 0x20]
                    bytes += text.utf8
                }
            }
        }
        // The last (at most two) unchanged entries not printed yet, the rows of context still to
        // print after an edit, and how many unchanged rows were left out since the last printed row.
        var pending: [(UInt64, UInt64)] = []
        var after = 0
        var skipped = 0
        func same(_ x: UInt64, _ y: UInt64) {
            if after > 0 {
                row("  ", x, y)
                after -= 1
                return
            }
            pending.append((x, y))
            if pending.count > 2 {
                pending.removeFirst()
                skipped += 1
            }
        }
        func edit(_ removed: Bool, _ seq: UInt64) {
            if skipped > 0 { out.line(out.paint("  … (\(skipped) identical events)", .dim)) }
            skipped = 0
            for (x, y) in pending { row("  ", x, y) }
            pending.removeAll(keepingCapacity: true)
            if removed { row("- ", seq, nil, .red) } else { row("+ ", nil, seq, .green) }
            after = 2
        }
        alignment.forEach { entry in
            switch entry {
            case .same(let x, let y): same(x, y)
            case .removed(let x): edit(true, x)
            case .inserted(let y): edit(false, y)
            case .changed(let x, let y):
                edit(true, x)
                edit(false, y)
            }
        }
        skipped += pending.count
        if skipped > 0 { out.line(out.paint("  … (\(skipped) identical events)", .dim)) }
    }
}
