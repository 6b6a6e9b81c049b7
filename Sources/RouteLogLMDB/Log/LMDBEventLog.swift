import Foundation
import RouteLogCore

/// A durable, append-only, verifiable ``EventLog`` in an LMDB store.
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
/// bytes, so the records form a chain). Reads check each checksum; ``verify(session:reducer:)``
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
/// time (the CLI follows a live app with ``follow(session:from:)``). Within a process, stores are
/// shared per path (see ``LMDBEnvironment``). Stale reader slots are cleared at open and a full
/// map grows by itself. <doc:SharingAStore> covers an app and its extensions on one store.
///
/// On Linux it runs on the system's liblmdb; on Apple platforms on LMDB 0.9's own sources, built
/// into the app (see "Apple platforms" in the module's overview).
public final class LMDBEventLog: EventLog, @unchecked Sendable {
    /// When appended events reach the disk.
    public enum Durability: Hashable, Sendable {
        /// Every append returns after a synced commit (`fsync`). The slowest; survives a system
        /// crash.
        case perEvent
        /// Appends return after an unsynced commit; an `fsync` runs at most `maxDelay` later,
        /// covering everything committed meanwhile. An application crash loses nothing; a system
        /// crash may lose the last `maxDelay` of events.
        case grouped(maxDelay: Duration)
        /// Never `fsync` (the operating system writes back eventually). For tests and scratch data.
        case none
    }

    /// How to open a store.
    public struct Options: Sendable {
        /// Open for reading only (`MDB_RDONLY`): appends throw ``LMDBEventLogError/readOnly(path:)``.
        /// A store in a read-only directory can still be opened this way.
        public var readOnly: Bool
        /// When appends reach the disk. `.grouped(maxDelay: .milliseconds(100))` by default.
        public var durability: Durability
        /// A snapshot of the state is stored every this many events, so that `state(of:at:)`
        /// costs one snapshot decode plus at most `snapshotInterval − 1` folds.
        public var snapshotInterval: UInt64
        /// The initial LMDB map size in bytes; the map grows when it fills.
        public var initialMapSize: Int
        /// The largest the map grows to (``LMDBEnvironment/Options/defaultMaxMapSize``: 1 GiB on
        /// iOS, tvOS, watchOS and visionOS, whose apps have a few GB of address space, 64 GiB
        /// elsewhere). An append that needs more throws ``LMDBEventLogError/storeFull(path:maxMapSize:)``.
        public var maxMapSize: Int
        /// The number of reader slots, shared by every process that opens the store (each read
        /// transaction of each process takes one while it runs). Only the first process to open
        /// the store sets it; later processes use that count.
        public var maxReaders: UInt32
        /// Milliseconds since 1970, used for session creation times and ids, and for the age in
        /// ``Retention/maxAge``.
        public var clock: @Sendable () -> Int64
        /// The Data Protection class of the store's folder and files on Apple platforms
        /// (``FileProtection/completeUntilFirstUserAuthentication`` by default).
        public var fileProtection: FileProtection
        /// Whether one process at a time may have the store open (see
        /// ``LMDBEnvironment/Options/oneProcessAtATime``): an app extension's own store in the App
        /// Group container, opened only while the extension handles a request, and by the app only
        /// while it moves the extension's sessions into its own store
        /// (``moveSessions(fromStoreAt:)``). Off by default.
        public var oneProcessAtATime: Bool
        /// Which sessions the store keeps, applied at open and after each session this log
        /// creates (read-write logs only). ``Retention/app`` (the 50 newest sessions, none older
        /// than 30 days) by default; ``Retention/none`` keeps everything.
        public var retention: Retention

