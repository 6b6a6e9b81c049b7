#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

/// An open LMDB environment: one directory holding `data.mdb` and `lock.mdb`.
///
/// Environments are shared: ``open(at:options:)`` returns the environment already open for the
/// same resolved path in this process, because opening one file twice in a process and closing
/// either handle would drop the other's `fcntl` locks. The environment closes when the last
/// reference goes away (`deinit`), or earlier with ``release()``, after which the next transaction
/// opens it again.
///
/// Every environment is opened with `MDB_NOTLS`, so read transactions are not tied to threads.
/// Transactions are reached only through ``withReadTransaction(_:)`` and
/// ``withWriteTransaction(syncOnCommit:_:)``; a write transaction begins and commits inside that
/// one synchronous call, so it never crosses an `await`.
///
/// A full map grows by itself, up to ``Options/maxMapSize``: ``withWriteTransaction(syncOnCommit:_:)``
/// aborts, enlarges the map and runs the body again. A map grown by another process is adopted
/// when a transaction begins. The map is never writable (`MDB_WRITEMAP` is not used): LMDB writes
/// pages with `write`, so a stray pointer cannot damage the file and a full disk is an error, not
/// a signal.
///
/// **Writers that die.** LMDB serializes write transactions across processes with a lock kept in
/// `lock.mdb` (``lockMode``). With the robust mutexes of Linux's liblmdb, a writer killed inside a
/// transaction releases it and the next writer carries on. Apple platforms have no robust
/// process-shared locks: LMDB 0.9 uses POSIX named semaphores there, and a writer killed inside a
/// transaction leaves the semaphore taken until every process has closed the store (the next first
/// opener creates it anew). So that such a store never blocks a writer for good, in that mode each
/// write transaction first takes an `flock` on `writer.lock` beside `lock.mdb` (the kernel drops it
/// when its holder dies), then looks at LMDB's writer semaphore without waiting on it: taken while
/// no live process holds `writer.lock` means its holder died, and the transaction throws
/// ``LMDBError/writerDied`` at once; this environment is released so that the store can clear.
@_spi(Tools) public final class LMDBEnvironment: @unchecked Sendable {
    /// The environment's directory, resolved (symbolic links followed).
    public let path: String
    /// Whether the environment was opened read-only.
    public let isReadOnly: Bool
    /// Whether it was opened without LMDB's lock file (`MDB_NOLOCK`, read-only media only).
    public let isLockless: Bool
    /// The options it was opened with (an environment released and opened again uses them).
    public let options: Options

    /// The LMDB handle; `nil` while released. Read with the resize lock held shared, changed with
    /// it held exclusively.
    var handle: OpaquePointer?
    /// The map size when the environment was last released, to open it again at that size.
    var releasedMapSize: Int
    /// What `lock.mdb` says about the cross-process writer lock (set at each open).
    var mode: LockMode = .robustMutexes
    /// In the POSIX-semaphore mode: `writer.lock` (flocked around each write transaction) and
    /// LMDB's writer semaphore, opened by name to look at it. Set at each open, closed at release.
    var writerLockFD: Int32 = -1
    var writerSemaphore: UnsafeMutablePointer<sem_t>?
    /// A descriptor of `lock.mdb` to read its header (never closed while LMDB's are open).
    var lockFileFD: Int32 = -1
    /// `owner.lock`, held exclusively while open, with ``Options/oneProcessAtATime``.
    var ownerLockFD: Int32 = -1
    /// Shared by every transaction of this process; taken exclusively to resize the map, which
    /// LMDB allows only while the process has no transaction open, and to open or release the
    /// environment.
    let resizeLock: UnsafeMutablePointer<pthread_rwlock_t>
    /// Serializes this process's write transactions, so the sync flag can be set per commit.
    let writerLock = NSLock()
    let databaseLock = NSLock()
    var databases: [String: LMDBDatabase] = [:]
    /// The named databases opened so far, by handle: opened again in this order after a release,
    /// which gives them the same handles. Guarded by `knownLock`, taken after every other lock.
    var known: [MDB_dbi: String] = [:]
    let knownLock = NSLock()
    var currentNoSync: Bool
    let defaultNoSync: Bool
    /// Navigators of this process writing to this environment and not suspended.
    var activeNavigators = 0
    let navigatorLock = NSLock()

    private struct Entry {
        weak var environment: LMDBEnvironment?
    }

