import Foundation
@_spi(Tools) import RouteLogCore

// The log owns the environment and hands each call to the one place that does it: the shared
// context (`StoreContext`: its handles, the writer, and the sessions and records every part
// writes with, in Log/) for sessions, appends and reads; otherwise one part, each in its folder and
// each over the context alone: `SessionRuns` (Runs/), `StoreJournals` (Journal/: a run's journal,
// recovery, the read-only overlay), `StoreLifecycle` (Lifecycle/: deletes, retention, statistics,
// compaction, moving), `SessionImporter` (Import/) and `StoreVerifier` (Verification/). No part holds
// another; a call that needs two (an import, then retention) is composed here.

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
/// **Appends** run one write transaction at a time per log, short ones: a lone append is written
/// on its caller's thread, appends that arrive while one is written are committed together after
/// it on the log's writer thread (group commit), a batch is one transaction, records are written
/// with `MDB_APPEND` or `MDB_NOOVERWRITE` and never overwritten, and a wrong `expectedSeq` throws
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

    /// The handles the parts share, and the sessions and records they write with.
    let context: StoreContext
    /// The journals recovered into the store (or shown beside it, read-only).
    let journals: StoreJournals
    /// The runs of the sessions.
    let runs: SessionRuns
    /// Deletes, retention, statistics, compaction and moving; imports, which apply retention.
    let lifecycle: StoreLifecycle, importer: SessionImporter
    let verifier: StoreVerifier

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
        runs = SessionRuns(context: context)
        journals = StoreJournals(context)
        lifecycle = StoreLifecycle(context: context)
        importer = SessionImporter(context: context)
        verifier = StoreVerifier(context: context)
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
                : try StoreOpener.createOrOpenStore(environment, path: path, newFormat: options.storeFormat)
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
        let id = try context.createSession(new, createdAt: options.clock())
        try lifecycle.applyRetention()
        return try session(id)
    }

    public func sessions() throws -> [SessionInfo] {
        let all = try context.sessions()
        guard let overlay = journals.overlay else { return all }
        return all.map(overlay.session)
    }

    public func session(_ id: SessionID) throws -> SessionInfo {
        let info = try context.session(id)
        return journals.overlay?.session(info) ?? info
    }

    /// The hash of a session's last record (zero when it has none): the head of its chain.
    @_spi(Tools) public func headHash(of id: SessionID) throws -> Digest {
        try context.headHash(of: id)
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
        try context.append(events, to: id, expectedSeq: expectedSeq)
    }

    /// Appends a batch its caller folded, in one transaction (see
    /// ``/RouteLogCore/FoldedAppendingEventLog/appendFolded(_:digests:to:expectedSeq:)``): the
    /// navigator's recorder, which folded every event of the session before handing it over.
    ///
    /// The writer does not fold each event again with its digest: it folds the batch from the
    /// session's head without keeping the digest (for the outcomes it stores) and computes the
    /// digest from scratch after the batch's last event and after each event it stores a snapshot
    /// for, which must be the caller's. Each record stores the caller's digest.
    ///
    /// - Throws: `EventLogError.conflict` when `expectedSeq` is not the session's last seq;
    ///   `FoldMismatch` when a checked digest is not the caller's (nothing of the batch is
    ///   written); as ``append(_:to:expectedSeq:)``.
    @_spi(Tools) public func appendFolded(_ events: [RecordedEvent], digests: [Digest], to id: SessionID, expectedSeq: UInt64) throws {
        _ = try context.append(events, to: id, expectedSeq: expectedSeq, digests: digests)
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
        try read(id, from: from, through: through, digests: true, body)
    }

    /// ``read(_:from:through:_:)`` for a reader that folds the events itself or needs none of
    /// their states (`routelog log`, a replay): a format-4 store's events are not folded; the last
    /// event of each block has the digest the block stores (a replay compares its fold with it),
    /// every other one ``/RouteLogCore/Digest/zero`` (a format-3 record's stored digest, and a
    /// journaled event's, are given). Checksums are checked as by `read`.
    @_spi(Tools) public func readWithoutDigests(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        try read(id, from: from, through: through, digests: false, body)
    }

    /// The stored events, then (in a read-only log) the journaled ones after them.
    private func read(_ id: SessionID, from: UInt64, through: UInt64, digests: Bool, _ body: (StoredEvent) throws -> Bool) throws {
        guard let overlay = journals.overlay else { return try context.read(id, from: from, through: through, digests: digests, body) }
        try overlay.read(id, from: from, through: through, in: context, digests: digests, body)
    }

    /// How many stored events ``read(_:from:through:_:)`` reads in one read transaction: in a
    /// format-3 store the events `from + k·readChunk ..< from + (k+1)·readChunk` are read together,
    /// and a corrupt or missing record fails its whole chunk (none of its events reach `body`); in
    /// a format-4 store whole blocks until at least this many events, and the events before a
    /// damaged block (or a damaged event in one) reach `body` before the error.
    @_spi(Tools) public static var readChunk: UInt64 { StoreContext.readChunk }

    /// The latest stored snapshot at or before `seq` (see ``/RouteLogCore/EventLog/snapshot(_:atOrBefore:)``).
    public func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        try context.snapshot(id, atOrBefore: seq)
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

