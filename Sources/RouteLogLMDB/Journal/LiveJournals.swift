#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

extension JournalWriter {
    // MARK: Process exit

    /// The journals of this process, marked `exited` by an `atexit` handler: a process that exits
    /// normally (without releasing its navigators) did not crash.
    static let live = LiveJournals()

    final class LiveJournals: @unchecked Sendable {
        private let lock = NSLock()
        private var journals: [ObjectIdentifier: Weak] = [:]
        private var registered = false

        struct Weak { weak var journal: JournalWriter? }

        func add(_ journal: JournalWriter) {
            lock.withLock {
                journals[ObjectIdentifier(journal)] = Weak(journal: journal)
                if !registered {
                    registered = true
                    atexit { JournalWriter.live.markExited() }
                }
            }
        }

        func remove(_ journal: JournalWriter) {
            lock.withLock { _ = journals.removeValue(forKey: ObjectIdentifier(journal)) }
        }

        /// Marks every live journal exited (a store through each newest segment's mapping).
        func markExited() {
            // Bounded: a thread that exits the process while holding the lock must not hang it.
            guard lock.lock(before: Date(timeIntervalSinceNow: JournalWriter.exitLockWait)) else { return }
            defer { lock.unlock() }
            for entry in journals.values { entry.journal?.markExited() }
        }
    }
}