    /// Open environments by resolved path. A pthread-mutex lock (`NSLock`), not
    /// `Synchronization.Mutex`: ThreadSanitizer cannot see Mutex's futex on Linux and reports its
    /// guarded accesses as races.
    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String: Entry] = [:]

        func withLock<R>(_ body: (inout [String: Entry]) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&entries)
        }
    }

    private init(env: OpaquePointer, path: String, options: Options, lockless: Bool, ownerLock: Int32) {
        self.handle = env
        self.ownerLockFD = ownerLock
        self.path = path
        self.options = options
        self.isReadOnly = options.readOnly
        self.isLockless = lockless
        self.currentNoSync = options.noSync
        self.defaultNoSync = options.noSync
        self.releasedMapSize = options.mapSize
        resizeLock = .allocate(capacity: 1)
        pthread_rwlock_init(resizeLock, nil)
        attachWriterLock()
    }

    deinit {
        // Close while holding the registry, so a concurrent `open` of the same path waits until
        // this handle's locks are gone before it opens its own.
        let path = self.path
        Self.registry.withLock { entries in
            closeHandle()
            entries[path] = nil
        }
        pthread_rwlock_destroy(resizeLock)
        resizeLock.deallocate()
    }

    /// Opens the environment in the directory at `path`, or returns the one this process already
    /// has open there.
    ///
    /// The directory must exist (``LMDBEventLog`` creates it). When an environment is already open
    /// for the path, its options win, except that a read-write request for an environment open
    /// read-only throws ``LMDBError/incompatible``.
    ///
    /// - Throws: ``LMDBError``, e.g. ``LMDBError/invalid`` for a file that is not LMDB's,
    ///   ``LMDBError/permissionDenied`` for a directory that cannot be written.
    public static func open(at path: String, options: Options = Options()) throws(LMDBError) -> LMDBEnvironment {
        let resolved = resolve(path)
        while true {
            // Holds a found environment until the lock is released: dropping the last reference
            // inside the lock would run `deinit`, which takes the lock.
            var found: LMDBEnvironment?
            let result: Result<LMDBEnvironment, LMDBError>? = registry.withLock { entries in
                if let entry = entries[resolved] {
                    found = entry.environment
                    guard let existing = found else { return nil } // closing: wait
                    if existing.isReadOnly && !options.readOnly { return .failure(.incompatible) }
                    return .success(existing)
                }
                do throws(LMDBError) {
                    let (env, lockless, owner) = try openHandle(resolved, options, mapSize: options.mapSize, lockless: nil)
                    let environment = LMDBEnvironment(env: env, path: resolved, options: options, lockless: lockless, ownerLock: owner)
                    entries[resolved] = Entry(environment: environment)
                    return .success(environment)
                } catch {
                    return .failure(error)
                }
            }
            withExtendedLifetime(found) {}
            if let result { return try result.get() }
            usleep(200)
        }
    }

    /// Whether this process has an environment open at `path`.
    public static func isOpen(at path: String) -> Bool {
        let resolved = resolve(path)
        var found: LMDBEnvironment?
        registry.withLock { found = $0[resolved]?.environment }
        return found != nil
    }

    private static func resolve(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Opens an LMDB handle on `path`, with `owner.lock` taken first under
    /// ``Options/oneProcessAtATime`` (its descriptor, else -1; given back if the open fails).
    /// `lockless` nil: with the lock file, falling back to `MDB_NOLOCK` for a read-only open of a
    /// medium that cannot take one.
    static func openHandle(_ path: String, _ options: Options, mapSize: Int,
                           lockless: Bool?) throws(LMDBError) -> (OpaquePointer, lockless: Bool, owner: Int32) {
        let owner = try acquireOwnerLock(path, options)
        do throws(LMDBError) {
            let (env, lockless) = try openLMDB(path, options, mapSize: mapSize, lockless: lockless)
            return (env, lockless, owner)
        } catch {
            if owner >= 0 { close(owner) }
            throw error
        }
    }

    private static func openLMDB(_ path: String, _ options: Options, mapSize: Int,
                                 lockless: Bool?) throws(LMDBError) -> (OpaquePointer, lockless: Bool) {
        func attempt(lockless: Bool) throws(LMDBError) -> OpaquePointer {
            var envp: OpaquePointer?
            try LMDBError.check(mdb_env_create(&envp))
            guard let env = envp else { throw .invalidArgument }
            do throws(LMDBError) {
                try LMDBError.check(mdb_env_set_maxdbs(env, options.maxDatabases))
                try LMDBError.check(mdb_env_set_maxreaders(env, options.maxReaders))
                try LMDBError.check(mdb_env_set_mapsize(env, mapSize))
                var flags = UInt32(MDB_NOTLS)
                if options.readOnly { flags |= UInt32(MDB_RDONLY) }
                if options.noSync { flags |= UInt32(MDB_NOSYNC) }
                if lockless { flags |= UInt32(MDB_NOLOCK) }
                try LMDBError.check(mdb_env_open(env, path, flags, mode_t(options.fileMode)))
                return env
            } catch {
                mdb_env_close(env)
                throw error
            }
        }
        if !options.readOnly && lockless != true { try reserveLockFile(path, options) }
        if let lockless { return (try attempt(lockless: lockless), lockless) }
        do {
            return (try attempt(lockless: false), false)
        } catch where options.readOnly && (error == .permissionDenied || error == .readOnlyFileSystem) {
            return (try attempt(lockless: true), true)
        }
    }

    // MARK: Databases

    /// Opens the named database (`nil`: the unnamed main database), creating it if `create` is
    /// true and the environment is writable. Handles are cached for the environment's life.
    /// Call it outside any transaction (it runs its own).
    ///
    /// - Throws: ``LMDBError/notFound`` when it does not exist and is not created.
    public func database(named name: String?, create: Bool = false) throws -> LMDBDatabase {
        databaseLock.lock()
        defer { databaseLock.unlock() }
        let cacheKey = name.map { "n:" + $0 } ?? "main"
        if let db = databases[cacheKey] { return db }
        var handle: MDB_dbi = 0
        if create && !isReadOnly {
            try withWriteTransaction { txn in
                try LMDBError.check(mdb_dbi_open(txn.txn, name, UInt32(MDB_CREATE), &handle))
            }
        } else {
            // A handle opened in a read transaction must be committed to outlive it.
            try beginTransaction(readOnly: true) { txn throws(LMDBError) in
                let rc = mdb_dbi_open(txn, name, 0, &handle)
                if rc != 0 { mdb_txn_abort(txn); throw LMDBError(rawValue: rc) }
                try LMDBError.check(mdb_txn_commit(txn))
            }
        }
        let db = LMDBDatabase(name: name, handle: handle)
        databases[cacheKey] = db
        remember(db)
        return db
    }

    func remember(_ db: LMDBDatabase) {
        guard let name = db.name else { return }
        knownLock.withLock { known[db.handle] = name }
    }

    /// Runs `body` in one write transaction that first opens the main database and the named
    /// databases `names`, creating those that do not exist. Creating the databases and whatever
    /// `body` writes commit together, or (when `body` throws) not at all: another process sees
    /// either none of it or all of it. LMDB serializes write transactions across processes, so
    /// what `body` reads cannot change before the commit.
    ///
    /// `body` gets the transaction, the main database and the named ones in the order of `names`.
    /// The handles are cached (as by ``database(named:create:)``) only when the commit succeeds.
    /// Call it outside any transaction.
    public func withWriteTransaction<R>(
        openingDatabases names: [String], syncOnCommit: Bool? = nil,
        _ body: (LMDBWriteTransaction, LMDBDatabase, [LMDBDatabase]) throws -> R
    ) throws -> R {
        precondition(!isReadOnly, "write transaction on a read-only LMDB environment")
        // `mdb_dbi_open` must not run in two transactions of a process at once.
        databaseLock.lock()
        defer { databaseLock.unlock() }
        var opened: [LMDBDatabase] = []
        var mainHandle: MDB_dbi = 0
        let result = try withWriteTransaction(syncOnCommit: syncOnCommit) { txn in
            try LMDBError.check(mdb_dbi_open(txn.txn, nil, 0, &mainHandle))
            opened = try names.map { name throws(LMDBError) in
                var handle: MDB_dbi = 0
                try LMDBError.check(mdb_dbi_open(txn.txn, name, UInt32(MDB_CREATE), &handle))
                return LMDBDatabase(name: name, handle: handle)
            }
            return try body(txn, LMDBDatabase(name: nil, handle: mainHandle), opened)
        }
        databases["main"] = LMDBDatabase(name: nil, handle: mainHandle)
        for db in opened {
            databases["n:" + db.name!] = db
            remember(db)
        }
        return result
    }

    // MARK: Transactions

    /// Runs `body` with the environment open (opening a released one) and the resize lock held
    /// shared.
    func withHandle<R>(_ body: (OpaquePointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
        while true {
            pthread_rwlock_rdlock(resizeLock)
            if let env = handle {
                defer { pthread_rwlock_unlock(resizeLock) }
                return try body(env)
            }
            pthread_rwlock_unlock(resizeLock)
            try reopen()
        }
    }

    /// Begins a transaction with the resize lock held shared, adopting a map grown by another
    /// process. `body` must end the transaction. `prepare` runs first, with the handle, for a
    /// write transaction's flags.
    func beginTransaction<R>(readOnly: Bool, prepare: (OpaquePointer) throws(LMDBError) -> Void = { _ in },
                                     _ body: (OpaquePointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
        while true {
            pthread_rwlock_rdlock(resizeLock)
            guard let env = handle else {
                pthread_rwlock_unlock(resizeLock)
                try reopen()
                continue
            }
            do {
                try prepare(env)
            } catch {
                pthread_rwlock_unlock(resizeLock)
                throw error
            }
            var txnp: OpaquePointer?
            let rc = mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txnp)
            if rc == MDB_MAP_RESIZED {
                pthread_rwlock_unlock(resizeLock)
                try adoptMapSize()
                continue
            }
            defer { pthread_rwlock_unlock(resizeLock) }
            try LMDBError.check(rc)
            return try body(txnp!)
        }
    }

    func adoptMapSize() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return }
        try LMDBError.check(mdb_env_set_mapsize(env, 0))
    }

    /// Runs `body` in a read transaction, which sees one consistent snapshot of the store.
    ///
    /// Keep it short: while it is open, LMDB cannot reuse the pages it sees. Do not start a write
    /// transaction inside it. The transaction and any pointer it hands out are valid only inside
    /// `body`.
    public func withReadTransaction<R>(_ body: (LMDBReadTransaction) throws -> R) throws -> R {
        try beginTransactionRethrowing(readOnly: true) { txn in
            let t = LMDBReadTransaction(txn)
            defer {
                t.invalidate()
                mdb_txn_abort(txn)
            }
            return try body(t)
        }
    }

    /// Runs `body` in a write transaction on the calling thread; commits when it returns, aborts
    /// when it throws.
    ///
    /// Only one write transaction is open at a time in this process (and LMDB serializes writers
    /// across processes). When the map is full, the transaction is aborted, the map grows and
    /// `body` runs again, so `body` must only act through the transaction until it returns. Do
    /// not open databases or start another transaction inside `body`: open databases first.
    ///
    /// - Parameters:
    ///   - syncOnCommit: `true` makes the commit durable (fsync) before returning; `false` skips
    ///     the fsync (see ``sync(force:)``); `nil` uses ``Options/noSync``.
    /// - Throws: ``LMDBError`` or whatever `body` throws: ``LMDBError/writerDied`` or
    ///   ``LMDBError/writerBusy`` when another process's write transaction blocks this one (see
    ///   ``lockMode``), ``LMDBError/mapFull`` when the map would pass ``Options/maxMapSize``.
    public func withWriteTransaction<R>(syncOnCommit: Bool? = nil, _ body: (LMDBWriteTransaction) throws -> R) throws -> R {
        precondition(!isReadOnly, "write transaction on a read-only LMDB environment")
        writerLock.lock()
        defer { writerLock.unlock() }
        let noSync = syncOnCommit.map { !$0 } ?? defaultNoSync
        var reopenedAfterDeadWriter = false
        while true {
            do {
                let leave = try enterWriterGate()
                defer { leave() }
                return try beginTransactionRethrowing(readOnly: false, prepare: { env throws(LMDBError) in
                    if noSync != self.currentNoSync {
                        try LMDBError.check(mdb_env_set_flags(env, UInt32(MDB_NOSYNC), noSync ? 1 : 0))
                        self.currentNoSync = noSync
                    }
                }) { txn in
                    let t = LMDBWriteTransaction(txn)
                    var done = false
                    defer {
                        t.invalidate()
                        if !done { mdb_txn_abort(txn) }
                    }
                    let result = try body(t)
                    done = true
                    try LMDBError.check(mdb_txn_commit(txn))
                    return result
                }
            } catch let error as LMDBError where error == .mapFull {
                try growMap()
            } catch let error as LMDBError where error == .writerDied && !reopenedAfterDeadWriter {
                // Released: if this process was the last to have the store open, opening it again
                // makes it the first opener, which creates LMDB's semaphores anew.
                reopenedAfterDeadWriter = true
            }
        }
    }

    func beginTransactionRethrowing<R>(readOnly: Bool, prepare: (OpaquePointer) throws(LMDBError) -> Void = { _ in },
                                               _ body: (OpaquePointer) throws -> R) throws -> R {
        var outcome: Result<R, any Error>!
        try beginTransaction(readOnly: readOnly, prepare: prepare) { txn throws(LMDBError) in
            do { outcome = .success(try body(txn)) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }

    /// Grows the map: doubles it, by at most 1 GiB a step, up to ``Options/maxMapSize``.
    func growMap() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return }
        var info = MDB_envinfo()
        try LMDBError.check(mdb_env_info(env, &info))
        let current = info.me_mapsize
        guard current < options.maxMapSize else { throw .mapFull }
        let step = min(max(current, 1 << 20), 1 << 30)
        let target = min((current + step + 0xFFFF) & ~0xFFFF, options.maxMapSize)
        try LMDBError.check(mdb_env_set_mapsize(env, target))
    }

}
