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
public final class LMDBEnvironment: @unchecked Sendable {
    /// How to open an environment.
    public struct Options: Hashable, Sendable {
        /// Open with `MDB_RDONLY`: reads only. If the lock file cannot be opened for writing
        /// (a read-only directory or medium), the environment is opened with `MDB_NOLOCK` as well,
        /// which is safe only while no other process writes to it.
        public var readOnly: Bool
        /// The initial map size in bytes (grown on demand). LMDB raises it to the file's size.
        public var mapSize: Int
        /// The largest map the environment grows to; a transaction that needs more throws
        /// ``LMDBError/mapFull``. The map is address space, not memory: on iOS, tvOS, watchOS and
        /// visionOS an app without the extended-virtual-addressing entitlement has a few GB of it,
        /// so the default there is 1 GiB; elsewhere 64 GiB.
        public var maxMapSize: Int
        /// The most named databases the environment can open.
        public var maxDatabases: UInt32
        /// The number of reader slots shared by all processes (LMDB's default is 126).
        public var maxReaders: UInt32
        /// Whether commits skip `fsync` by default (`MDB_NOSYNC`). A write transaction can
        /// override this with its `syncOnCommit` argument; ``sync(force:)`` flushes explicitly.
        public var noSync: Bool
        /// The mode of the files LMDB creates.
        public var fileMode: UInt32
        /// How long a write transaction waits for another process's write transaction, in the
        /// POSIX-semaphore lock mode, before it throws ``LMDBError/writerBusy`` (and an
        /// ``oneProcessAtATime`` open waits for the process that has the store open).
        public var writerWait: Duration
        /// Whether one process at a time may have the environment open: an exclusive `flock` on
        /// `owner.lock` in its directory is held from each open to its release; an open while
        /// another process holds it waits up to a second and then throws ``LMDBError/writerBusy``.
        /// For a store shared by the processes of an App Group (an app extension's store, which the
        /// app moves sessions out of), where LMDB's own locks cannot be shared.
        public var oneProcessAtATime: Bool

        /// The default ``maxMapSize`` on this platform.
        public static var defaultMaxMapSize: Int {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            1 << 30
            #else
            64 << 30
            #endif
        }

        /// - Parameters:
        ///   - readOnly: open for reading only.
        ///   - mapSize: the initial map size in bytes; 64 MiB by default.
        ///   - maxMapSize: the largest map; ``defaultMaxMapSize`` by default.
        ///   - maxDatabases: the most named databases; 16 by default.
        ///   - maxReaders: reader slots; 126 by default.
        ///   - noSync: skip `fsync` on commit unless a transaction asks for it.
        ///   - fileMode: the mode of created files; `0o600` by default.
        ///   - writerWait: the longest wait for another process's write transaction (10 s).
        public init(readOnly: Bool = false, mapSize: Int = 64 << 20, maxMapSize: Int = Options.defaultMaxMapSize,
                    maxDatabases: UInt32 = 16, maxReaders: UInt32 = 126, noSync: Bool = false,
                    fileMode: UInt32 = 0o600, writerWait: Duration = .seconds(10), oneProcessAtATime: Bool = false) {
            self.readOnly = readOnly
            self.mapSize = mapSize
            self.maxMapSize = max(maxMapSize, mapSize)
            self.maxDatabases = maxDatabases
            self.maxReaders = maxReaders
            self.noSync = noSync
            self.fileMode = fileMode
            self.writerWait = writerWait
            self.oneProcessAtATime = oneProcessAtATime
        }
    }

