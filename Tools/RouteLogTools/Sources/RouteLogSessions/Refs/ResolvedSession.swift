import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// A session a reference named, open for reading: in the store, or read from a fixture or export
/// file (a read-only log of its own), loaded whole or streamed.
///
/// Every read goes through it, whichever the source: ``log`` (any ``EventLog``), ``event(at:)``,
/// ``state(at:)``, ``read(from:through:_:)``; a stored session's reads go to the store, a loaded
/// file's to its events in memory, a streamed file's fold the file again as they read it.
package struct ResolvedSession {
    /// Where the session's events are.
    package enum Source {
        case store(LMDBEventLog)
        /// A file loaded whole: random access to its events.
        case file(FileEventLog)
        /// A file streamed: read once when resolved, and again by each read it cannot answer from
        /// what it kept (``FileStream``), in bounded memory.
        case fileStream(FileStream)
    }

    package let source: Source
    package let id: SessionID
    package let info: SessionInfo
    /// How the user named it (for messages): the id, or the file's path as given.
    package let name: String
    /// The `@N` seq, checked against the session's length.
    package let seq: UInt64?

    package init(store: LMDBEventLog, info: SessionInfo, seq: UInt64?) {
        self.init(source: .store(store), info: info, name: info.id.rawValue, seq: seq)
    }

    package init(file: FileEventLog, name: String, seq: UInt64?) {
        self.init(source: .file(file), info: file.info, name: name, seq: seq)
    }

    package init(file: FileStream, name: String, seq: UInt64?) {
        self.init(source: .fileStream(file), info: file.info, name: name, seq: seq)
    }

    private init(source: Source, info: SessionInfo, name: String, seq: UInt64?) {
        self.source = source
        id = info.id
        self.info = info
        self.name = name
        self.seq = seq
    }

    /// The log to read the session's events from.
    package var log: any EventLog {
        switch source {
        case .store(let store): store
        case .file(let file): file
        case .fileStream(let file): file
        }
    }

    /// The store that holds the session, `nil` for a file's session.
    package var store: LMDBEventLog? {
        if case .store(let store) = source { store } else { nil }
    }

    /// Whether the session is in the store (it can be followed, deleted, written to), not read
    /// from a file.
    package var isStored: Bool { store != nil }

    /// The file's parsed content (a streamed file's without its events), `nil` for a stored session.
    package var document: Fixture? {
        switch source {
        case .store: nil
        case .file(let file): file.document
        case .fileStream(let file): file.header
        }
    }

    /// How a written file names this session: a file by its name without the folders (no
    /// absolute path of the machine it was made on), a stored session by its id.
    package var portableName: String {
        isStored ? name : URL(fileURLWithPath: name).lastPathComponent
    }

    /// The `@N` seq, or the last seq.
    package var seqOrHead: UInt64 { seq ?? info.eventCount }

    /// Fails with an "empty session" data error when the session has no events.
    package func requireEvents() throws(RouteLogError) {
        if info.eventCount == 0 { throw RouteLogError(.empty, "empty session: \(name) has no events") }
    }

    /// Checks that `seq` exists in this session (0 is the state before any event).
    package func check(seq: UInt64, what: String = "seq") throws(RouteLogError) {
        if seq > info.eventCount {
            throw .usage("\(what) out of range: \(seq) (session \(name) has \(info.eventCount) events)")
        }
    }

    /// The stored event at `seq` (≥ 1).
    package func event(at seq: UInt64) throws(RouteLogError) -> StoredEvent? {
        var found: StoredEvent?
        try call { try log.read(id, from: seq, through: seq) { found = $0; return false } }
        return found
    }

    /// The state after `seq` (0: before any event).
    package func state(at seq: UInt64) throws(RouteLogError) -> NavigationState {
        try call { try log.state(of: id, at: seq) }
    }

    /// Hands the events `from...through` to `body`, in order, until it returns `false`.
    package func read(from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws(RouteLogError) {
        try call { try log.read(id, from: from, through: through, body) }
    }

    /// What the session's navigator saw of its screens (``RouteLogCore/ScreenRecord``), oldest
    /// first: none for a file's session or a session whose screens never reported themselves.
    package func screenRecords() throws(RouteLogError) -> [ScreenRecord] {
        guard let store else { return [] }
        return try call { try store.screenRecords(id) }
    }

    /// The divergences among ``screenRecords()``, oldest first.
    package func divergences() throws(RouteLogError) -> [(record: ScreenRecord, divergence: Divergence)] {
        try screenRecords().compactMap { r in r.divergence.map { (r, $0) } }
    }

    /// The session's runs and the events a reader shows from a crashed app's journal (none for a
    /// file's session).
    package func marks() -> RunMarks {
        guard let store else { return RunMarks(runs: [], journaled: nil) }
        return RunMarks(runs: (try? store.runs(of: id)) ?? [], journaled: store.journaled(id))
    }
}
