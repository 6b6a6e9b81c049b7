import RouteLogCore
import RouteLogLMDB
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
        try session.log.read(session.id, from: from, through: through) { e in
            fit(e, scratch: &scratch)
            pages.tick()
            return !isWidest
        }
    }
}