    /// How LMDB serializes write transactions across the processes that have the store open, as
    /// the linked LMDB laid out `lock.mdb`.
    public enum LockMode: String, Hashable, Sendable {
        /// Process-shared robust mutexes (Debian's liblmdb on Linux): a writer that dies inside a
        /// transaction releases the lock, and the next writer recovers.
        case robustMutexes = "robust-mutex"
        /// POSIX named semaphores (LMDB 0.9 on Apple platforms, or built with
        /// `-DMDB_USE_POSIX_SEM`): a writer that dies inside a transaction leaves the lock taken
        /// until every process has closed the store.
        case posixSemaphores = "posix-sem"
        /// No lock file (`MDB_NOLOCK`, a read-only medium).
        case none
    }

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
    private var handle: OpaquePointer?
    /// The map size when the environment was last released, to open it again at that size.
    private var releasedMapSize: Int
    /// What `lock.mdb` says about the cross-process writer lock (set at each open).
    private var mode: LockMode = .robustMutexes
    /// In the POSIX-semaphore mode: `writer.lock` (flocked around each write transaction) and
    /// LMDB's writer semaphore, opened by name to look at it. Set at each open, closed at release.
    private var writerLockFD: Int32 = -1
    private var writerSemaphore: UnsafeMutablePointer<sem_t>?
    /// A descriptor of `lock.mdb` to read its header (never closed while LMDB's are open).
    private var lockFileFD: Int32 = -1
    /// `owner.lock`, held exclusively while open, with ``Options/oneProcessAtATime``.
    private var ownerLockFD: Int32 = -1
    /// Shared by every transaction of this process; taken exclusively to resize the map, which
    /// LMDB allows only while the process has no transaction open, and to open or release the
    /// environment.
    private let resizeLock: UnsafeMutablePointer<pthread_rwlock_t>
    /// Serializes this process's write transactions, so the sync flag can be set per commit.
    private let writerLock = NSLock()
    private let databaseLock = NSLock()
    private var databases: [String: LMDBDatabase] = [:]
    /// The named databases opened so far, by handle: opened again in this order after a release,
    /// which gives them the same handles. Guarded by `knownLock`, taken after every other lock.
    private var known: [MDB_dbi: String] = [:]
    private let knownLock = NSLock()
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
                    let owner = try acquireOwnerLock(resolved, options)
                    let env: OpaquePointer, lockless: Bool
                    do throws(LMDBError) {
                        (env, lockless) = try openHandle(resolved, options, mapSize: options.mapSize, lockless: nil)
                    } catch {
                        if owner >= 0 { close(owner) }
                        throw error
                    }
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

    /// With ``Options/oneProcessAtATime``, takes `owner.lock` exclusively (waiting at most
    /// ``Options/writerWait`` for the process that holds it) and returns its descriptor; else -1.
    private static func acquireOwnerLock(_ path: String, _ options: Options) throws(LMDBError) -> Int32 {
        guard options.oneProcessAtATime, !options.readOnly else { return -1 }
        let fd = Foundation.open(path + "/owner.lock", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(options.fileMode))
        guard fd >= 0 else { throw LMDBError(rawValue: errno) }
        // An extension waits for the app's short move; the app's move does not wait long for an
        // extension's request (it moves next time).
        let clock = ContinuousClock()
        let deadline = clock.now + min(options.writerWait, .seconds(1))
        var pause: UInt32 = 500
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                close(fd)
                throw .writerBusy
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return fd
    }