// MARK: Deleting sessions, retention, statistics, compaction and moving (``StoreLifecycle``)

extension LMDBEventLog {
    /// Deletes a session: its events, snapshots and row go in one write transaction, so a reader
    /// sees the whole session or none of it, and a crash leaves it whole or gone.
    ///
    /// If this log is writing the session, it stops (as ``finishWriting(_:)``) and the session
    /// is deleted.
    ///
    /// - Throws: `EventLogError.sessionNotFound`; ``LMDBEventLogError/sessionInUse(_:)`` when
    ///   another log or process is writing it (nothing is deleted); ``LMDBEventLogError``.
    public func deleteSession(_ id: SessionID) throws {
        try deleteSessions([id])
    }

    /// Deletes several sessions in one write transaction: all of them, or (when one is unknown or
    /// being written elsewhere) none.
    public func deleteSessions(_ ids: [SessionID]) throws {
        try lifecycle.deleteSessions(ids)
    }

    /// Ends this log's claim on a session it created or appended to: from now on retention (and
    /// other logs' ``deleteSession(_:)``) may delete it. A later append claims it again. Closing
    /// the log, or the process ending in any way, ends every claim.
    public func finishWriting(_ id: SessionID) {
        context.locks?.release(id)
    }

    /// Applies ``Options/retention`` now; returns the sessions it deleted. Sessions being written
    /// (by this log or any other, in any process) are skipped.
    @discardableResult
    public func applyRetention() throws -> [SessionInfo] {
        try lifecycle.applyRetention()
    }

    /// Applies `policy` now (see ``Retention``), or with `dryRun` only says what it would delete.
    @discardableResult
    @_spi(Tools) public func applyRetention(_ policy: Retention, dryRun: Bool = false) throws -> [SessionInfo] {
        try lifecycle.applyRetention(policy, dryRun: dryRun)
    }

    /// The store's counts and sizes, from one read transaction.
    public func statistics() throws -> Statistics {
        try lifecycle.statistics()
    }

    /// Writes a compacted copy of the store into `directory` (created if missing; it must be
    /// empty): `mdb_env_copy2` with `MDB_CP_COMPACT`, which reads in one read transaction, so an
    /// app may keep writing meanwhile; the copy holds what was committed when it began.
    ///
    /// The copy is written into a temporary directory beside `directory` (`.NAME.compact-PID`),
    /// given the store's file modes, and renamed into place once complete, so a failure (a full
    /// disk) or a kill never leaves a half-written store at `directory`; a failed copy's temporary
    /// directory is removed, and one left by a killed copy is removed by the next.
    ///
    /// With `format` 4 (``newStoreFormat``), the copy of a format-3 store is converted to format 4
    /// (events in blocks) before it is moved into place; every record is checked against its
    /// chain on the way, so a damaged store is refused and nothing is written at `directory`. A
    /// format-4 store's copy is a plain copy.
    @_spi(Tools) public func compactCopy(to directory: String, format: UInt32? = nil) throws {
        try lifecycle.compactCopy(to: directory, format: format)
    }

