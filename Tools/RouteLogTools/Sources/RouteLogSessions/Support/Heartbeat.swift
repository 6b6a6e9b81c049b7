import Foundation
@_spi(Tools) import RouteLogLMDB

/// The child's heartbeat: a thread that, twice a second, adds one to a counter in a small file
/// while the child makes progress (see `LMDBProgress`); the parent reads the file.
package enum Heartbeat {
    /// Set in a watched child's environment: the child does the work itself.
    package static let childMarker = "ROUTELOG_STORE_CHILD"
    /// Set in the child's environment: the file the child's heartbeat counter is written to.
    package static let pathKey = "ROUTELOG_STORE_HEARTBEAT"
    /// Set in the child's environment: the parent's process id. The child ends when its parent
    /// is gone (killed by SIGKILL, say), so stopping `routelog` in any way stops the work.
    package static let parentKey = "ROUTELOG_STORE_PARENT"
    /// Seconds between two heartbeats, and between two looks of the parent.
    package static let interval: Double = 0.5

    /// In a watched child (`StoreContainment.runIfNeeded` set ``childMarker`` in its
    /// environment), starts the heartbeat the parent watches; elsewhere does nothing. A program
    /// the child executes in its place (`routelog mcp` runs `routelog-mcp`) calls this first
    /// thing: the heartbeat thread ends with the `execv`, and without it the parent would take
    /// the silence for a page loop and stop a healthy server.
    package static func beatIfWatched(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment[childMarker] != nil, let path = environment[pathKey] else { return }
        start(path, parent: environment[parentKey].flatMap { Int32($0) })
    }

    /// Starts the heartbeat thread of a child; it runs until the process ends.
    /// With `parent`, the child ends (SIGKILL) within a beat of that process being gone (its
    /// parent is then another process), removing the file first: a parent killed by SIGKILL
    /// cannot remove it.
    package static func start(_ path: String, parent: Int32?) {
        let fd = open(path, O_WRONLY)
        guard fd >= 0 else { return }
        @Sendable func endIfOrphaned() {
            guard let parent, getppid() != parent else { return }
            unlink(path)
            kill(getpid(), SIGKILL)
        }
        endIfOrphaned()
        let thread = Thread {
            var beats: UInt64 = 0
            var last = LMDBProgress.sample()
            while true {
                usleep(UInt32(interval * 1_000_000))
                endIfOrphaned()
                let now = LMDBProgress.sample()
                // Progress: LMDB calls returned since the last look, or none in progress.
                if now.completed != last.completed || !now.inside {
                    beats &+= 1
                    withUnsafeBytes(of: beats) { _ = pwrite(fd, $0.baseAddress, $0.count, 0) }
                }
                last = now
            }
        }
        thread.start()
    }

    /// The parent's end: a temporary file holding the child's beat count.
    package struct File {
        package let path: String
        private let fd: Int32

        package init?() {
            var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("routelog-heartbeat-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return nil }
            self.fd = fd
            path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }

        package func read() -> UInt64 {
            var beats: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &beats) { pread(fd, $0.baseAddress, $0.count, 0) }
            return beats
        }

        /// Closes and deletes the file (once; later calls do nothing).
        package func remove() {
            guard unlink(path) == 0 else { return }
            close(fd)
        }
    }
}
