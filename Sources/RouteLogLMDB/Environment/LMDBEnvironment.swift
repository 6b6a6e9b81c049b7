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
/// reference goes away (`deinit`).
///
/// Every environment is opened with `MDB_NOTLS`, so read transactions are not tied to threads.
/// Transactions are reached only through ``withReadTransaction(_:)`` and
/// ``withWriteTransaction(syncOnCommit:_:)``; a write transaction begins and commits inside that
/// one synchronous call, so it never crosses an `await`.
///
/// A full map grows by itself: ``withWriteTransaction(syncOnCommit:_:)`` aborts, enlarges the map
/// and runs the body again. A map grown by another process is adopted when a transaction begins.
public final class LMDBEnvironment: @unchecked Sendable {
    /// How to open an environment.
    public struct Options: Hashable, Sendable {
        /// Open with `MDB_RDONLY`: reads only. If the lock file cannot be opened for writing
        /// (a read-only directory or medium), the environment is opened with `MDB_NOLOCK` as well,
        /// which is safe only while no other process writes to it.
        public var readOnly: Bool
        /// The initial map size in bytes (grown on demand). LMDB raises it to the file's size.
        public var mapSize: Int
        /// The most named databases the environment can open.
        public var maxDatabases: UInt32
        /// The number of reader slots shared by all processes (LMDB's default is 126).
        public var maxReaders: UInt32
        /// Whether commits skip `fsync` by default (`MDB_NOSYNC`). A write transaction can
        /// override this with its `syncOnCommit` argument; ``sync(force:)`` flushes explicitly.
        public var noSync: Bool
        /// The mode of the files LMDB creates.
        public var fileMode: UInt32

        /// - Parameters:
        ///   - readOnly: open for reading only.
        ///   - mapSize: the initial map size in bytes; 64 MiB by default.
        ///   - maxDatabases: the most named databases; 16 by default.
        ///   - maxReaders: reader slots; 126 by default.
        ///   - noSync: skip `fsync` on commit unless a transaction asks for it.
        ///   - fileMode: the mode of created files; `0o600` by default.
        public init(readOnly: Bool = false, mapSize: Int = 64 << 20, maxDatabases: UInt32 = 16,
                    maxReaders: UInt32 = 126, noSync: Bool = false, fileMode: UInt32 = 0o600) {
            self.readOnly = readOnly
            self.mapSize = mapSize
            self.maxDatabases = maxDatabases
            self.maxReaders = maxReaders
            self.noSync = noSync
            self.fileMode = fileMode
        }
    }

    /// The environment's directory, resolved (symbolic links followed).
    public let path: String
    /// Whether the environment was opened read-only.
    public let isReadOnly: Bool
    /// Whether it was opened without LMDB's lock file (`MDB_NOLOCK`, read-only media only).
    public let isLockless: Bool

    let env: OpaquePointer
    /// Shared by every transaction of this process; taken exclusively to resize the map, which
    /// LMDB allows only while the process has no transaction open.
    private let resizeLock: UnsafeMutablePointer<pthread_rwlock_t>
    /// Serializes this process's write transactions, so the sync flag can be set per commit.
    private let writerLock = NSLock()
    private let databaseLock = NSLock()
    private var databases: [String: LMDBDatabase] = [:]
    private var currentNoSync: Bool
    private let defaultNoSync: Bool

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

    private init(env: OpaquePointer, path: String, options: Options, lockless: Bool) {
        self.env = env
        self.path = path
        self.isReadOnly = options.readOnly
        self.isLockless = lockless
        self.currentNoSync = options.noSync
        self.defaultNoSync = options.noSync
        resizeLock = .allocate(capacity: 1)
        pthread_rwlock_init(resizeLock, nil)
    }