    /// The store's format: 3 (a record per event) or 4 (events in blocks).
    @_spi(Tools) public var storeFormat: UInt32 { context.databases.format }

    /// Moves every session of the store at `path` into this store, exactly once, keeping each
    /// session's id, label, app name and version, creation time, events and runs: an app's
    /// extension records into a small store of its own in the App Group container, and the app
    /// calls this at launch and when it returns to the foreground.
    ///
    /// The other store is opened with ``Options/oneProcessAtATime``, so never while its extension
    /// has it open (then nothing happens and ``MovedSessions/busy`` is set), and the extension's
    /// own journals are recovered first, as any read-write open does. A session is written into
    /// this store in transactions of at most 500 events (created with its own id when absent, else
    /// continued after the events this store already has), and deleted from the other store only
    /// once this store committed all of them: a move killed at any point leaves each event in one
    /// store or the other, and the next move continues it. The move never keeps the extension out:
    /// before each transaction it checks whether an extension's open waits for the store, and if
    /// so it lets go of the store at once and sets ``MovedSessions/busy`` (the sessions moved whole
    /// so far are listed; the next move goes on from there). An extension's open therefore waits
    /// for one transaction at most, never for the whole move. Nothing happens when there is no
    /// store at `path`.
    ///
    /// - Throws: ``LMDBEventLogError`` when this store cannot be written, or the other cannot be
    ///   read.
    public func moveSessions(fromStoreAt path: String) throws -> MovedSessions {
        try lifecycle.moveSessions(fromStoreAt: path)
    }
}

// MARK: Exporting and importing fixtures (``FixtureExport``, ``SessionImporter``)

extension LMDBEventLog {
    /// Exports a session as a fixture: its events with their metadata, a session header (label,
    /// app, app version, creation time) and an expectation recorded from the log (every stored
    /// outcome, the state after the last event and its digest).
    ///
    /// - Parameters:
    ///   - session: the session to export.
    ///   - name: the fixture's name; the session's label (or id, when the label is empty) by default.
    ///   - description: what the fixture shows.
    /// - Throws: `EventLogError.sessionNotFound`, ``LMDBEventLogError``.
    @_spi(Tools) public func exportFixture(session id: SessionID, name: String? = nil, description: String = "") throws -> Fixture {
        try FixtureExport.fixture(of: id, in: self, name: name, description: description)
    }

    /// Imports a fixture as a new session, keeping its session header (label, app, app version,
    /// creation time) and every event's metadata. The session and its events are written in one
    /// transaction: an import that fails (a full disk) or is killed midway leaves no session.
    ///
    /// - Parameter label: overrides the label from the fixture's header (or its name).
    /// - Returns: the new session.
    /// - Throws: ``LMDBEventLogError``, e.g. ``LMDBEventLogError/readOnly(path:)``.
    @discardableResult
    @_spi(Tools) public func importFixture(_ fixture: Fixture, label: String? = nil) throws -> SessionInfo {
        let id = try importer.importFixture(fixture, label: label).id
        try lifecycle.applyRetention()
        return try context.session(id)
    }

    /// Begins an import of fixture or export files whose sessions enter the store together, each
    /// file read once (see ``FixtureImport``).
    ///
    /// - Throws: ``LMDBEventLogError/readOnly(path:)`` for a read-only log.
    @_spi(Tools) public func beginImport() throws -> FixtureImport {
        _ = try context.requireWriter()
        return FixtureImport(self)
    }

