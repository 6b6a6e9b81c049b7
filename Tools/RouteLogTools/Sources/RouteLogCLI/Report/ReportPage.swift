import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// A report's timeline and what goes with it.
struct ReportPage {
    var collector: Timeline.Collector
    var header: Timeline.Header
    var runs: [RunInfo] = []
    var first: UInt64
    var last: UInt64
    /// The part of the default file name after `routelog-report-`.
    var fileID: String

    /// The seqs `first…last` the page shows, checked against the session's `count` events.
    static func range(from: UInt64?, to: UInt64?, ref: SessionRef, count: UInt64, name: String) throws(RouteLogError) -> (first: UInt64, last: UInt64) {
        let first = from ?? 1, last = to ?? count
        if let from, from > count { throw .usage("--from out of range: \(from) (session \(name) has \(count) events)") }
        if let to, to > count { throw .usage("--to out of range: \(to) (session \(name) has \(count) events)") }
        if let seq = ref.seq, from != nil || to != nil, seq < first - 1 || seq > last {
            throw .usage("\(ref.text) is not on the page: it shows seqs \(first - 1)…\(last) (--from \(first) --to \(last))")
        }
        return (first, last)
    }

    /// The page of the session `ref` names: a file is read once as it is scanned, never loaded whole;
    /// a stored session is resolved in `workspace` (which opens the store only then).
    static func of(_ ref: SessionRef, in workspace: Workspace, from: UInt64?, to: UInt64?, progress: Progress) throws(RouteLogError) -> ReportPage {
        if let path = ref.filePath { return try file(path, ref: ref, from: from, to: to, progress: progress) }
        return try stored(try workspace.resolve(ref), ref: ref, from: from, to: to, progress: progress)
    }

    /// The page of a store's session: the state before `first` from the store (its snapshot
    /// before it plus the events since), then the events `first…last` only.
    static func stored(_ s: ResolvedSession, ref: SessionRef, from: UInt64?, to: UInt64?, progress: Progress) throws(RouteLogError) -> ReportPage {
        let count = s.info.eventCount
        let (first, last) = try range(from: from, to: to, ref: ref, count: count, name: s.name)
        let n = last >= first ? last - first + 1 : 0
        try ReportBudget.check(events: n, first: first, last: last, of: s.name, total: count, ranged: from != nil || to != nil)
        let start = try call { try s.log.state(of: s.id, at: first - 1) }
        // Times on the page count from the session's first event, which a part does not hold.
        let origin = first > 1 ? try call { try s.event(at: 1)?.recorded.meta.timestamp } : nil
        var c = Timeline.Collector(state: start, seq: first - 1, timeOrigin: origin)
        let budget = ReportBudget.bytes
        var crossed: UInt64?
        progress.stage("reading \(s.name)", total: Int(clamping: n))
        if n > 0 {
            try call {
                try s.log.read(s.id, from: first, through: last) { e in
                    c.add(e.recorded, outcome: e.outcome)
                    progress.add()
                    if c.cost > budget { crossed = e.seq; return false }
                    return true
                }
            }
        }
        if let crossed { throw ReportBudget.refusal(crossedAt: crossed, first: first, last: last, of: s.name) }
        // What the session's screens reported: the page's "on screen" lane (none without records).
        c.screenRecords = try s.screenRecords()
        let runs = s.marks().runs
        return ReportPage(collector: c, header: Timeline.Header(s.info), runs: runs, first: first, last: last,
                          fileID: String(s.id.rawValue.prefix(13)))
    }

    /// The page of a fixture or export file, read once in bounded memory: the events before
    /// `first` and after `last` are folded and not kept.
    static func file(_ path: String, ref: SessionRef, from: UInt64?, to: UInt64?, progress: Progress) throws(RouteLogError) -> ReportPage {
        let first = from ?? 1, last = to ?? .max
        if let to { try ReportBudget.check(events: to - first + 1, first: first, last: to, of: path, total: to, ranged: true) }
        let budget = ReportBudget.bytes
        var fold = Replayer()
        var collector: Timeline.Collector?
        var crossed: UInt64?
        var origin: Int64?
        var seq: UInt64 = 0
        progress.stage("reading \(path)", total: nil)
        let scanned = try Fixture.scan(path) { recorded in
            seq += 1
            progress.add()
            if seq == 1 { origin = recorded.meta.timestamp }
            if crossed != nil { return }
            if seq < first || seq > last {
                if seq == last &+ 1, let c = collector { fold = Replayer(state: c.state, seq: c.seq) }
                _ = fold.apply(recorded.event)
                return
            }
            if collector == nil { collector = Timeline.Collector(state: fold.state, seq: fold.seq, timeOrigin: first > 1 ? origin : nil) }
            collector!.add(recorded)
            if collector!.cost > budget {
                crossed = seq
                collector = nil
            }
        }
        let count = UInt64(scanned.eventCount)
        let (_, shownLast) = try range(from: from, to: to, ref: ref, count: count, name: path)
        if let seq = ref.seq, seq > count { throw .usage("seq out of range: \(seq) (session \(path) has \(count) events)") }
        if let crossed {
            // Past the most events a page holds: say so, as a store's session is refused.
            try ReportBudget.check(events: shownLast - first + 1, first: first, last: shownLast, of: path, total: count,
                                   ranged: from != nil || to != nil)
            throw ReportBudget.refusal(crossedAt: crossed, first: first, last: shownLast, of: path)
        }
        let c = collector ?? Timeline.Collector(state: fold.state, seq: fold.seq)
        let final = shownLast < count ? fold.state : c.state
        let doc = scanned.header
        let header = Timeline.Header(session: path, label: doc.session?.label ?? doc.name, app: doc.session?.app,
                                     version: doc.session?.appVersion, created: doc.session?.created, eventCount: count,
                                     headDigest: final.digest.hex)
        return ReportPage(collector: c, header: header, first: first, last: shownLast, fileID: "file")
    }
}
