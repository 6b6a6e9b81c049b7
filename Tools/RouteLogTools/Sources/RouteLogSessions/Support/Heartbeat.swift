import Foundation
@_spi(Tools) import RouteLogLMDB

/// The child's heartbeat: a thread that, twice a second, adds one to a counter in a small file
/// while the child makes progress (see `LMDBProgress`); the parent reads the file.
enum Heartbeat {
    /// Starts the heartbeat thread of a child; it runs until the process ends.
    /// With `parent`, the child ends (SIGKILL) within a beat of that process being gone (its
    /// parent is then another process), removing the file first: a parent killed by SIGKILL
    /// cannot remove it.
    static func start(_ path: String, parent: Int32?) {
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
                usleep(UInt32(StoreContainment.beatInterval * 1_000_000))
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
    struct File {
        let path: String
        private let fd: Int32

        init?() {
            var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("routelog-heartbeat-XXXXXX").utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return nil }
            self.fd = fd
            path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }

        func read() -> UInt64 {
            var beats: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &beats) { pread(fd, $0.baseAddress, $0.count, 0) }
            return beats
        }

        /// Closes and deletes the file (once; later calls do nothing).
        func remove() {
            guard unlink(path) == 0 else { return }
            close(fd)
        }
    }
}
