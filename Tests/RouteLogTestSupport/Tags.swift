import Foundation
import Testing

extension Tag {
    /// The tests `make test-apple-locks` (Tools/AppleLocks/run.sh) runs a second time with LMDB built
    /// in its Apple lock mode (POSIX named semaphores, no robust mutexes): the store's tests, the
    /// lifecycle tests and the multi-process tests of both packages. The run selects them by this tag,
    /// from the test bundle's own list of its tests.
    @Tag public static var appleLocks: Self
}

/// Whether this run is the Apple lock mode's: Tools/AppleLocks/run.sh sets
/// `ROUTELOG_EXPECT_LMDB_LOCKS=posix-sem` for it.
public var isAppleLocksRun: Bool { ProcessInfo.processInfo.environment["ROUTELOG_EXPECT_LMDB_LOCKS"] == "posix-sem" }
