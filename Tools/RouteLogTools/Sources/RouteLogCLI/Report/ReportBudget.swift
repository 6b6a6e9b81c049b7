import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

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
