import Foundation
@_spi(Tools) import RouteLogCore

// The log owns the environment and composes parts that share its handles (`StoreContext`), each
// in its folder: `RecordLog` (Log/: sessions, records, appending, reading), `SessionRuns` (Runs/:
// run rows), `StoreJournals` (Journal/: a run's journal, recovery, the read-only overlay),
// `StoreLifecycle` (Lifecycle/: deletes, retention, statistics, compaction, moving),
// `SessionImporter` (Import/) and `Verifier` (Verification/). Its methods forward to them; the
// extensions beside this file group them by part.

/// A durable, append-only, verifiable ``/RouteLogCore/EventLog`` in an LMDB store.
///
/// A store is a directory (created with mode 0700, files 0600) holding one LMDB environment with
/// five named databases: `meta` (the store format), `sessions`, `events`, `snapshots` and `sites`
/// (the call sites of each session's events, which records name by index). Keys
/// are big-endian, so LMDB's order is session then seq; `mdb_stat -a` and `mdb_dump` read it.
///
/// ```swift
/// let log = try LMDBEventLog.open(at: "/path/to/store")
/// let session = try log.createSession(NewSession(label: "checkout"))
/// try log.append([RecordedEvent(.push(RouteRef(id: "cart")))], to: session.id, expectedSeq: 0)
/// let state = try log.state(of: session.id, at: 1)
/// ```
///
/// **Records.** Each event record holds a format version, the event's kind, its outcome, the
/// event with its metadata (encoded by the core's codec), the digest of the state after it and a
/// checksum (`StableHasher`, 128 bits, over the previous record's checksum and the record's
/// bytes, so the records form a chain). Reads check each checksum; `verify(session:reducer:)`
/// also replays the events against the stored outcomes and digests.
///
/// **Appends** run on one writer thread per log, in short write transactions: concurrent appends
/// are committed together (group commit), a batch is one transaction, records are written with
/// `MDB_APPEND` or `MDB_NOOVERWRITE` and never overwritten, and a wrong `expectedSeq` throws
/// `EventLogError.conflict` and writes nothing. The log keeps each session's head state in memory
/// (checked against the stored head on every append, so other writers are noticed) and stores a
/// snapshot every ``Options/snapshotInterval`` events in the same transaction.
///
/// **Durability** is chosen with ``Options/durability``; only ``Durability/perEvent`` makes the
/// caller of an append wait for an `fsync`.
///
/// **Processes.** Any number of processes can open one store, even one that does not exist yet
/// (see ``open(at:options:)`` for what a caller may assume); several read while one writes at a
/// time (the CLI follows a live app with `follow(session:from:)`). Within a process, stores are
/// shared per path (see `LMDBEnvironment`). Stale reader slots are cleared at open and a full
/// map grows by itself. <doc:SharingAStore> covers an app and its extensions on one store.
///
/// On Linux it runs on the system's liblmdb; on Apple platforms on LMDB 0.9's own sources, built
/// into the app (see "Apple platforms" in the module's overview).
public final class LMDBEventLog: EventLog, @unchecked Sendable {
    /// The store's directory, as given to ``open(at:options:)``.
    public let path: String
    /// The options the log was opened with.
    public let options: Options
    /// The LMDB environment (shared with other logs on the same path in this process).
    @_spi(Tools) public let environment: LMDBEnvironment

    /// The handles the parts share.
    let context: StoreContext
    /// The append/read log, and the journals recovered into it (or shown beside it, read-only).
    let records: RecordLog, journals: StoreJournals
    /// The runs of the sessions.
    let runs: SessionRuns
    /// Deletes, retention, statistics, compaction and moving; imports, which apply retention.
    let lifecycle: StoreLifecycle, importer: SessionImporter
    let verifier: Verifier

    /// The store's database handles.
    var databases: StoreDatabases { context.databases }

    private init(path: String, options: Options, environment: LMDBEnvironment, databases: StoreDatabases) {
        self.path = path
        self.options = options
        self.environment = environment
        context = StoreContext(
            path: path, options: options, environment: environment, databases: databases,
            writer: options.readOnly ? nil : Writer(environment: environment, durability: options.durability),
            locks: options.readOnly ? nil : SessionLocks(storePath: path))
        records = RecordLog(context)
        runs = SessionRuns(context: context)
        journals = StoreJournals(context, records: records, runs: runs)
        lifecycle = StoreLifecycle(context: context, records: records, runs: runs)
        importer = SessionImporter(context: context, records: records, lifecycle: lifecycle)
        verifier = Verifier(context: context, records: records)
    }

