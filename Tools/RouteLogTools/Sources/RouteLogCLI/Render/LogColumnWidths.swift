import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogSessions

/// The widths of `log`'s event and call-site columns: the widest of a range of rows, at least
/// 38 and 22, at most ``maxEvent`` and ``maxSite`` (wider texts are cut with `…`).
struct LogColumnWidths: Sendable {
    var event = 38, site = 22
    static let maxEvent = 64, maxSite = 40

    /// Whether both columns are as wide as they may be: no row can widen them.
    var isWidest: Bool { event >= Self.maxEvent && site >= Self.maxSite }

    /// Widens the columns to fit `e`'s row (`scratch` is reused between rows).
    mutating func fit(_ e: StoredEvent, scratch: inout [UInt8]) {
        event = min(Self.maxEvent, max(event, LogLineFormat.eventWidth(e, scratch: &scratch)))
        site = min(Self.maxSite, max(site, LogLineFormat.siteWidth(e, scratch: &scratch)))
    }

    /// Widens the columns to the rows `from ... through` of `session`, in order, stopping once they
    /// are the widest (so a read error after that point is not met).
    mutating func fit(_ session: ResolvedSession, from: UInt64, through: UInt64) throws {
        guard !isWidest else { return }
        let pages = MappedPages(session.store)
        var scratch: [UInt8] = []
        try session.log.readWithoutDigests(session.id, from: from, through: through) { e in
            fit(e, scratch: &scratch)
            pages.tick()
            return !isWidest
        }
    }

    /// Rows below which the columns are sized on one thread.
    static let parallelMinimum: UInt64 = 8 * LMDBEventLog.readChunk

    /// ``fit(_:from:through:)`` over a long range of a stored session on two threads, each
    /// reading one half, with the same outcome as one pass in order: the same widths, and the
    /// same error when one pass would meet one.
    ///
    /// One pass stops at the first row that makes both columns the widest, or at the first chunk
    /// of the read that fails (see ``LMDBEventLog/readChunk``). The halves meet at a chunk
    /// boundary of that pass, so the second half's chunks are the pass's own: a failing chunk there
    /// is met by one pass exactly when the first half and the rows of the second before it leave
    /// the columns short of the widest.
    mutating func fitInParallel(_ session: ResolvedSession, from: UInt64, through: UInt64) throws {
        let chunk = LMDBEventLog.readChunk
        guard !isWidest, through >= from, through - from >= Self.parallelMinimum else {
            return try fit(session, from: from, through: through)
        }
        let middle = from + (through - from + 1) / 2 / chunk * chunk
        let second = SecondHalf(start: self)
        let thread = Thread { second.run(session.log, session.id, store: session.store, from: middle, through: through) }
        thread.stackSize = 8 << 20
        thread.start()
        defer { second.cancelAndWait() }
        try fit(session, from: from, through: middle - 1)
        guard !isWidest else { return }
        let (widths, error) = second.result()
        event = max(event, widths.event)
        site = max(site, widths.site)
        if let error, !isWidest { throw error }
    }

    /// The second half's sizing, on its own thread.
    private final class SecondHalf: @unchecked Sendable {
        // Every property is read and written with `condition` locked.
        private let condition = NSCondition()
        private var widths: LogColumnWidths
        private var error: (any Error)?
        private var done = false
        private var cancelled = false

        init(start: LogColumnWidths) { widths = start }

        /// Sizes the rows `from ... through` of session `id`, the widths so far kept when the read fails.
        func run(_ log: any EventLog, _ id: SessionID, store: LMDBEventLog?, from: UInt64, through: UInt64) {
            condition.lock()
            var w = widths
            condition.unlock()
            let pages = MappedPages(store)
            var scratch: [UInt8] = []
            var failure: (any Error)?
            var rows = 0
            do {
                try log.readWithoutDigests(id, from: from, through: through) { e in
                    w.fit(e, scratch: &scratch)
                    pages.tick()
                    rows += 1
                    return !w.isWidest && (rows % 512 != 0 || !isCancelled)
                }
            } catch {
                failure = error
            }
            condition.lock()
            widths = w
            self.error = failure
            done = true
            condition.broadcast()
            condition.unlock()
        }

        private var isCancelled: Bool {
            condition.lock()
            defer { condition.unlock() }
            return cancelled
        }

        /// The widths of the rows read and the read's error, once the thread is done.
        func result() -> (LogColumnWidths, (any Error)?) {
            condition.lock()
            defer { condition.unlock() }
            while !done { condition.wait() }
            return (widths, error)
        }

        /// Stops the thread at its next row and waits until it is done, so that no read of the
        /// store outlives the caller's.
        func cancelAndWait() {
            condition.lock()
            defer { condition.unlock() }
            cancelled = true
            while !done { condition.wait() }
        }
    }
}
