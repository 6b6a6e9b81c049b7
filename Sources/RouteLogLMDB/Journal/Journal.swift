#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import RouteLogCore

/// A writer's crash-safe journal: files `journal/<session>.<run token>.<segment>.rlj` in the
/// store's directory, each a `MAP_SHARED` mapping the navigator writes every event into before
/// its call returns. Pages written through a shared file mapping belong to the page cache, not to
/// the process, so they reach the file however the process dies (a trap, `abort()`, SIGKILL);
/// only a system crash or power loss can lose them. Nothing here syncs, locks across processes on
/// the call path, or opens an LMDB transaction.
///
/// **Format** (all integers little-endian). A segment starts with a 64-byte header: the magic
/// `RLJRNL01`, the seq of its first entry (u64), a reserved u64, the run number (u32), the
/// segment number (u32), a checksum (u64) of the 32 bytes before it, and the run's state (u8, at
/// offset 40, outside the checksum: 0 active, 1 suspended, 2 exited; see ``State``), which the
/// next read-write open reads from the newest segment to tell how the run ended. Entries follow, each at
/// an 8-byte boundary: the payload's length `L` (u32, never 0), a reserved u32, the seq (u64), the
/// digest of the state after the event (16 bytes), the payload (the event with its metadata in
/// the core's binary codec, `L` bytes) and a checksum (u64) over the length, seq, digest and
/// payload; then zeros to the next boundary. A fresh segment is all zeros after its header, so a
/// length of 0 ends the entries.
///
/// **Ownership.** The writer holds an exclusive `flock` on each of its segments from creation to
/// close, taken once when the file is made. A recovering or reading process only touches a journal
/// whose locks it can take: a live writer's journal is never recovered under it, and the kernel
/// drops the locks of a process that died. Readers take them shared for the moment they read; a
/// recovery waits for readers (``JournalReader/take(_:_:)``), never for a writer.
///
/// **Segments.** A segment holds ``Journal/segmentBytes`` (1 MiB, about 9,000 typical events);
/// when an entry does not fit, the writer creates the next one. Segments whose every event the
/// log committed are removed by the recorder's thread; a writer that closes with everything
/// committed removes the rest (a clean end).
final class Journal: EventJournal, @unchecked Sendable {
    /// What the run was doing when its journal was last written: kept in the newest segment's
    /// header, one byte stored through the mapping (so it reaches the file however the process
    /// dies).
    enum State: UInt8 {
        /// Navigating (and how a journal of an older RouteLog reads): a run that dies in this
        /// state crashed.
        case active = 0
        /// After `Navigator.suspend()`: a run that dies in this state was ended by the system
        /// while in the background.
        case suspended = 1
        /// The process exited normally (an `atexit` handler), or the navigator was released.
        case exited = 2
    }
    static let stateOffset = 40

    static let magic: [UInt8] = Array("RLJRNL01".utf8)
    static let headerSize = 64
    static let entryHeader = 32
    static let checksumSize = 8
    static let suffix = ".rlj"
    /// The size of a segment (larger for an event that does not fit).
    nonisolated(unsafe) static var segmentBytes = 1 << 20

    /// One mapped segment.
    final class Segment {
        let path: String
        let fd: Int32
        let base: UnsafeMutableRawPointer
        let capacity: Int
        let firstSeq: UInt64
        /// The seq of the last entry written (firstSeq − 1 when none).
        var lastSeq: UInt64
        var offset: Int

        init(path: String, fd: Int32, base: UnsafeMutableRawPointer, capacity: Int, firstSeq: UInt64) {
            self.path = path
            self.fd = fd
            self.base = base
            self.capacity = capacity
            self.firstSeq = firstSeq
            self.lastSeq = firstSeq - 1
            self.offset = Journal.headerSize
        }

        /// Stores the run's state in this segment's header, through the mapping.
        func setState(_ state: State) {
            base.storeBytes(of: state.rawValue, toByteOffset: Journal.stateOffset, as: UInt8.self)
        }

