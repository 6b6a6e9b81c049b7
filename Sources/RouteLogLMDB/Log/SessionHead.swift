@_spi(Tools) import RouteLogCore

/// A session's head, as the writer keeps it between appends: its row and the state after its last
/// event.
struct SessionHead {
    var replayer: Replayer
    var row: SessionRow
    /// The running time base after the last event (see ``StoredPayload``).
    var timeBase: Int64
    /// The session's call sites and their indexes in `sites`.
    var sites: [CallSite: UInt32]
    /// In a format-4 store, the session's last block, which its next events join until it is
    /// full (`nil`: they start a new block).
    var open: OpenBlock?

    /// The head of a new session with no events, whose row is `row`.
    init(emptySession row: SessionRow) {
        self.init(replayer: Replayer(), row: row, timeBase: row.info.createdAt, sites: [:])
    }

    init(replayer: Replayer, row: SessionRow, timeBase: Int64, sites: [CallSite: UInt32], open: OpenBlock? = nil) {
        self.open = open
        self.replayer = replayer
        self.row = row
        self.timeBase = timeBase
        self.sites = sites
    }
}
