import Foundation

/// A regular file mapped read-only. ``release(_:)`` lets go of the pages before an offset (they
/// are read from the file again if touched), so a scan of a large file keeps only a window of it
/// resident (on Linux; see ``release(_:)`` for Apple platforms).
final class MappedFile {
    let buffer: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private var released = 0
    /// How far past the last release a scan goes before the next one.
    private static let window = 16 << 20

    /// `nil` when `path` is not a regular, non-empty file that can be mapped.
    init?(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return nil }
        let count = Int(st.st_size)
        guard let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        base = p
        buffer = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Lets go of the whole pages before `offset` once the scan is a window past the last release.
    func release(_ offset: Int) {
        guard offset - released >= Self.window else { return }
        let page = Int(getpagesize())
        let end = offset / page * page
        #if os(Linux)
        // Drops the pages from this process; they are read from the file again if touched.
        madvise(base + released, end - released, MADV_DONTNEED)
        #endif
        // Apple platforms: MADV_DONTNEED only lowers the pages' priority there; they are clean
        // file pages, which the kernel reclaims under memory pressure without being asked.
        released = end
    }

    /// For a second scan from the start.
    func rewind() { released = 0 }

    func unmap() { munmap(base, buffer.count) }
}
