import Foundation

/// Lines written to a file (or stdout for `-`) in large blocks.
///
/// A file is written atomically, as the fixture export and the report write theirs: into a new
/// file beside it (`.NAME.PID.tmp`), renamed over `path` by ``close()`` once every line is
/// written. An export that fails (a damaged record, a full disk) leaves the file it was to
/// replace as it was, and removes its temporary file.
final class JSONLSink {
    private var fd: Int32
    private var buffer: [UInt8] = []
    private let path: String
    /// The temporary file the lines go to until ``close()`` renames it over `path`.
    private let temporary: String?

    init(path: String) throws(RouteLogError) {
        self.path = path
        if path == "-" {
            fd = -1
            temporary = nil
        } else if Self.isSpecialFile(path) {
            // A device or a pipe (`-o /dev/null`, a FIFO) is written in place, never replaced.
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw .usage("cannot write \(printable(path)): \(String(cString: strerror(errno)))") }
            fd = opened
            temporary = nil
        } else {
            let url = URL(fileURLWithPath: path)
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp").path
            let opened = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw .usage("cannot write \(printable(path)): \(String(cString: strerror(errno)))") }
            fd = opened
            self.temporary = temporary
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

    /// Writes what is left and puts the file in place (renames the temporary file over `path`).
    func close() throws(RouteLogError) {
        flush()
        guard let temporary else {
            if fd >= 0, Foundation.close(fd) != 0, failure == nil { failure = errno }
            fd = -1
            if let failure { throw Self.writeError(path, failure) }
            return
        }
        if fd >= 0, Foundation.close(fd) != 0, failure == nil { failure = errno }
        fd = -1
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Self.writeError(path, failure)
        }
    }

    /// The error of a failed write of `path` with `errno` `code` (a full disk says so).
    private static func writeError(_ path: String, _ code: Int32) -> RouteLogError {
        RouteLogError(code == ENOSPC ? .noSpace : .io, "cannot write \(printable(path)): \(String(cString: strerror(code)))")
    }

    /// Whether `path` exists and is neither a regular file nor a directory.
    private static func isSpecialFile(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        let type = st.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// A sink dropped without ``close()`` (the export failed): its temporary file goes, the file
    /// at `path` stays as it was.
    deinit {
        guard fd >= 0 else { return }
        Foundation.close(fd)
        if let temporary { unlink(temporary) }
    }
}
