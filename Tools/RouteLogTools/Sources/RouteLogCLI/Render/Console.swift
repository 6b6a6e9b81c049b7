import Foundation

/// Captures what a command writes to stdout and stderr, for running commands in-process (tests).
///
/// While ``capture`` is set (for the current task and the tasks it starts), everything the CLI would
/// write to file descriptors 1 and 2 goes to this console's buffers instead, without colors.
final class Console: @unchecked Sendable {
    @TaskLocal static var capture: Console?

    private let lock = NSLock()
    private var out: [UInt8] = []
    private var err: [UInt8] = []

    init() {}

    /// What was written to stdout so far.
    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    /// What was written to stderr so far.
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    func append(_ bytes: [UInt8], fd: Int32) {
        lock.withLock { if fd == 2 { err += bytes } else { out += bytes } }
    }
}