        /// Unmaps and closes (which drops the lock); with `remove`, unlinks first so nobody
        /// finds the file in between.
        func release(remove: Bool) {
            if remove { unlink(path) }
            munmap(base, capacity)
            closeDescriptor(fd)
        }
    }

    let directory: String
    let session: SessionID
    let token: String
    let run: UInt32
    var runNumber: Int { Int(run) }
    /// Told when the writer closes: whether everything was committed (the log then marks the run
    /// `clean`) and whether it was active (not suspended) until then.
    private let onClose: @Sendable (_ allCommitted: Bool, _ wasActive: Bool) -> Void

    // Touched only by `write` (the navigator's thread), except under `lock` at a rotation.
    private var current: Segment?
    private var segmentNumber: UInt32 = 0
    private var scratch: [UInt8] = []
    /// Set when a segment could not be created: the journal stops (the recorder still writes).
    private(set) var failure: String?
    /// While suspended: the segment that was current, to map again at `resume()`.
    private var suspended: (path: String, capacity: Int, firstSeq: UInt64, lastSeq: UInt64, offset: Int)?

    private let lock = NSLock()
    /// Full segments, oldest first, until the log has committed their events. Guarded by `lock`.
    private var retired: [Segment] = []
    /// The last seq the log holds, as the recorder reported. Guarded by `lock`.
    private var committedSeq: UInt64 = 0