    /// Allocates the blocks of `lock.mdb` before LMDB maps it. LMDB sizes its lock file with a
    /// sparse `ftruncate` and writes its header and reader table through a shared map of it, so on
    /// a full disk its first write there would fault (SIGBUS) instead of failing. Reserving the
    /// blocks first (`posix_fallocate` on Linux, `F_PREALLOCATE` on Apple platforms, neither of
    /// which changes what another process may already have written) turns a full disk into an
    /// error: ``LMDBError/noSpace``. Called only while this process has the environment closed,
    /// so closing this descriptor drops no lock of LMDB's.
    private static func reserveLockFile(_ path: String, _ options: Options) throws(LMDBError) {
        let fd = Foundation.open(path + "/lock.mdb", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(options.fileMode))
        guard fd >= 0 else { return }  // LMDB's own open reports what is wrong
        defer { close(fd) }
        // LMDB's lock file: a 128-byte header and a 64-byte slot per reader, with room to spare.
        let bytes = ((Int(options.maxReaders) + 4) * 64 + 4096 + 4095) & ~4095
        #if os(Linux)
        let rc = posix_fallocate(fd, 0, off_t(bytes))
        if rc == ENOSPC || rc == EDQUOT { throw .noSpace }
        #elseif canImport(Darwin)
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_blocks) * 512 < bytes else { return }
        var store = fstore_t(fst_flags: UInt32(F_ALLOCATEALL), fst_posmode: F_PEOFPOSMODE, fst_offset: 0,
                             fst_length: off_t(bytes), fst_bytesalloc: 0)
        if fcntl(fd, F_PREALLOCATE, &store) != 0 && (errno == ENOSPC || errno == EDQUOT) { throw .noSpace }
        #endif
    }

    /// Opens an LMDB handle on `path`. `lockless` nil: with the lock file, falling back to
    /// `MDB_NOLOCK` for a read-only open of a medium that cannot take one.
    private static func openHandle(_ path: String, _ options: Options, mapSize: Int,
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

    // MARK: Releasing

    /// Navigators of this process writing to this environment and not suspended.
    private var activeNavigators = 0
    private let navigatorLock = NSLock()

    /// A navigator began or resumed writing to this environment.
    public func navigatorStarted() {
        navigatorLock.withLock { activeNavigators += 1 }
    }

    /// A navigator suspended or closed; `true` when none is active any more.
    @discardableResult
    public func navigatorStopped() -> Bool {
        navigatorLock.withLock {
            activeNavigators = max(0, activeNavigators - 1)
            return activeNavigators == 0
        }
    }

    /// Whether the environment is open now (not released).
    public var isOpen: Bool {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        return handle != nil
    }

    /// Closes the LMDB environment while this object lives on: it syncs what was committed, waits
    /// for the transactions in flight, then closes LMDB's files, its map and its locks. The next
    /// transaction (or any call that needs the environment) opens it again, at the same map size
    /// and with the same database handles. Nothing is lost: every commit is in `data.mdb`.
    public func release() {
        writerLock.lock()
        defer { writerLock.unlock() }
        releaseHoldingWriterLock()
    }

    private func releaseHoldingWriterLock(waiting: Bool = true) {
        if waiting {
            pthread_rwlock_wrlock(resizeLock)
        } else if pthread_rwlock_trywrlock(resizeLock) != 0 {
            return
        }
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return }
        if !isReadOnly { mdb_env_sync(env, 1) }
        var info = MDB_envinfo()
        if mdb_env_info(env, &info) == 0 { releasedMapSize = info.me_mapsize }
        closeHandle()
    }

    /// Closes the handle and what was opened beside it. Call with the resize lock held
    /// exclusively, or from `deinit`.
    private func closeHandle() {
        if let env = handle { mdb_env_close(env) }
        handle = nil
        // After LMDB's own descriptors: closing a descriptor of lock.mdb would drop the process's
        // fcntl locks on it, but writer.lock is a file of its own.
        if let sem = writerSemaphore { sem_close(sem) }
        writerSemaphore = nil
        if writerLockFD >= 0 { close(writerLockFD) }
        writerLockFD = -1
        if lockFileFD >= 0 { close(lockFileFD) }
        lockFileFD = -1
        if ownerLockFD >= 0 { close(ownerLockFD) }
        ownerLockFD = -1
    }

    /// Opens a released environment again; a no-op when it is open.
    private func reopen() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard handle == nil else { return }
        let owner = try Self.acquireOwnerLock(path, options)
        let env: OpaquePointer
        do throws(LMDBError) {
            (env, _) = try Self.openHandle(path, options, mapSize: releasedMapSize, lockless: isLockless)
        } catch {
            if owner >= 0 { close(owner) }
            throw error
        }
        // The named databases, opened again in the order of their handles, get the same handles.
        let names = knownLock.withLock { known.sorted { $0.key < $1.key } }
        for (expected, name) in names {
            var txnp: OpaquePointer?
            var rc = mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txnp)
            var dbi: MDB_dbi = 0
            if rc == 0 {
                rc = mdb_dbi_open(txnp, name, 0, &dbi)
                rc = rc == 0 ? mdb_txn_commit(txnp) : { mdb_txn_abort(txnp); return rc }()
            }
            if rc == 0 && dbi != expected { rc = MDB_BAD_DBI }
            if rc != 0 {
                mdb_env_close(env)
                if owner >= 0 { close(owner) }
                throw LMDBError(rawValue: rc)
            }
        }
        handle = env
        ownerLockFD = owner
        currentNoSync = defaultNoSync
        attachWriterLock()
    }

    // MARK: Writers that die (the POSIX-semaphore lock mode)

    /// How LMDB serializes writers across processes in this environment.
    public var lockMode: LockMode {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        return mode
    }

    /// Reads the lock mode from `lock.mdb` and, in the POSIX-semaphore mode of a writable
    /// environment, opens `writer.lock` and LMDB's writer semaphore. Call with the handle just
    /// opened (from `init` or with the resize lock held exclusively).
    private func attachWriterLock() {
        guard !isLockless else {
            mode = .none
            return
        }
        // A second descriptor of lock.mdb: closing any descriptor of a file drops all of the
        // process's fcntl locks on it (LMDB's among them), so this one is closed only in
        // `closeHandle`, after LMDB's own.
        if lockFileFD < 0 { lockFileFD = Foundation.open(path + "/lock.mdb", O_RDONLY | O_CLOEXEC) }
        guard let name = Self.writerSemaphoreName(lockFileFD) else {
            mode = .robustMutexes
            return
        }
        mode = .posixSemaphores
        guard !isReadOnly else { return }
        let fd = Foundation.open(path + "/writer.lock", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(options.fileMode))
        let sem = sem_open(name, 0)
        if fd >= 0, let sem, sem != SEM_FAILED {
            writerLockFD = fd
            writerSemaphore = sem
        } else {
            if fd >= 0 { close(fd) }
            if let sem, sem != SEM_FAILED { sem_close(sem) }
        }
    }

    /// The name of LMDB's writer semaphore when `lock.mdb` was laid out by an LMDB built with
    /// POSIX semaphores, else `nil`.
    ///
    /// LMDB 0.9's lock file begins with its reader-table header: a magic and a format word, then
    /// (with POSIX semaphores) the reader semaphore's name, `/MDBr…`, where the robust build keeps
    /// a `pthread_mutex_t`; the writer semaphore's name, `/MDBw…`, starts the second 64-byte
    /// cache line.
    static func writerSemaphoreName(_ fd: Int32) -> String? {
        guard fd >= 0 else { return nil }
        var header = [UInt8](repeating: 0, count: 96)
        guard header.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 96, 0) }) == 96,
              Array(header[8..<13]) == Array("/MDBr".utf8), Array(header[64..<69]) == Array("/MDBw".utf8) else { return nil }
        return String(decoding: header[64..<96].prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Takes this process's turn at the store's cross-process writer lock in the POSIX-semaphore
    /// mode and returns a closure that gives it back; a no-op closure in the other modes. Call
    /// with `writerLock` held and the environment open.
    private func enterWriterGate() throws(LMDBError) -> () -> Void {
        pthread_rwlock_rdlock(resizeLock)
        let (fd, sem) = (writerLockFD, writerSemaphore)
        pthread_rwlock_unlock(resizeLock)
        guard fd >= 0, let sem else { return {} }
        // 1. writer.lock: held by a live writer of another process for the length of its
        //    transaction; the kernel drops it when that process dies.
        let clock = ContinuousClock()
        let deadline = clock.now + options.writerWait
        var pause: UInt32 = 200
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { break }
            if clock.now >= deadline { throw .writerBusy }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
        // 2. LMDB's writer semaphore, looked at without waiting: with writer.lock held, no live
        //    RouteLog writer holds it. Another program's transaction (mdb_load) may, briefly.
        let grace = clock.now + .milliseconds(250)
        while sem_trywait(sem) != 0 {
            if clock.now >= grace {
                _ = flock(fd, LOCK_UN)
                // Released so that this process is not the one keeping the store taken, unless a
                // read transaction of this process is open now (never waited for: one may last).
                releaseHoldingWriterLock(waiting: false)
                throw .writerDied
            }
            usleep(2_000)
        }
        sem_post(sem)
        return { _ = flock(fd, LOCK_UN) }
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

    private func remember(_ db: LMDBDatabase) {
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
    private func withHandle<R>(_ body: (OpaquePointer) throws(LMDBError) -> R) throws(LMDBError) -> R {
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
    private func beginTransaction<R>(readOnly: Bool, prepare: (OpaquePointer) throws(LMDBError) -> Void = { _ in },
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

    private func adoptMapSize() throws(LMDBError) {
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
                try withHandle { _ throws(LMDBError) in }
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

    private func beginTransactionRethrowing<R>(readOnly: Bool, prepare: (OpaquePointer) throws(LMDBError) -> Void = { _ in },
                                               _ body: (OpaquePointer) throws -> R) throws -> R {
        var outcome: Result<R, any Error>!
        try beginTransaction(readOnly: readOnly, prepare: prepare) { txn throws(LMDBError) in
            do { outcome = .success(try body(txn)) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }

    /// Grows the map: doubles it, by at most 1 GiB a step, up to ``Options/maxMapSize``.
    private func growMap() throws(LMDBError) {
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

    // MARK: Maintenance

    /// The current map size in bytes (the size it will open with, while released).
    public var mapSize: Int {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return releasedMapSize }
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_mapsize
    }

    /// Whether LMDB writes through a writable map (`MDB_WRITEMAP`); never, in RouteLog.
    public var isWriteMapped: Bool {
        (try? withHandle { env throws(LMDBError) in
            var flags: UInt32 = 0
            try LMDBError.check(mdb_env_get_flags(env, &flags))
            return flags & UInt32(MDB_WRITEMAP) != 0
        }) ?? false
    }

    /// Flushes committed data to disk (`mdb_env_sync`). With `force`, even when the environment
    /// skips syncs on commit. A released environment was synced when it was released.
    public func sync(force: Bool = true) throws(LMDBError) {
        pthread_rwlock_rdlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard let env = handle else { return }
        try LMDBError.check(mdb_env_sync(env, force ? 1 : 0))
    }

    /// Clears reader slots left by dead processes (`mdb_reader_check`) and returns how many.
    @discardableResult
    public func clearStaleReaders() throws(LMDBError) -> Int {
        if isLockless { return 0 }
        return try withHandle { env throws(LMDBError) in
            var dead: Int32 = 0
            try LMDBError.check(mdb_reader_check(env, &dead))
            return Int(dead)
        }
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
        let (info, st) = try withHandle { env throws(LMDBError) in
            var info = MDB_envinfo()
            try LMDBError.check(mdb_env_info(env, &info))
            var st = MDB_stat()
            try LMDBError.check(mdb_env_stat(env, &st))
            return (info, st)
        }
        let free = try withReadTransaction { txn in try txn.freePageCount() }
        return SpaceInfo(mapSize: info.me_mapsize, pageSize: Int(st.ms_psize), usedPages: info.me_last_pgno + 1, freePages: free)
    }

    /// Writes a copy of the environment into the existing, empty directory `directory`
    /// (`mdb_env_copy2`). With `compact`, free pages are left out and the pages renumbered
    /// (`MDB_CP_COMPACT`). The copy runs in a read transaction, so writers carry on meanwhile.
    public func copy(to directory: String, compact: Bool) throws(LMDBError) {
        try withHandle { env throws(LMDBError) in
            try LMDBError.check(mdb_env_copy2(env, directory, compact ? UInt32(MDB_CP_COMPACT) : 0))
        }
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