        /// - Parameters:
        ///   - readOnly: open for reading only.
        ///   - durability: when appends reach the disk.
        ///   - snapshotInterval: store a snapshot every K events (K ≥ 1).
        ///   - initialMapSize: the initial map size in bytes (64 MiB).
        ///   - maxMapSize: the largest map size in bytes.
        ///   - maxReaders: reader slots (LMDB's default, 126).
        ///   - clock: milliseconds since 1970.
        ///   - retention: which sessions the store keeps (``Retention/app``).
        ///   - oneProcessAtATime: one process at a time has the store open (an extension's store).
        ///   - fileProtection: the Data Protection class of the store's files on Apple platforms.
        public init(readOnly: Bool = false, durability: Durability = .grouped(maxDelay: .milliseconds(100)),
                    snapshotInterval: UInt64 = LMDBEventLog.defaultSnapshotInterval, initialMapSize: Int = 64 << 20,
                    maxMapSize: Int = LMDBEnvironment.Options.defaultMaxMapSize,
                    maxReaders: UInt32 = 126,
                    clock: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
                    retention: Retention = .app, oneProcessAtATime: Bool = false,
                    fileProtection: FileProtection = .completeUntilFirstUserAuthentication) {
            self.readOnly = readOnly
            self.durability = durability
            self.snapshotInterval = snapshotInterval
            self.initialMapSize = initialMapSize
            self.maxMapSize = maxMapSize
            self.maxReaders = maxReaders
            self.clock = clock
            self.retention = retention
            self.oneProcessAtATime = oneProcessAtATime
            self.fileProtection = fileProtection
        }
    }

    /// The default snapshot interval.
    ///
    /// Measured on a 2-core Linux machine (release build, 200,000 events of the realistic generated
    /// mix, batches of 1,000, a loaded machine so figures are ±30 %): the median `state(of:at:)`
    /// at random seqs took 0.08 ms at K = 64, 0.14 ms at 256, 0.4–0.9 ms at 1024, 3.2 ms at 4096
    /// and 148 ms with no snapshots, while a full replay of the 200,000 events took 180–700 ms;
    /// append throughput showed no difference between K = 64 and 4096 beyond the noise. 1024 keeps
    /// `state(at:)` under a millisecond (well under 1/1000 of a replay of a long session) with one
    /// snapshot per thousand events.
    public static let defaultSnapshotInterval: UInt64 = 1024

    /// The store path used when none is given: `$ROUTELOG_STORE` when set; in an app on an Apple
    /// platform, `RouteLog/store` in the app's own Application Support folder (never an App Group
    /// container: see <doc:SharingAStore>), which ``open(at:options:)`` excludes from backup;
    /// elsewhere (Linux, a command-line tool) `./.routelog`.
    public static var defaultPath: String {
        if let path = ProcessInfo.processInfo.environment["ROUTELOG_STORE"], !path.isEmpty { return path }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return applicationSupportStore
        #elseif os(macOS)
        return Bundle.main.bundleIdentifier == nil ? "./.routelog" : applicationSupportStore
        #else
        return "./.routelog"
        #endif
    }

    #if canImport(Darwin)
    /// `RouteLog/store` in the app's Application Support folder.
    static var applicationSupportStore: String {
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return base.appendingPathComponent("RouteLog/store", isDirectory: true).path
    }
    #endif

    /// The Data Protection class of a store's files on Apple platforms (ignored elsewhere).
    public enum FileProtection: Hashable, Sendable {
        /// Readable from the first unlock after a restart until the next restart, also while
        /// the device is locked (the default): an app can record while locked, in the background.
        /// Before that first unlock, opening fails (EPERM) and the navigator works from memory
        /// until it can (see `Navigator.restoringLatest(store:open:)`).
        case completeUntilFirstUserAuthentication
        /// Readable only while the device is unlocked: about ten seconds after it locks, a read
        /// fails and a fault on a page of the map that is not in memory kills the process, so an
        /// app choosing this must ``LMDBEnvironment/release()`` the store (`Navigator.suspend()`)
        /// before the device locks.
        case complete
        /// No protection class is set: the files get the app's default.
        case appDefault
    }

    /// The store's directory, as given to ``open(at:options:)``.
    public let path: String
    /// The options the log was opened with.
    public let options: Options
    /// The LMDB environment (shared with other logs on the same path in this process).
    public let environment: LMDBEnvironment

    let metaDB: LMDBDatabase
    let sessionsDB: LMDBDatabase
    let eventsDB: LMDBDatabase
    let snapshotsDB: LMDBDatabase
    let sitesDB: LMDBDatabase
    private let writer: Writer?
    /// The writer locks of the sessions this log writes (`nil` when read-only).
    let locks: SessionLocks?

