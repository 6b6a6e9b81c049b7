import Atomics

/// Counts calls into LMDB as they enter and return, so that a watcher can tell a slow but
/// healthy command from one stuck inside LMDB.
///
/// LMDB 0.9 trusts its pages: a damaged page can make a single `mdb_cursor_get` follow a page
/// loop forever. Such a call never returns; every healthy call returns in microseconds. So a
/// command makes progress while ``completed`` grows or while no call is in progress (it is
/// working on what it read), and is stuck only when one call has been in progress, with
/// ``completed`` unchanged, for seconds. `routelog`'s store watchdog reads these counters.
///
/// The counters are updated with relaxed loads and stores (no read-modify-write), so they cost
/// next to nothing on the read path; with several threads in LMDB at once they are approximate,
/// which is all a watchdog needs.
public enum LMDBProgress {
    private static let entered = ManagedAtomic<UInt64>(0)
    private static let returned = ManagedAtomic<UInt64>(0)

    /// Runs one LMDB call, counted.
    @inline(__always)
    static func call<R>(_ body: () throws -> R) rethrows -> R {
        entered.store(entered.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        defer { returned.store(returned.load(ordering: .relaxed) &+ 1, ordering: .relaxed) }
        return try body()
    }

    /// The number of LMDB calls returned so far, and whether one is in progress.
    public static func sample() -> (completed: UInt64, inside: Bool) {
        let r = returned.load(ordering: .relaxed)
        let e = entered.load(ordering: .relaxed)
        return (r, e != r)
    }

    /// Test-only: enters a call that never returns, as a page loop would.
    public static func hangInside() -> Never {
        entered.store(entered.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        while true { _ = returned.load(ordering: .relaxed) }
    }
}
