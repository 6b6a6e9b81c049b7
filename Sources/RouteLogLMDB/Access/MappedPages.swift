import Foundation

/// Keeps a long read of a store from holding the whole store in resident memory.
///
/// LMDB reads through a shared, read-only memory map of the store's data file: every page a scan
/// touches stays resident in this process (and counts in its peak RSS) although the data is in the
/// page cache anyway. A reader that scans millions of events calls ``tick()`` for each; every
/// ``interval`` events it drops the map's pages from this process (`madvise(MADV_DONTNEED)`, which
/// for a shared file mapping only unmaps: nothing is lost, a later read faults the page back in
/// from the cache). Linux only (it finds the map in `/proc/self/maps`); elsewhere it does nothing.
@_spi(Tools) public final class MappedPages {
    /// Events read between two releases.
    public static let interval = 1 << 15

    private let dataFile: String?
    private var count = 0

    /// For reads of `log`; `nil` (a session read from a file) makes every call do nothing.
    public init(_ log: LMDBEventLog?) {
        dataFile = log.map { LMDBEventLog.dataFile(in: URL(fileURLWithPath: $0.path).resolvingSymlinksInPath().path) }
    }

    /// Counts one event read; every ``interval`` events, releases the map's pages.
    public func tick() {
        count += 1
        if count >= Self.interval {
            count = 0
            release()
        }
    }

    public func release() {
        #if os(Linux)
        guard let dataFile, let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else { return }
        for line in maps.split(separator: "\n") where line.hasSuffix(" " + dataFile) {
            // `start-end perms offset dev inode path`
            let range = line.prefix { $0 != " " }.split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                  let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            madvise(address, Int(end - start), MADV_DONTNEED)
        }
        #endif
    }
}
