import Foundation
@_spi(Tools) import RouteLogCore

/// Advisory locks that mark the sessions being written, so that deleting and retention never
/// remove a session a navigator (in this process or another) is writing.
///
/// Each session being written has a lock file `writers/<session id>.lock` in the store's
/// directory. A log that creates or appends to a session holds a shared `flock` on that file until
/// it closes or calls ``LMDBEventLog/finishWriting(_:)``; a delete first takes an exclusive
/// `flock` without waiting, and a session whose lock is taken counts as being written. The kernel
/// releases a process's locks when it exits, even by SIGKILL, so a crashed app never pins its
/// sessions. `flock` locks belong to an open file, not a process, so two logs of one process
/// exclude each other just as two processes do.
///
/// A lock file is unlinked by whoever holds it exclusively (a delete, or the last writer when it
/// lets go); a locker checks after locking that the path still names the file it locked, and
/// starts again otherwise, so a lock is never taken on a file that was just unlinked.
final class SessionLocks: @unchecked Sendable {
    let directory: String
    private let lock = NSLock()
    /// The sessions this log writes, with the descriptor of their lock file (shared lock).
    private var held: [SessionID: Int32] = [:]

    init(storePath: String) {
        directory = (storePath as NSString).appendingPathComponent("writers")
    }

    deinit { releaseAll() }

    func path(_ id: SessionID) -> String {
        (directory as NSString).appendingPathComponent(id.rawValue + ".lock")
    }

    /// Marks `id` as written by this log (a shared lock, waiting while a delete holds it).
    func hold(_ id: SessionID) throws {
        lock.lock()
        defer { lock.unlock() }
        if held[id] != nil { return }
        guard let fd = try Self.acquire(path(id), directory: directory, operation: LOCK_SH) else { return }
        held[id] = fd
    }

    /// Whether this log holds `id`.
    func holds(_ id: SessionID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return held[id] != nil
    }

    /// Lets go of `id`; the lock file is removed when no other writer holds it.
    func release(_ id: SessionID) {
        lock.lock()
        let fd = held.removeValue(forKey: id)
        lock.unlock()
        if let fd { Self.letGo(fd, path: path(id)) }
    }

    func releaseAll() {
        lock.lock()
        let all = held
        held.removeAll()
        lock.unlock()
        for (id, fd) in all { Self.letGo(fd, path: path(id)) }
    }

    /// Whether a writer (a log of this process or another) holds `id` now. Takes nothing, and
    /// creates no file.
    func isHeld(_ id: SessionID) -> Bool {
        let fd = open(path(id), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var rc = flock(fd, LOCK_EX | LOCK_NB)
        while rc != 0 && errno == EINTR { rc = flock(fd, LOCK_EX | LOCK_NB) }
        return rc != 0 && errno == EWOULDBLOCK
    }

    /// An exclusive lock on `id`, or `nil` when a writer holds it. Release it with
    /// ``unlinkAndClose(_:id:)``.
    func tryExclusive(_ id: SessionID) throws -> Int32? {
        try Self.acquire(path(id), directory: directory, operation: LOCK_EX | LOCK_NB)
    }

    /// Ends an exclusive lock: the file goes first, so nobody can lock it afterwards.
    func unlinkAndClose(_ fd: Int32, id: SessionID) {
        unlink(path(id))
        close(fd)
    }

    /// Opens (creating) the lock file and locks it; `nil` when a non-blocking lock is taken.
    private static func acquire(_ path: String, directory: String, operation: Int32) throws -> Int32? {
        for _ in 0..<1_000 {
            var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            if fd < 0 && errno == ENOENT {
                mkdir(directory, 0o700)
                fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            }
            guard fd >= 0 else { throw LMDBEventLogError.lockFailed(path: path, reason: String(cString: strerror(errno))) }
            var rc = flock(fd, operation)
            while rc != 0 && errno == EINTR { rc = flock(fd, operation) }
            if rc != 0 {
                let err = errno
                close(fd)
                if err == EWOULDBLOCK { return nil }
                throw LMDBEventLogError.lockFailed(path: path, reason: String(cString: strerror(err)))
            }
            var opened = stat()
            var named = stat()
            if fstat(fd, &opened) == 0, stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                return fd
            }
            // Unlinked (and maybe re-created) between open and flock: lock the current file.
            close(fd)
        }
        throw LMDBEventLogError.lockFailed(path: path, reason: "the lock file kept changing")
    }

    /// Closes a writer's shared lock, removing the file if no other writer holds it.
    private static func letGo(_ fd: Int32, path: String) {
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
        close(fd)
    }
}

/// The sessions that navigators of this process write, active or suspended, by store: a suspended
/// navigator lets go of its session's writer lock (iOS kills a suspended app that holds a file
/// lock), but its session still counts as being written within the process, so that another
/// window of the app never restores it under it (``LMDBEventLog/isBeingWritten(_:)``).
///
/// A run's journal registers its session when the run begins and removes it when the navigator
/// is released (whether active or suspended then).
final class ProcessSessions: @unchecked Sendable {
    static let shared = ProcessSessions()

    private let lock = NSLock()
    /// The number of live runs of each session, by store path and session id.
    private var runs: [String: Int] = [:]

    private static func key(_ store: String, _ id: SessionID) -> String { store + "\u{0}" + id.rawValue }

    func add(store: String, _ id: SessionID) {
        lock.withLock { runs[Self.key(store, id), default: 0] += 1 }
    }

    func remove(store: String, _ id: SessionID) {
        lock.withLock {
            let key = Self.key(store, id)
            if let n = runs[key] { runs[key] = n > 1 ? n - 1 : nil }
        }
    }

    func contains(store: String, _ id: SessionID) -> Bool {
        lock.withLock { runs[Self.key(store, id)] != nil }
    }
}