    /// A session's head: its row and the state after its last event.
    struct Head {
        var replayer: Replayer
        var row: SessionRow
        /// The running time base after the last event (see ``StoredPayload``).
        var timeBase: Int64
        /// The session's call sites and their indexes in `sites`.
        var sites: [CallSite: UInt32]
    }

    /// Heads of the sessions this log has written; touched only on the writer thread.
    private var heads: [SessionID: Head] = [:]

    /// What this log found in the store's journals when it opened: what it recovered (read-write)
    /// or shows beside the stored events (read-only), and what it could not.
    public private(set) var journalRecovery = JournalRecovery()
    /// The journaled events a read-only log shows (set once, at open).
    private(set) var overlay: JournalOverlay?

    private init(path: String, options: Options, environment: LMDBEnvironment, databases: [LMDBDatabase]) {
        self.path = path
        self.options = options
        self.environment = environment
        metaDB = databases[0]
        sessionsDB = databases[1]
        eventsDB = databases[2]
        snapshotsDB = databases[3]
        sitesDB = databases[4]
        writer = options.readOnly ? nil : Writer(environment: environment, durability: options.durability)
        locks = options.readOnly ? nil : SessionLocks(storePath: path)
    }

    deinit {
        writer?.stop()
        locks?.releaseAll()
    }

    /// Drops the cached head of a deleted session (on the writer thread).
    func forgetHead(_ id: SessionID) { heads[id] = nil }

    /// Keeps `head` as `id`'s head (on the writer thread, after the commit that wrote it).
    func rememberHead(_ head: Head, for id: SessionID) { heads[id] = head }

    /// Forces everything committed so far to disk (`fsync`), whatever the durability.
    public func flush() throws {
        do { try environment.sync(force: true) } catch { throw LMDBEventLogError.storage(error, operation: "syncing \(path)") }
    }

    // MARK: Opening

    static let databaseNames = ["meta", "sessions", "events", "snapshots", "sites"]

