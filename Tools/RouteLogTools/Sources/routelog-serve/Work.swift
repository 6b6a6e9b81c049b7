import Foundation
import NIOPosix

/// Where the heavy work runs: reading and folding many events for a stream or a page. Two
/// threads of their own, at a lower scheduling priority, so that this work never occupies the
/// threads that answer requests: `/api/sessions` stays quick while pages load and streams replay.
enum Work {
    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    /// Runs `body` on the work threads and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive {
            lowerPriority()
            return try body()
        }
    }

    /// Nice 5 for the calling thread (on Linux the nice value is a thread's, and `who` 0 is the
    /// calling thread); elsewhere nothing.
    private static func lowerPriority() {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
    }
}
