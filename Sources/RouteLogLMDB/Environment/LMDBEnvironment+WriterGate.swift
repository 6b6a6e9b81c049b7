#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

// Writers that die under LMDB's POSIX-semaphore locks (Apple platforms).

@_spi(Tools) extension LMDBEnvironment {
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
    func attachWriterLock() {
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
    /// mode and returns a closure that gives it back; a no-op closure in the other modes. Opens a
    /// released environment first (its lock mode is read at each open). Call with `writerLock`
    /// held.
    func enterWriterGate() throws(LMDBError) -> () -> Void {
        let (fd, sem) = try withHandle { _ throws(LMDBError) in (writerLockFD, writerSemaphore) }
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
}