    deinit {
        // Close while holding the registry, so a concurrent `open` of the same path waits until
        // this handle's locks are gone before it opens its own.
        let path = self.path
        let env = self.env
        Self.registry.withLock { entries in
            mdb_env_close(env)
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
                    let env = try create(resolved, options)
                    entries[resolved] = Entry(environment: env)
                    return .success(env)
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

    private static func create(_ path: String, _ options: Options) throws(LMDBError) -> LMDBEnvironment {
        func attempt(lockless: Bool) throws(LMDBError) -> OpaquePointer {
            var envp: OpaquePointer?
            try LMDBError.check(mdb_env_create(&envp))
            guard let env = envp else { throw .invalidArgument }
            do throws(LMDBError) {
                try LMDBError.check(mdb_env_set_maxdbs(env, options.maxDatabases))
                try LMDBError.check(mdb_env_set_maxreaders(env, options.maxReaders))
                try LMDBError.check(mdb_env_set_mapsize(env, options.mapSize))
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
        do {
            return LMDBEnvironment(env: try attempt(lockless: false), path: path, options: options, lockless: false)
        } catch where options.readOnly && (error == .permissionDenied || error == .readOnlyFileSystem) {
            return LMDBEnvironment(env: try attempt(lockless: true), path: path, options: options, lockless: true)
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
        return db
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
        for db in opened { databases["n:" + db.name!] = db }
        return result
    }

    // MARK: Transactions

    /// Begins a transaction with the resize lock held shared, adopting a map grown by another
    /// process. `body` must end the transaction.
    private func beginTransaction<R>(readOnly: Bool, _ body: (OpaquePointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
        while true {
            pthread_rwlock_rdlock(resizeLock)
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

    private func adoptMapSize() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
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
    /// - Throws: ``LMDBError`` or whatever `body` throws.
    public func withWriteTransaction<R>(syncOnCommit: Bool? = nil, _ body: (LMDBWriteTransaction) throws -> R) throws -> R {
        precondition(!isReadOnly, "write transaction on a read-only LMDB environment")
        writerLock.lock()
        defer { writerLock.unlock() }
        let noSync = syncOnCommit.map { !$0 } ?? defaultNoSync
        if noSync != currentNoSync {
            try LMDBError.check(mdb_env_set_flags(env, UInt32(MDB_NOSYNC), noSync ? 1 : 0))
            currentNoSync = noSync
        }
        while true {
            do {
                return try beginTransactionRethrowing(readOnly: false) { txn in
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
            }
        }
    }

    private func beginTransactionRethrowing<R>(readOnly: Bool, _ body: (OpaquePointer) throws -> R) throws -> R {
        var outcome: Result<R, any Error>!
        try beginTransaction(readOnly: readOnly) { txn throws(LMDBError) in
            do { outcome = .success(try body(txn)) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }

    /// Grows the map: doubles it, by at most 1 GiB a step.
    private func growMap() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        var info = MDB_envinfo()
        try LMDBError.check(mdb_env_info(env, &info))
        let current = info.me_mapsize
        let step = min(max(current, 1 << 20), 1 << 30)
        let target = (current + step + 0xFFFF) & ~0xFFFF
        try LMDBError.check(mdb_env_set_mapsize(env, target))
    }

    // MARK: Maintenance

    /// The current map size in bytes.
    public var mapSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_mapsize
    }

    /// Flushes committed data to disk (`mdb_env_sync`). With `force`, even when the environment
    /// skips syncs on commit.
    public func sync(force: Bool = true) throws(LMDBError) {
        try LMDBError.check(mdb_env_sync(env, force ? 1 : 0))
    }

    /// Clears reader slots left by dead processes (`mdb_reader_check`) and returns how many.
    @discardableResult
    public func clearStaleReaders() throws(LMDBError) -> Int {
        if isLockless { return 0 }
        var dead: Int32 = 0
        try LMDBError.check(mdb_reader_check(env, &dead))
        return Int(dead)
    }
}

/// Maintenance: copies and space accounting.
extension LMDBEnvironment {
    /// What `mdb_env_info` and the free-page list say about the environment.
    public struct SpaceInfo: Hashable, Sendable {
        /// The map size in bytes.
        public var mapSize: Int
        /// The page size in bytes.
        public var pageSize: Int
        /// Pages the file holds up to its last used one (`me_last_pgno + 1`).
        public var usedPages: Int
        /// Pages on LMDB's free list: in the file, free for reuse by later writes.
        public var freePages: Int
    }

    /// The map size, the pages in use and the free pages, as one read transaction sees them.
    public func spaceInfo() throws -> SpaceInfo {
        var info = MDB_envinfo()
        try LMDBError.check(mdb_env_info(env, &info))
        var st = MDB_stat()
        try LMDBError.check(mdb_env_stat(env, &st))
        let free = try withReadTransaction { txn in try txn.freePageCount() }
        return SpaceInfo(mapSize: info.me_mapsize, pageSize: Int(st.ms_psize), usedPages: info.me_last_pgno + 1, freePages: free)
    }

    /// Writes a copy of the environment into the existing, empty directory `directory`
    /// (`mdb_env_copy2`). With `compact`, free pages are left out and the pages renumbered
    /// (`MDB_CP_COMPACT`). The copy runs in a read transaction, so writers carry on meanwhile.
    public func copy(to directory: String, compact: Bool) throws(LMDBError) {
        try LMDBError.check(mdb_env_copy2(env, directory, compact ? UInt32(MDB_CP_COMPACT) : 0))
    }
}

/// A database handle in an ``LMDBEnvironment``: the unnamed main database or a named one.
public struct LMDBDatabase: Hashable, Sendable {
    /// The database's name, or `nil` for the main database.
    public let name: String?
    let handle: MDB_dbi

    /// Counts from `mdb_stat`.
    public struct Statistics: Hashable, Sendable {
        /// The number of key/value pairs.
        public var entries: Int
        /// The B-tree's depth.
        public var depth: Int
        /// Pages of each kind.
        public var branchPages: Int, leafPages: Int, overflowPages: Int
        /// The page size in bytes.
        public var pageSize: Int
    }
}

/// What a put may do.
public struct LMDBPutOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `MDB_NOOVERWRITE`: fail with ``LMDBError/keyExists`` rather than replace a value.
    public static let noOverwrite = LMDBPutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
    /// `MDB_APPEND`: the key sorts after every key in the database (fast bulk loading); a key out
    /// of order fails with ``LMDBError/keyExists``.
    public static let append = LMDBPutOptions(rawValue: UInt32(MDB_APPEND))
}