    /// How long a read-only open waits for a store that another process is creating (its
    /// `lock.mdb` exists but not yet its `data.mdb`, or its environment has no commit yet) before
    /// it reports that the directory is not a store.
    static let creationWait: Duration = .seconds(2)

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
        try prepareDirectory(path, readOnly: options.readOnly)
        let environment = try openEnvironment(path, options: options)
        if !options.readOnly { protect(path, options.fileProtection) }
        do {
            try environment.clearStaleReaders()
            let databases = options.readOnly
                ? try openExistingStore(environment, path: path)
                : try createOrOpenStore(environment, path: path)
            let log = LMDBEventLog(path: path, options: options, environment: environment, databases: databases)
            if options.readOnly {
                (log.overlay, log.journalRecovery) = log.loadOverlay()
            } else {
                // Before retention, which must not take a session whose journal holds its last events.
                log.journalRecovery = log.recoverJournals()
                // Invisible until removed, so a failure here (a full disk) waits for the next open.
                _ = try? log.removeAbandonedImports()
                try log.applyRetention()
            }
            return log
        } catch let error as LMDBError {
            throw LMDBEventLogError.storage(error, operation: "opening \(path)")
        }
    }

    func requireWriter() throws -> Writer {
        guard let writer else { throw LMDBEventLogError.readOnly(path: path) }
        return writer
    }

    // MARK: Sessions

    public func createSession(_ new: NewSession) throws -> SessionInfo {
        try createSession(new, createdAt: options.clock())
    }

    /// Creates a session with a given creation time (used by import) and, with `events`, its
    /// events, all in one transaction: the session appears with all its events or not at all.
    /// An `imported` session is marked so, and `restoringLatest` never resumes it.
    func createSession(_ new: NewSession, createdAt: Int64, imported: Bool = false, events: [RecordedEvent] = []) throws -> SessionInfo {
        let writer = try requireWriter()
        let (info, key) = try claimNewSession(new, createdAt: createdAt)
        let id = info.id
        let bodies = events.map { StoredPayload.eventBody($0.event) }
        try writer.perform(weight: max(1, events.count)) { [self] txn, scratch in
            let row = try numberedRow(txn, info)
            try txn.put(row.encode(), forKey: key, in: sessionsDB, options: .noOverwrite)
            if imported { try txn.put([1], forKey: ImportMark.key(row.eventPrefix), in: metaDB) }
            var head = Head(emptySession: row)
            if !events.isEmpty { _ = try appendRecords(txn, &head, events, bodies: bodies, id: id, key: key, collect: false) }
            scratch[id] = head
            let committed = head
            return { [self] in heads[id] = committed }
        }
        try applyRetention()
        return try session(id)
    }

    /// A new session's id, key and info, claimed (its writer lock held) before it exists, so that
    /// retention, here or in another process, never takes it.
    func claimNewSession(_ new: NewSession, createdAt: Int64) throws -> (SessionInfo, key: [UInt8]) {
        var rng = SystemRandomNumberGenerator()
        let id = SessionID.v7(milliseconds: createdAt, random: (rng.next(), rng.next()))
        let key = try sessionKey(id)
        try locks?.hold(id)
        let info = SessionInfo(id: id, label: new.label, appName: new.appName, appVersion: new.appVersion, createdAt: createdAt,
                               enteredAt: options.clock())
        return (info, key)
    }

    /// A new session's row, numbered in `txn`: the entry counter orders sessions by when they
    /// entered this store (``sessions()``), and is also the session's number in event keys (4
    /// bytes). The write transaction is exclusive, across processes too.
    func numberedRow(_ txn: LMDBWriteTransaction, _ info: SessionInfo) throws -> SessionRow {
        var last: UInt64 = 0
        if let bytes = try txn.value(forKey: StoreKey.entries, in: metaDB) {
            guard bytes.count == 8 else {
                throw LMDBEventLogError.corruptValue(database: "meta", key: "entries", reason: "expected an 8-byte counter, found \(bytes.count) bytes")
            }
            last = bytes.reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard last < UInt64(UInt32.max) else {
            throw LMDBEventLogError.corruptValue(database: "meta", key: "entries", reason: "the store has numbered \(last) sessions, the most a store can hold")
        }
        var counter = BinaryWriter()
        counter.writeBigEndian(last + 1)
        try txn.put(counter.bytes, forKey: StoreKey.entries, in: metaDB)
        var row = SessionRow(info: info, headHash: .zero)
        row.info.entryOrder = last + 1
        return row
    }

    public func sessions() throws -> [SessionInfo] {
        let all = try withRead("listing sessions in \(path)") { txn in try sessions(txn) }
        return overlay == nil ? all : all.map(withJournaled)
    }

    public func session(_ id: SessionID) throws -> SessionInfo {
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        guard let info = try withRead("reading session \(id)", { txn in
            try readRow(txn, id, key).map { row in
                var info = row.info
                info.imported = try isImported(txn, info)
                return info
            }
        }) else {
            throw EventLogError.sessionNotFound(id)
        }
        return overlay == nil ? info : withJournaled(info)
    }

    /// The hash of a session's last record (zero when it has none): the head of its chain.
    public func headHash(of id: SessionID) throws -> Digest {
        guard let key = StoreKey.sessionBytes(id),
              let row = try withRead("reading session \(id)", { try readRow($0, id, key) }) else {
            throw EventLogError.sessionNotFound(id)
        }
        return row.headHash
    }

    // MARK: Append

    /// The head of a session as stored, from the cache when it is current.
    func loadHead(_ txn: LMDBReadTransaction, _ id: SessionID, _ rowKey: [UInt8], _ scratch: Writer.Scratch) throws -> Head {
        guard let row = try readRow(txn, id, rowKey) else { throw EventLogError.sessionNotFound(id) }
        if let cached = scratch[id] ?? heads[id], cached.row.info == row.info, cached.row.headHash == row.headHash {
            return cached
        }
        // Another handle or process wrote since: rebuild from the latest snapshot.
        let key = row.eventPrefix
        let count = row.info.eventCount
        var replayer = Replayer()
        let snapshot = try txn.withLastEntry(in: snapshotsDB, before: StoreKey.event(key, count == .max ? count : count + 1)) { k, v -> Snapshot? in
            guard let seq = StoreKey.seq(k, session: key) else { return nil }
            do { return Snapshot(seq: seq, state: try SnapshotCodec.decode(v)) } catch {
                throw LMDBEventLogError.corruptValue(database: "snapshots", key: "\(id) seq \(seq)", reason: "\(error)")
            }
        } ?? nil
        if let snapshot { replayer = Replayer(state: snapshot.state, seq: snapshot.seq) }
        var chain = try chain(txn, session: id, row: row, before: replayer.seq + 1)
        var expected = replayer.seq + 1
        if expected <= count {
            try txn.forEach(in: eventsDB, from: StoreKey.event(key, expected)) { k, v in
                guard let seq = StoreKey.seq(k, session: key), seq <= count else { return false }
                guard seq == expected else {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                }
                let (event, _) = try decodeRecord(v, session: id, seq: seq, chain: &chain, txn)
                replayer.apply(event.event)
                expected += 1
                return true
            }
        }
        guard replayer.seq == count else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: replayer.seq + 1, reason: "record is missing")
        }
        guard chain.previous == row.headHash else {
            throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "the head hash does not match the last record")
        }
        // The session's call sites, to give the next events' call sites their indexes: numbered
        // from 0 without a gap, each once (the next one takes the next number).
        var sites: [CallSite: UInt32] = [:]
        try txn.forEach(in: sitesDB, from: SiteCodec.key(key, 0)) { k, v in
            guard let index = SiteCodec.index(k, session: key) else { return false }
            let keyBytes = Array(k)
            let site: CallSite
            do { site = try SiteCodec.decode(v, key: keyBytes) } catch {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(index)", reason: "\(error)")
            }
            guard index == UInt32(sites.count) else {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(sites.count)", reason: "missing (the next entry is \(index))")
            }
            guard sites.updateValue(index, forKey: site) == nil else {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(index)", reason: "the same call site as an earlier entry")
            }
            return true
        }
        return Head(replayer: replayer, row: row, timeBase: chain.timeBase, sites: sites)
    }

    /// Appends a batch in one transaction (see ``EventLog/append(_:to:expectedSeq:)``).
    ///
    /// Concurrent appends to any sessions are committed together. Returns once the batch is
    /// committed (and, with ``Durability/perEvent``, synced).
    ///
    /// - Throws: `EventLogError.conflict` when `expectedSeq` is not the session's last seq
    ///   (nothing is written); `EventLogError.sessionNotFound`; ``LMDBEventLogError``.
    @discardableResult
    public func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try append(events, to: id, expectedSeq: expectedSeq, also: nil)
    }

    /// ``append(_:to:expectedSeq:)``, with `also` writing more in the same transaction (given the
    /// session's key prefix).
    func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64,
                also: ((LMDBWriteTransaction, [UInt8]) throws -> Void)?) throws -> [StoredEvent] {
        let writer = try requireWriter()
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        try locks?.hold(id)
        // Encode the events on the caller's thread, so concurrent appenders share the work (their
        // metadata depends on the session's head, so it is encoded in the transaction).
        let bodies = events.map { StoredPayload.eventBody($0.event) }
        var result: [StoredEvent] = []
        defer {
            // A session that is not there (deleted meanwhile) is not claimed.
            if result.isEmpty && !events.isEmpty, (try? session(id)) == nil { locks?.release(id) }
        }
        try writer.perform(weight: max(1, events.count)) { [self] txn, scratch in
            var head = try loadHead(txn, id, key, scratch)
            let actual = head.row.info.eventCount
            guard actual == expectedSeq else {
                throw EventLogError.conflict(session: id, expected: expectedSeq, actual: actual)
            }
            // A key holds a seq of 40 bits.
            guard UInt64(events.count) <= StoreKey.maxSeq - min(actual, StoreKey.maxSeq) else {
                throw LMDBEventLogError.corruptValue(database: "events", key: id.rawValue,
                                                    reason: "the session has \(actual) events; a session holds at most \(StoreKey.maxSeq)")
            }
            // Nothing above wrote; from here on only LMDB errors can throw (and abort the group).
            let stored = try appendRecords(txn, &head, events, bodies: bodies, id: id, key: key)
            try also?(txn, head.row.eventPrefix)
            scratch[id] = head
            result = stored
            let committed = head
            return { [self] in heads[id] = committed }
        }
        return result
    }
}
