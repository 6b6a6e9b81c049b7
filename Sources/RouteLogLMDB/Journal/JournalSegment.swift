#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

extension JournalWriter {
    /// The size of a segment (larger for an event that does not fit).
    nonisolated(unsafe) static var segmentBytes = 1 << 20

    /// One mapped segment.
    final class Segment {
        let path: String
        let fd: Int32
        let base: UnsafeMutableRawPointer
        let capacity: Int
        /// The segment's number, in its file name and header.
        let number: UInt32
        /// The seq of the first entry (set by ``start(at:run:)`` for a segment made ahead).
        private(set) var firstSeq: UInt64
        /// The seq of the last entry written (firstSeq − 1 when none).
        var lastSeq: UInt64
        var offset: Int

        init(path: String, fd: Int32, base: UnsafeMutableRawPointer, capacity: Int, number: UInt32, firstSeq: UInt64) {
            self.path = path
            self.fd = fd
            self.base = base
            self.capacity = capacity
            self.number = number
            self.firstSeq = firstSeq
            self.lastSeq = firstSeq - 1
            self.offset = JournalWriter.headerSize
        }

        /// Writes the header of a segment whose first entry will be `seq`: until then its file is
        /// zeros, which a recovery reads as a segment the writer died before starting.
        func start(at seq: UInt64, run: UInt32) {
            JournalWriter.writeHeader(base, firstSeq: seq, run: run, segment: number)
            firstSeq = seq
            lastSeq = seq - 1
            offset = JournalWriter.headerSize
        }

        /// Stores the run's state in this segment's header, through the mapping.
        func setState(_ state: State) {
            base.storeBytes(of: state.rawValue, toByteOffset: JournalWriter.stateOffset, as: UInt8.self)
        }

        /// Unmaps and closes (which drops the lock); with `remove`, unlinks first so nobody
        /// finds the file in between.
        func release(remove: Bool) {
            if remove { unlink(path) }
            munmap(base, capacity)
            closeDescriptor(fd)
        }
    }


    /// How a segment's blocks are reserved: `posix_fallocate` where it exists (Linux), else by
    /// writing the segment's zeros, which leaves no hole (Apple platforms have no
    /// `posix_fallocate`, and a sparse `ftruncate` there left holes a store into the map could
    /// fault on). Tests force `.zeros` on Linux to check the other platforms' path.
    enum Reservation { case fallocate, zeros }
    #if os(Linux)
    nonisolated(unsafe) static var reservation = Reservation.fallocate
    #else
    nonisolated(unsafe) static var reservation = Reservation.zeros
    #endif

    /// Reserves `capacity` bytes of disk for the new file `fd`; 0 or an `errno`.
    static func reserve(_ fd: Int32, _ capacity: Int) -> Int32 {
        #if os(Linux)
        if reservation == .fallocate { return posix_fallocate(fd, 0, off_t(capacity)) }
        #endif
        let chunk = [UInt8](repeating: 0, count: 64 << 10)
        var at = 0
        while at < capacity {
            let n = min(chunk.count, capacity - at)
            let written = chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, n, off_t(at)) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            at += written
        }
        return 0
    }
}

/// `close(2)`, where a type's own `close` method hides it.
func closeDescriptor(_ fd: Int32) { _ = close(fd) }