    deinit {
        context.writer?.stop()
        context.locks?.releaseAll()
    }

    /// Forces everything committed so far to disk (`fsync`), whatever the durability.
    public func flush() throws {
        do { try environment.sync(force: true) } catch { throw LMDBEventLogError.storage(error, operation: "syncing \(path)") }
    }

    // MARK: Opening

    /// Opens the store at `path`, creating it if the directory does not exist or is empty.
    ///
    /// **Several processes, one path.** Any number of processes (and logs in one process) may open
    /// the same path at the same time, including a path where no store exists yet. A caller may
    /// assume:
    /// - A read-write open either creates the store or opens the one another opener created; it
    ///   never fails because another process is creating it at that moment, and all openers agree
    ///   on one store and its format. Creating a store is one LMDB write transaction that writes
    ///   its databases and its format version together, so no process ever sees a store with
    ///   sessions or events but no format, or a half-created store. Whether the directory holds a
    ///   store is decided inside that transaction, under LMDB's writer lock, not from the files.
    /// - A read-only open of a store that is being created waits for the creation (at most two
    ///   seconds) and then opens it; it never creates anything. Before any process has begun
    ///   creating the store (no directory, or an empty one), it throws
    ///   ``LMDBEventLogError/notAStore(path:reason:)``.
    /// - Once `open` returns, every session and event committed before it by any process is
    ///   visible, and later commits by other processes become visible to the next read.
    /// - Writers are serialized by LMDB: appends from several processes never interleave inside
    ///   a session's sequence numbers (each append names its `expectedSeq`; a stale one throws
    ///   `EventLogError.conflict` and writes nothing), but they do wait for one another.
    /// - Reader slots of processes that died are reclaimed at every open (`mdb_reader_check`).
    ///
    /// - Throws: ``LMDBEventLogError``: ``LMDBEventLogError/notADirectory(path:)`` for a plain file,
    ///   ``LMDBEventLogError/notAStore(path:reason:)`` for a directory holding something else,
    ///   ``LMDBEventLogError/newerFormat(path:found:supported:)``,
    ///   ``LMDBEventLogError/permissionDenied(path:reason:)`` for an unreadable directory, or a
    ///   read-only one opened read-write.
    public static func open(at path: String = LMDBEventLog.defaultPath, options: Options = Options()) throws -> LMDBEventLog {
        precondition(options.snapshotInterval >= 1, "snapshotInterval must be at least 1")
        try StoreOpener.prepareDirectory(path, readOnly: options.readOnly)
        let environment = try StoreOpener.openEnvironment(path, options: options)
        if !options.readOnly { StoreOpener.protect(path, options.fileProtection) }
        do {
            try environment.clearStaleReaders()
            let databases = options.readOnly
                ? try StoreOpener.openExistingStore(environment, path: path)
                : try StoreOpener.createOrOpenStore(environment, path: path)
            let log = LMDBEventLog(path: path, options: options, environment: environment, databases: databases)
            // Read-write: before retention, which must not take a session whose journal holds its
            // last events.
            log.journals.open()
            if !options.readOnly {
                // Invisible until removed, so a failure here (a full disk) waits for the next open.
                _ = try? log.importer.removeAbandonedImports()
                try log.lifecycle.applyRetention()
            }
            return log
        } catch let error as LMDBError {
            // A released environment of this process opens again here, taking `owner.lock`.
            switch error {
            case .ownerBusy: throw LMDBEventLogError.storeHeld(path: path, byMove: false)
            case .ownerMoving: throw LMDBEventLogError.storeHeld(path: path, byMove: true)
            case .writerBusy: throw LMDBEventLogError.storeBusy(path: path, writerDied: false)
            default: throw LMDBEventLogError.storage(error, operation: "opening \(path)")
            }
        }
    }

    // MARK: Sessions

    public func createSession(_ new: NewSession) throws -> SessionInfo {
        let id = try records.createSession(new, createdAt: options.clock())
        try lifecycle.applyRetention()
        return try session(id)
    }

    public func sessions() throws -> [SessionInfo] {
        let all = try records.sessions()
        guard let overlay = journals.overlay else { return all }
        return all.map(overlay.session)
    }

    public func session(_ id: SessionID) throws -> SessionInfo {
        let info = try records.session(id)
        return journals.overlay?.session(info) ?? info
    }