    /// Creates the journal's first segment for events after `head`.
    init(directory: String, session: SessionID, run: UInt32, head: UInt64,
         onClose: @escaping @Sendable (_ allCommitted: Bool, _ wasActive: Bool) -> Void = { _, _ in }) throws {
        self.directory = directory
        self.session = session
        self.run = run
        self.onClose = onClose
        var rng = SystemRandomNumberGenerator()
        let t = String(rng.next() as UInt64, radix: 16)
        token = String(repeating: "0", count: 16 - t.count) + t
        committedSeq = head
        scratch.reserveCapacity(256)
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw LMDBEventLogError.lockFailed(path: directory, reason: "cannot create the journal directory: \(String(cString: strerror(errno)))")
        }
        current = try makeSegment(firstSeq: head + 1, minimum: 0)
        Self.live.add(self)
    }

    deinit {
        Self.live.remove(self)
        lock.lock()
        let all = retired + (current.map { [$0] } ?? [])
        retired = []
        current = nil
        lock.unlock()
        for s in all { s.release(remove: false) }
    }

    static func fileName(session: SessionID, token: String, segment: UInt32) -> String {
        let n = String(segment)
        return "\(session.rawValue).\(token).\(String(repeating: "0", count: max(0, 6 - n.count)) + n)\(suffix)"
    }

    private func makeSegment(firstSeq: UInt64, minimum: Int) throws -> Segment {
        let capacity = max(Self.segmentBytes, (Self.headerSize + minimum + 4095) & ~4095)
        let path = (directory as NSString).appendingPathComponent(Self.fileName(session: session, token: token, segment: segmentNumber))
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error(path, "cannot create") }
        func fail(_ what: String) -> any Error {
            let e = Self.error(path, what)
            closeDescriptor(fd)
            unlink(path)
            return e
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { throw fail("cannot lock") }
        // The blocks are reserved now: a store through the mapping into a hole of a full disk
        // would kill the process with SIGBUS. A disk too full for the segment fails here, in one
        // line, and the navigator goes on without its journal.
        let rc = Self.reserve(fd, capacity)
        guard rc == 0 else { errno = rc; throw fail("cannot allocate \(capacity) bytes for") }
        // The pages are faulted in (writable) now, not one by one on the call path.
        #if os(Linux)
        let flags = MAP_SHARED | MAP_POPULATE
        #else
        let flags = MAP_SHARED
        #endif
        guard let base = mmap(nil, capacity, PROT_READ | PROT_WRITE, flags, fd, 0), base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw fail("cannot map")
        }
        Self.writeHeader(base, firstSeq: firstSeq, run: run, segment: segmentNumber)
        segmentNumber += 1
        return Segment(path: path, fd: fd, base: base, capacity: capacity, firstSeq: firstSeq)
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

    private static func error(_ path: String, _ what: String) -> LMDBEventLogError {
        .lockFailed(path: path, reason: "\(what) the journal segment: \(String(cString: strerror(errno)))")
    }

    static func writeHeader(_ base: UnsafeMutableRawPointer, firstSeq: UInt64, run: UInt32, segment: UInt32) {
        magic.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 8) }
        base.storeBytes(of: firstSeq.littleEndian, toByteOffset: 8, as: UInt64.self)
        base.storeBytes(of: UInt64(0), toByteOffset: 16, as: UInt64.self)
        base.storeBytes(of: run.littleEndian, toByteOffset: 24, as: UInt32.self)
        base.storeBytes(of: segment.littleEndian, toByteOffset: 28, as: UInt32.self)
        let sum = headerChecksum(UnsafeRawBufferPointer(start: base, count: 32))
        base.storeBytes(of: sum.littleEndian, toByteOffset: 32, as: UInt64.self)
    }

    static func headerChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        h.combine(bytes: bytes.bindMemory(to: UInt8.self))
        return h.finalize().lo
    }

    /// The checksum of an entry: its length, seq, digest and payload.
    @inline(__always)
    static func entryChecksum(length: UInt32, seq: UInt64, digest: Digest, payload: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        h.combine(UInt64(length))
        h.combine(seq)
        h.combine(digest.hi)
        h.combine(digest.lo)
        h.combine(bytes: payload.bindMemory(to: UInt8.self))
        return h.finalize().lo
    }

    @inline(__always) static func entrySize(payload: Int) -> Int { (entryHeader + payload + checksumSize + 7) & ~7 }

    // MARK: EventJournal

    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest) {
        guard failure == nil else { return }
        scratch.removeAll(keepingCapacity: true)
        BinaryCodec.encode(event, into: &scratch)
        let size = Self.entrySize(payload: scratch.count)
        guard var segment = current else { return }
        if segment.offset + size > segment.capacity || segment.lastSeq + 1 != seq {
            do {
                let next = try makeSegment(firstSeq: seq, minimum: size)
                lock.lock()
                retired.append(segment)
                current = next
                lock.unlock()
                segment = next
            } catch {
                failure = "\(error)"
                return
            }
        }
        let at = segment.base + segment.offset
        let length = UInt32(scratch.count)
        scratch.withUnsafeBytes { payload in
            // Body first, length last: a reader that sees the length sees a whole entry unless the
            // process died in between, which the checksum catches.
            at.storeBytes(of: seq.littleEndian, toByteOffset: 8, as: UInt64.self)
            at.storeBytes(of: digest.hi.littleEndian, toByteOffset: 16, as: UInt64.self)
            at.storeBytes(of: digest.lo.littleEndian, toByteOffset: 24, as: UInt64.self)
            (at + Self.entryHeader).copyMemory(from: payload.baseAddress!, byteCount: payload.count)
            let sum = Self.entryChecksum(length: length, seq: seq, digest: digest, payload: payload)
            (at + Self.entryHeader + payload.count).storeBytes(of: sum.littleEndian, as: UInt64.self)
            at.storeBytes(of: length.littleEndian, as: UInt32.self)
        }
        segment.offset += size
        segment.lastSeq = seq
    }

    func committed(through seq: UInt64) {
        lock.lock()
        committedSeq = max(committedSeq, seq)
        var done: [Segment] = []
        while let first = retired.first, first.lastSeq <= committedSeq {
            done.append(retired.removeFirst())
        }
        lock.unlock()
        for s in done { s.release(remove: true) }
    }

    func close(allCommitted: Bool) {
        lock.lock()
        let all = retired + (current.map { [$0] } ?? [])
        retired = []
        current = nil
        let parked = suspended
        suspended = nil
        lock.unlock()
        Self.live.remove(self)
        // The run ends clean in the log before its journal goes, so that nothing ever finds the
        // run open with no journal.
        onClose(allCommitted, parked == nil)
        if !allCommitted { all.last?.setState(.exited) }
        // Newest first when removing: a crash in between leaves a journal whose remaining
        // segments still start at a committed seq.
        for s in all.reversed() { s.release(remove: allCommitted) }
        if allCommitted, let parked { unlink(parked.path) }
    }

    /// Lets go of the files as the death of the process would (tests): no state is written and
    /// the log is told nothing.
    func abandon() {
        lock.lock()
        let all = retired + (current.map { [$0] } ?? [])
        retired = []
        current = nil
        suspended = nil
        lock.unlock()
        Self.live.remove(self)
        for s in all { s.release(remove: false) }
    }

    func suspend() {
        lock.lock()
        defer { lock.unlock() }
        guard let segment = current else { return }
        // Older segments go: removed when the log holds their events, else closed and left on disk
        // for a recovery. The newest stays, marked suspended.
        for s in retired { s.release(remove: s.lastSeq <= committedSeq) }
        retired = []
        segment.setState(.suspended)
        suspended = (segment.path, segment.capacity, segment.firstSeq, segment.lastSeq, segment.offset)
        segment.release(remove: false)
        current = nil
    }

    func resume() throws {
        lock.lock()
        defer { lock.unlock() }
        guard current == nil, let parked = suspended else { return }
        suspended = nil
        if let segment = reopen(parked) {
            segment.setState(.active)
            current = segment
            return
        }
        // Recovered by another process meanwhile (or damaged): the run goes on in a new segment.
        current = try makeSegment(firstSeq: parked.lastSeq + 1, minimum: 0)
    }

    /// Maps a suspended segment again if it is still this journal's and can be locked.
    private func reopen(_ parked: (path: String, capacity: Int, firstSeq: UInt64, lastSeq: UInt64, offset: Int)) -> Segment? {
        let fd = open(parked.path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &st) == 0, Int(st.st_size) == parked.capacity,
              let base = mmap(nil, parked.capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            closeDescriptor(fd)
            return nil
        }
        let header = UnsafeRawBufferPointer(start: base, count: Self.headerSize)
        guard Array(header[0..<8]) == Self.magic, base.load(fromByteOffset: 24, as: UInt32.self) == run.littleEndian,
              base.load(fromByteOffset: 8, as: UInt64.self) == parked.firstSeq.littleEndian else {
            munmap(base, parked.capacity)
            closeDescriptor(fd)
            return nil
        }
        let segment = Segment(path: parked.path, fd: fd, base: base, capacity: parked.capacity, firstSeq: parked.firstSeq)
        segment.lastSeq = parked.lastSeq
        segment.offset = parked.offset
        return segment
    }

    // MARK: Process exit

    /// The journals of this process, marked `exited` by an `atexit` handler: a process that exits
    /// normally (without releasing its navigators) did not crash.
    static let live = LiveJournals()

    final class LiveJournals: @unchecked Sendable {
        private let lock = NSLock()
        private var journals: [ObjectIdentifier: Weak] = [:]
        private var registered = false

        struct Weak { weak var journal: Journal? }

        func add(_ journal: Journal) {
            lock.withLock {
                journals[ObjectIdentifier(journal)] = Weak(journal: journal)
                if !registered {
                    registered = true
                    atexit { Journal.live.markExited() }
                }
            }
        }

        func remove(_ journal: Journal) {
            lock.withLock { _ = journals.removeValue(forKey: ObjectIdentifier(journal)) }
        }

        /// Marks every live journal exited (a store through each newest segment's mapping).
        func markExited() {
            // `try`: a thread that exits the process while holding the lock must not hang it.
            guard lock.try() else { return }
            defer { lock.unlock() }
            for entry in journals.values { entry.journal?.markExited() }
        }
    }

    /// Stores `exited` in the current segment's header, if there is one (not while suspended).
    private func markExited() {
        guard lock.try() else { return }
        defer { lock.unlock() }
        current?.setState(.exited)
    }

    /// The bytes of entries written to the current segment (for the benchmarks).
    var bytesWritten: Int { (current?.offset ?? Self.headerSize) - Self.headerSize }
}

/// `close(2)`, where a type's own `close` method hides it.
func closeDescriptor(_ fd: Int32) { _ = close(fd) }