    /// Imports a fixture or export file as a new session in bounded memory: the file is read
    /// again and its events are written as they are read, in transactions of 32,768 events, the
    /// session's row in the last one. A failure or a kill midway leaves no session, as
    /// ``importFixture(_:label:)``: what was written is removed then, or at the store's next
    /// read-write open.
    ///
    /// - Parameters:
    ///   - path: the file, already checked by ``Fixture/scan(contentsOf:event:bytesRead:)``.
    ///   - checked: what that check returned; the file must still read the same (else
    ///     ``FixtureError`` says it changed, and nothing is written).
    ///   - label: overrides the label from the file's header (or its name).
    ///   - progress: called with the number of events handed to the store so far, after each batch.
    /// - Throws: ``FixtureError``, ``LMDBEventLogError``.
    @discardableResult
    @_spi(Tools) public func importFixture(contentsOf path: String, checked: (header: Fixture, eventCount: Int), label: String? = nil,
                              progress: (Int) -> Void = { _ in }) throws -> SessionInfo {
        let id = try importer.importFixture(contentsOf: path, checked: checked, label: label,
                                            transactionEvents: SessionImporter.importTransactionEvents, progress: progress).id
        try lifecycle.applyRetention()
        return try context.session(id)
    }
}

// MARK: Runs and journals (``SessionRuns``, ``StoreJournals``)

extension LMDBEventLog: JournalingEventLog {
    /// What this log found in the store's journals when it opened: what it recovered (read-write)
    /// or shows beside the stored events (read-only), and what it could not.
    @_spi(Tools) public var journalRecovery: JournalRecovery { journals.recovery }

    /// The folder of the store's journals.
    @_spi(Tools) public var journalDirectory: String { journals.directory }

    /// The seqs of `id` that a read-only log shows from a crashed writer's journal, not yet in the
    /// store (`nil` when there are none): `routelog` marks them as recovered.
    @_spi(Tools) public func journaled(_ id: SessionID) -> ClosedRange<UInt64>? {
        journals.overlay?.journaled(id, in: context)
    }

    /// Starts a run of `id` (see ``/RouteLogCore/RunInfo``) and opens its journal: a navigator on this log calls
    /// it when it opens, so that each of its calls survives the death of the process.
    ///
    /// How the session's previous run ended is never guessed here: the journal of a writer that
    /// is gone is recovered first (its state says crashed, suspended or exited); a previous run
    /// still `open` after that, with no live writer and no journal, ends `unknown`. A session from
    /// before runs were recorded gets a first run of unknown end for its events.
    public func beginRun(of id: SessionID, head: UInt64, _ start: RunStart) throws -> any EventJournal {
        try journals.beginRun(of: id, head: head, start)
    }

    /// Whether a navigator writes `id`: one of this process, active or suspended (a suspended
    /// navigator holds no lock, but its session stays its own within the process), or an active
    /// one of another process (its writer lock is held). A suspended navigator of another process
    /// holds nothing, so its session counts as free there (see "The app's own scenes" in
    /// <doc:SharingAStore>).
    public func isBeingWritten(_ id: SessionID) -> Bool {
        if ProcessSessions.shared.contains(store: environment.path, id) { return true }
        return context.locks?.isHeld(id) ?? SessionLocks(storePath: path).isHeld(id)
    }

    /// The navigator of `id` suspends (its journal is suspended and holds everything the log does
    /// not): the session's writer lock goes, and when no navigator of this store is active in the
    /// process any more, the LMDB environment is released, with its files and their locks.
    public func suspendWriting(_ id: SessionID) {
        runs.suspendWriting(id)
    }

    /// The navigator of `id` resumes run `run`: it holds the session's writer lock again, and a
    /// run that a recovery in another process ended while it was suspended is open again. The
    /// environment opens again with this transaction.
    public func resumeWriting(_ id: SessionID, run: Int) throws {
        try runs.resumeWriting(id, run: run)
    }

    /// The runs of a session, oldest first. A reader of a store whose app crashed sees the crashed
    /// run's end before the next read-write open recovers it.
    public func runs(of id: SessionID) throws -> [RunInfo] {
        let stored = try runs.runs(of: id)
        return journals.overlay?.runs(stored, of: id) ?? stored
    }
}

@_spi(Tools) extension LMDBEventLog: FoldedAppendingEventLog {}