    /// The hash of a session's last record (zero when it has none): the head of its chain.
    @_spi(Tools) public func headHash(of id: SessionID) throws -> Digest {
        try records.headHash(of: id)
    }

    // MARK: Events

    /// Appends a batch in one transaction (see ``/RouteLogCore/EventLog/append(_:to:expectedSeq:)``).
    ///
    /// Concurrent appends to any sessions are committed together. Returns once the batch is
    /// committed (and, with ``Durability/perEvent``, synced).
    ///
    /// - Throws: `EventLogError.conflict` when `expectedSeq` is not the session's last seq
    ///   (nothing is written); `EventLogError.sessionNotFound`; ``LMDBEventLogError``.
    @discardableResult
    public func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try records.append(events, to: id, expectedSeq: expectedSeq)
    }

    /// Calls `body` with the events `from ... through`, in order (see ``/RouteLogCore/EventLog/read(_:from:through:_:)``).
    ///
    /// Events are read in short read transactions of a few hundred records, so a slow `body` never
    /// holds one open. Each record's checksum is checked. A read-only log goes on with the events
    /// it shows from a crashed writer's journal (see `journaled(_:)`) after the stored ones.
    ///
    /// - Throws: `EventLogError.sessionNotFound`; ``LMDBEventLogError/corruptRecord(session:seq:reason:)``
    ///   for a record that is garbled, truncated or missing.
    public func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard let overlay = journals.overlay else { return try records.read(id, from: from, through: through, body) }
        try overlay.read(id, from: from, through: through, in: records, body)
    }

    /// How many stored events ``read(_:from:through:_:)`` reads in one read transaction: the
    /// events `from + k·readChunk ..< from + (k+1)·readChunk` are read together, and a corrupt or
    /// missing record fails its whole chunk (none of its events reach `body`).
    @_spi(Tools) public static var readChunk: UInt64 { RecordLog.readChunk }

    /// The latest stored snapshot at or before `seq` (see ``/RouteLogCore/EventLog/snapshot(_:atOrBefore:)``).
    public func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        try records.snapshot(id, atOrBefore: seq)
    }

    /// The events of a session from `seq` on, including those appended later by this or another
    /// process: for tailing a live session (`routelog log --follow`).
    ///
    /// The sequence polls with short read transactions (it never holds one between polls, so the
    /// writer's pages can be reused), backing off from `minimumDelay` to `maximumDelay` while
    /// nothing new arrives. It ends when the surrounding task is cancelled, and throws when the
    /// session does not exist or a record is corrupt.
    ///
    /// ```swift
    /// for try await event in log.follow(session: id, from: 1) { print(event.seq, event.outcome) }
    /// ```
    ///
    /// - Parameters:
    ///   - session: the session to follow.
    ///   - seq: the first seq to deliver (1 for the whole session).
    ///   - minimumDelay: the first wait after a poll that found nothing.
    ///   - maximumDelay: the longest wait between polls.
    @_spi(Tools) public func follow(session: SessionID, from seq: UInt64 = 1,
                       minimumDelay: Duration = .milliseconds(1), maximumDelay: Duration = .milliseconds(100)) -> EventFollower {
        EventFollower(log: self, session: session, start: max(seq, 1), minimumDelay: minimumDelay, maximumDelay: maximumDelay)
    }

    // MARK: Verification

    /// Checks a session: every record's checksum, the hash chain from the first record to the
    /// session's head, and every stored outcome and digest against a fresh replay (from the empty
    /// state, with the current reducer); then the snapshots against the replay.
    ///
    /// Records are read in short read transactions, so verifying a long session does not block
    /// page reuse for a concurrent writer; events appended during verification are not checked.
    ///
    /// - Parameters:
    ///   - id: the session.
    ///   - reducer: applies one event (with its seq) to a state and returns the outcome; the
    ///     current reducer, `NavigationState.apply(_:seq:)`, unless a test replays with a changed rule
    ///     to show that a reducer change is caught.
    /// - Returns: a report naming the first failing seq and check, if any.
    /// - Throws: `EventLogError.sessionNotFound`, or ``LMDBEventLogError`` when the store cannot be read.
    @_spi(Tools) public func verify(
        session id: SessionID,
        reducer: NavigationState.Reducer = { state, event, seq in state.apply(event, seq: seq) }
    ) throws -> VerificationReport {
        try verifier.verify(session: id, reducer: reducer)
    }
}
