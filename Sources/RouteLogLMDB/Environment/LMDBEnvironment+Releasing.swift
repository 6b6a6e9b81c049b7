#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

// Releasing an environment (suspension) and opening it again, and the lock file's reservation
// and the owner lock taken around an open.

@_spi(Tools) extension LMDBEnvironment {
    // MARK: Releasing

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

    /// Whether a navigator is writing to this environment now (started or resumed, not stopped).
    var hasActiveNavigators: Bool { navigatorLock.withLock { activeNavigators > 0 } }

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

    func releaseHoldingWriterLock(waiting: Bool = true) {
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
    func closeHandle() {
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
    func reopen() throws(LMDBError) {
        pthread_rwlock_wrlock(resizeLock)
        defer { pthread_rwlock_unlock(resizeLock) }
        guard handle == nil else { return }
        let (env, _, owner) = try Self.openHandle(path, options, mapSize: releasedMapSize, lockless: isLockless)
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

    /// With ``Options/oneProcessAtATime``, takes `owner.lock` exclusively (waiting at most
    /// ``Options/writerWait``, and never more than a second, for the process that holds it),
    /// writes what this process does with it (``Options/ownerActivity``) into it, and returns its
    /// descriptor; else -1.
    ///
    /// While it waits, it holds `owner.want` shared: a process moving the store's sessions
    /// (``Options/OwnerActivity/moving``) checks it between slices (``isOwnerWanted(_:)``) and
    /// lets go, so a waiting open gets in after one slice. It throws ``LMDBError/ownerMoving`` when
    /// the holder was moving, else ``LMDBError/ownerBusy``.
    static func acquireOwnerLock(_ path: String, _ options: Options) throws(LMDBError) -> Int32 {
        guard options.oneProcessAtATime, !options.readOnly else { return -1 }
        let fd = Foundation.open(path + "/owner.lock", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(options.fileMode))
        guard fd >= 0 else { throw LMDBError(rawValue: errno) }
        let clock = ContinuousClock()
        let started = clock.now
        // An app's move waits a second at most for an extension's request (it moves next time).
        // Any other open (an extension starting a request) waits up to `writerWait`: a moving
        // app lets go at its next transaction once it sees this process waiting (`owner.want`),
        // which on a busy machine can take longer than a second, and an extension's open must
        // not fail because of a move.
        let deadline = started + (options.ownerActivity == .moving ? min(options.writerWait, .seconds(1)) : options.writerWait)
        var pause: UInt32 = 500
        var want: Int32 = -1
        defer { ownerLockWait.set(started.duration(to: clock.now)) }
        defer { if want >= 0 { close(want) } }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                let holder = ownerActivity(fd)
                close(fd)
                throw holder == .moving ? .ownerMoving : .ownerBusy
            }
            if want < 0 {
                want = Foundation.open(path + "/owner.want", O_RDWR | O_CREAT | O_CLOEXEC, mode_t(options.fileMode))
                if want >= 0 { _ = flock(want, LOCK_SH | LOCK_NB) }
            }
            usleep(pause)
            pause = min(pause * 2, 5_000)
        }
        let note = Array((options.ownerActivity.rawValue + " \(getpid())\n").utf8)
        if ftruncate(fd, 0) == 0 { _ = note.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } }
        return fd
    }

    /// How long this process's last ``Options/oneProcessAtATime`` open waited for `owner.lock`
    /// (measurements: the test programs print it).
    @_spi(Tools) public static var lastOwnerLockWait: Duration { ownerLockWait.get() }
    private static let ownerLockWait = LockedDuration()

    /// What the process holding `owner.lock` (open as `fd`) wrote it does, if it did.
    private static func ownerActivity(_ fd: Int32) -> Options.OwnerActivity? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let word = String(decoding: buffer[..<n], as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
        return Options.OwnerActivity(rawValue: word)
    }

    /// Whether another process waits for the `owner.lock` of the store at `path` (it holds
    /// `owner.want` while it waits).
    public static func isOwnerWanted(_ path: String) -> Bool {
        let fd = Foundation.open(path + "/owner.want", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            _ = flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    /// Allocates the blocks of `lock.mdb` before LMDB maps it. LMDB sizes its lock file with a
    /// sparse `ftruncate` and writes its header and reader table through a shared map of it, so on
    /// a full disk its first write there would fault (SIGBUS) instead of failing. Reserving the
    /// blocks first (`posix_fallocate` on Linux, `F_PREALLOCATE` on Apple platforms, neither of
    /// which changes what another process may already have written) turns a full disk into an
    /// error: ``LMDBError/noSpace``. Called only while this process has the environment closed,
    /// so closing this descriptor drops no lock of LMDB's.
    static func reserveLockFile(_ path: String, _ options: Options) throws(LMDBError) {
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
}

/// A duration behind a lock (`Mutex` needs iOS 18 / macOS 15; the package supports iOS 17).
final class LockedDuration: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Duration = .zero
    func get() -> Duration { lock.withLock { value } }
    func set(_ new: Duration) { lock.withLock { value = new } }
}
