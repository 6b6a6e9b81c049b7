import Atomics
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Counts calls into LMDB as they enter and return, so that a watcher can tell a slow but
/// healthy command from one stuck inside LMDB.
///
/// LMDB 0.9 trusts its pages: a damaged page can make a single `mdb_cursor_get` follow a page
/// loop forever. Such a call never returns; every healthy call returns in microseconds. So a
/// command makes progress while ``completed`` grows or while no call is in progress (it is
/// working on what it read), and is stuck only when one call has been in progress, with
/// ``completed`` unchanged, for seconds. `routelog`'s store watchdog reads these counters.
///
/// Each thread counts its own calls (its counters, found through a thread-specific key, have one
/// writer, so a relaxed load and store is exact and costs next to nothing on the read path); a
/// sample adds them up. Counters shared by the threads would lose updates when two threads call
/// LMDB at once (`diff` reads two sessions on two threads), and a lost update would leave a call
/// looking in progress for good.
@_spi(Tools) public enum LMDBProgress {
    /// The process's counters.
    private static let counters = CallCounters()

    /// Runs one LMDB call, counted.
    @inline(__always)
    static func call<R>(_ body: () throws -> R) rethrows -> R { try counters.call(body) }

    /// The number of LMDB calls returned so far, and whether one is in progress.
    public static func sample() -> (completed: UInt64, inside: Bool) { counters.sample() }

    /// Test-only: enters a call that never returns, as a page loop would.
    public static func hangInside() -> Never { counters.hangInside() }
}

/// Calls entered and returned, counted per thread (see ``LMDBProgress``).
final class CallCounters: @unchecked Sendable {
    /// One thread's counters: one writer, its thread.
    final class PerThread: Sendable {
        let entered = ManagedAtomic<UInt64>(0)
        let returned = ManagedAtomic<UInt64>(0)
    }

    private let key: pthread_key_t
    private let lock = NSLock()
    /// Every thread's counters, kept as long as these counters (a command has a few threads).
    private var all: [PerThread] = []

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    /// The calling thread's counters, made and registered at its first call.
    @inline(__always)
    private func mine() -> PerThread {
        if let p = pthread_getspecific(key) { return Unmanaged<PerThread>.fromOpaque(p).takeUnretainedValue() }
        let c = PerThread()
        lock.withLock { all.append(c) }
        pthread_setspecific(key, Unmanaged.passUnretained(c).toOpaque())
        return c
    }

    @inline(__always)
    func call<R>(_ body: () throws -> R) rethrows -> R {
        let c = mine()
        c.entered.store(c.entered.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        defer { c.returned.store(c.returned.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }
        return try body()
    }

    func sample() -> (completed: UInt64, inside: Bool) {
        var completed: UInt64 = 0
        var inside = false
        for c in lock.withLock({ all }) {
            let r = c.returned.load(ordering: .relaxed)
            let e = c.entered.load(ordering: .relaxed)
            completed &+= r
            inside = inside || e != r
        }
        return (completed, inside)
    }

    func hangInside() -> Never {
        let c = mine()
        c.entered.store(c.entered.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        while true { _ = c.returned.load(ordering: .relaxed) }
    }
}
