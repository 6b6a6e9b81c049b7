/// The handles of the store's five named databases.
struct StoreDatabases: Sendable {
    /// The names, in the order ``init(_:)`` takes the handles.
    static let names = ["meta", "sessions", "events", "snapshots", "sites"]

    /// The format version, the session entry counter, run rows and import marks.
    let meta: LMDBDatabase
    /// Session rows, by session id.
    let sessions: LMDBDatabase
    /// Event records, by session number and seq.
    let events: LMDBDatabase
    /// Snapshots, by session number and seq.
    let snapshots: LMDBDatabase
    /// Call sites, by session number and index.
    let sites: LMDBDatabase
    /// The store's format: 3 (a record per event) or 4 (events in blocks).
    let format: UInt32

    /// Whether the `events` database holds blocks of events (format 4).
    var blocks: Bool { format >= 4 }

    /// The handles opened for ``names``, in that order.
    init(_ handles: [LMDBDatabase], format: UInt32) {
        self.format = format
        precondition(handles.count == Self.names.count, "one handle per database")
        meta = handles[0]
        sessions = handles[1]
        events = handles[2]
        snapshots = handles[3]
        sites = handles[4]
    }

    /// Every database of the store.
    var all: [LMDBDatabase] { [meta, sessions, events, snapshots, sites] }
}
