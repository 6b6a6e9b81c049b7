import Foundation

/// Lines written to a file (or stdout for `-`) in large blocks.
final class JSONLSink {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let path: String

    init(path: String) throws(RouteLogError) {
        self.path = path
        if path == "-" {
            fd = -1
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw .usage("cannot write \(printable(path)): \(String(cString: strerror(errno)))") }
            fd = opened
        }
        buffer.reserveCapacity(1 << 20)
    }

    func append(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(10)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// The first write error, reported by ``close()``.
    private var failure: Int32?

    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        if fd < 0 { return writeAll(1, buffer) }
        var offset = 0
        while offset < buffer.count && failure == nil {
            let n = buffer.withUnsafeBytes { raw in write(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { failure = errno }
        }
    }

    func close() throws(RouteLogError) {
        flush()
        if fd >= 0, Foundation.close(fd) != 0, failure == nil { failure = errno }
        if let failure { throw .data("cannot write \(printable(path)): \(String(cString: strerror(failure)))") }
    }
}
