import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RouteLogCore
import RouteLogTimeline

/// `routelog report`: one self-contained HTML file to look at a session in a browser.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a session's timeline as one self-contained HTML file.",
        discussion: """
        The page (CSS and JavaScript inline; it loads nothing from the network) has a timeline \
        slider with the rejected events marked (←/→ step, Home/End jump), the event list with \
        filters, the state at the selected seq drawn as screens, sheets and alerts, the state \
        diff from the previous seq (or between two seqs), and a button that copies the state's \
        canonical JSON. REF@N opens the page at seq N. Prints the path of the file written \
        (default: routelog-report-ID.html in the current directory).

        --from A --to B (either alone: from 1, to the last seq) puts only seqs A…B on the page: \
        it starts from the state after seq A-1 (read from the store's snapshot before it plus the \
        events since, never the whole session) and shows the real seq numbers. REF@N must then \
        lie in A-1…B (A-1 is the page's first position). A page holds at most \
        \((ReportBudget.defaultBytes / Timeline.Collector.eventCost).grouped) events, fewer when states or \
        payloads are large (the memory the page needs, counted as it is built, must stay within \
        \(ReportBudget.defaultBytes / 1_000_000) MB, which keeps the report's peak memory under 1 GB): a \
        longer session or range is refused in one line (exit 2), and no file is written; choose a \
        range with --from/--to.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json; REF@N opens at N).") var session: String
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The HTML file to write.", valueName: "file.html"))
    var output: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The first seq on the page (default 1).", valueName: "seq"),
            transform: SeqArgument.parse) var from: UInt64?
    @Option(parsing: .unconditional, help: ArgumentHelp("The last seq on the page (default: the last one).", valueName: "seq"),
            transform: SeqArgument.parse) var to: UInt64?

    func run() throws {
        let ref = try parseRef(session)
        if from == 0 { throw RouteLogError.usage("--from out of range: 0 (seqs start at 1)") }
        if let to, to < (from ?? 1) { throw RouteLogError.usage("--to \(to) is before --from \(from ?? 1)") }
        let page: ReportPage
        if case .file(let path) = ref.base {
            page = try ReportPage.file(path, ref: ref, from: from, to: to)
        } else {
            page = try ReportPage.stored(try store.workspace().resolve(ref), ref: ref, from: from, to: to)
        }
        var extra: [String: JSONValue] = [:]
        if !page.runs.isEmpty { extra["runs"] = SessionJSON.runs(page.runs) }
        if from != nil || to != nil { extra["range"] = .object(["from": .int(Int64(page.first)), "to": .int(Int64(page.last))]) }
        let path = output ?? "routelog-report-\(page.fileID).html"
        try ReportFile.write(page.collector.page(header: page.header, openAt: ref.seq, extra: extra), to: path)
        Output.stdout().line(path)
    }
}

/// How much a report page may weigh. `routelog report` adds up each event's
/// ``Timeline/Collector/cost`` (the memory its data needs while the page is built and written) and
/// refuses a range whose page would need more than ``bytes``: before reading anything when the
/// range has more events than ``maxEvents``, else as soon as the page crosses the budget (large
/// states), and never writes a file then.
enum ReportBudget {
    /// The default budget: with the process's own memory, a report's peak RSS stays under 1 GB.
    static let defaultBytes = 950_000_000
    /// The budget in use (tests lower it to hit it with a small session).
    @TaskLocal static var bytes = defaultBytes

    /// The most events a page can hold: the budget at the smallest cost per event.
    static var maxEvents: Int { bytes / Timeline.Collector.eventCost }

    /// Refuses a range of `count` events before anything is read, when it cannot fit.
    static func check(events count: UInt64, first: UInt64, last: UInt64, of name: String, total: UInt64, ranged: Bool) throws(RouteLogError) {
        guard count > UInt64(maxEvents) else { return }
        let what = ranged ? "seqs \(first)–\(last) of \(name) are \(count.grouped) events" : "\(name) has \(total.grouped) events"
        throw .usage("report: \(what); a report holds at most \(maxEvents.grouped) — choose a \(ranged ? "smaller " : "")range with --from/--to")
    }

    /// The refusal of a page that crossed the budget at `seq` (its states or payloads are large).
    static func refusal(crossedAt seq: UInt64, first: UInt64, last: UInt64, of name: String) -> RouteLogError {
        .usage("report: seqs \(first)–\(last) of \(name) are \((last - first + 1).grouped) events too large for one page (its data passed \(bytes / 1_000_000) MB at seq \(seq.grouped)); a report holds at most \(maxEvents.grouped) events, fewer with large states or payloads — choose a range with --from/--to")
    }
}

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

    /// The page of a store's session: the state before `first` from the store (its snapshot
    /// before it plus the events since), then the events `first…last` only.
    static func stored(_ s: ResolvedSession, ref: SessionRef, from: UInt64?, to: UInt64?) throws(RouteLogError) -> ReportPage {
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
        if n > 0 {
            try call {
                try s.log.read(s.id, from: first, through: last) { e in
                    c.add(e.recorded, outcome: e.outcome)
                    if c.cost > budget { crossed = e.seq; return false }
                    return true
                }
            }
        }
        if let crossed { throw ReportBudget.refusal(crossedAt: crossed, first: first, last: last, of: s.name) }
        let runs = s.marks().runs
        return ReportPage(collector: c, header: Timeline.Header(s.info), runs: runs, first: first, last: last,
                          fileID: String(s.id.rawValue.prefix(13)))
    }

    /// The page of a fixture or export file, read once in bounded memory: the events before
    /// `first` and after `last` are folded and not kept.
    static func file(_ path: String, ref: SessionRef, from: UInt64?, to: UInt64?) throws(RouteLogError) -> ReportPage {
        let first = from ?? 1, last = to ?? .max
        if let to { try ReportBudget.check(events: to - first + 1, first: first, last: to, of: path, total: to, ranged: true) }
        let budget = ReportBudget.bytes
        var fold = Replayer()
        var collector: Timeline.Collector?
        var crossed: UInt64?
        var origin: Int64?
        var seq: UInt64 = 0
        let scanned = try Fixture.scan(path) { recorded in
            seq += 1
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

extension BinaryInteger {
    /// The number with thousands separators: 10,000,000.
    var grouped: String {
        let digits = String(self)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return out
    }
}

/// Writing report pages.
enum ReportFile {
    /// Writes `html` to `path` atomically (a reader never sees half a page).
    static func write(_ html: String, to path: String) throws(RouteLogError) {
        try write([Array(html.utf8)], to: path)
    }

    /// Writes a page given in parts to `path` atomically: into a new file beside it, renamed over
    /// it when complete (no part is copied into one buffer first).
    static func write(_ parts: [[UInt8]], to path: String) throws(RouteLogError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                for part in parts { try handle.write(contentsOf: part) }
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            if rename(temporary.path, url.path) != 0 {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .data("cannot write \(path): \(oneLine(error.localizedDescription))")
        }
    }
}
