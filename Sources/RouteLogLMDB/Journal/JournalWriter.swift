#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

/// A writer's crash-safe journal: files `journal/<session>.<run token>.<segment>.rlj` in the
/// store's directory, each a `MAP_SHARED` mapping the navigator writes every event into before
/// its call returns. Pages written through a shared file mapping belong to the page cache, not to
/// the process, so they reach the file however the process dies (a trap, `abort()`, SIGKILL);
/// only a system crash or power loss can lose them. Nothing here syncs, locks across processes on
/// the call path, or opens an LMDB transaction.
///
/// The layout of its files is in JournalFormat.swift.
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
final class JournalWriter: EventJournal, @unchecked Sendable {
    let directory: String
    let session: SessionID
    let token: String
    let run: UInt32
    var runNumber: Int { Int(run) }
    /// Told when the writer closes: whether everything was committed (the log then marks the run
    /// `clean`) and whether it was active (not suspended) until then.
    private let onClose: @Sendable (_ allCommitted: Bool, _ wasActive: Bool) -> Void
    /// An early journal's description (see EarlyJournals.swift): its `.session` file and what it
    /// holds, removed after the segments once every event is committed, and written again at a
    /// resume when a recovery took it meanwhile.
    private let early: (path: String, contents: Data)?

    // Touched only by `write` (the navigator's thread), except under `lock` at a rotation.
    private(set) var current: Segment?
    /// The number of the next segment file. Guarded by `lock`.
    var segmentNumber: UInt32 = 0
    private var scratch: [UInt8] = []
    /// Set when a segment could not be created: the journal stops (the recorder still writes).
    private(set) var failure: String?
    /// While suspended: the segment that was current, to map again at `resume()`.
    private var suspended: (path: String, capacity: Int, firstSeq: UInt64, lastSeq: UInt64, offset: Int)?

    let lock = NSLock()
    /// Full segments, oldest first, until the log has committed their events. Guarded by `lock`.
    private(set) var retired: [Segment] = []
    /// The next segment, made ahead by the recorder's thread (``prepareSpare()``) so that a
    /// rotation on the call path does not create, reserve and map a file. Guarded by `lock`.
    var spare: Segment?
    /// The last seq the log holds, as the recorder reported. Guarded by `lock`.
    private var committedSeq: UInt64 = 0
    /// Where the last read-back stopped: the segment (its first seq), the offset of the next
    /// entry and its seq. Guarded by `lock`.
    var readCursor: (segmentFirstSeq: UInt64, offset: Int, seq: UInt64)?

    /// Creates the journal's first segment for events after `head`.
    init(directory: String, session: SessionID, run: UInt32, head: UInt64, early: (path: String, contents: Data)? = nil,
         onClose: @escaping @Sendable (_ allCommitted: Bool, _ wasActive: Bool) -> Void = { _, _ in }) throws {
        self.directory = directory
        self.session = session
        self.run = run
        self.early = early
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

    /// The store under which this run's session counts as written by this process (see
    /// ``ProcessSessions``), from ``register(store:)`` until the journal is closed, abandoned or
    /// released. Guarded by `lock`.
    private var registeredStore: String?

    /// Counts the session as written by this process (active or suspended) until the journal goes.
    func register(store: String) {
        lock.withLock { registeredStore = store }
        ProcessSessions.shared.add(store: store, session)
    }

    private func unregister() {
        let store: String? = lock.withLock {
            defer { registeredStore = nil }
            return registeredStore
        }
        if let store { ProcessSessions.shared.remove(store: store, session) }
    }

    deinit {
        unregister()
        Self.live.remove(self)
        lock.lock()
        let all = retired + (current.map { [$0] } ?? [])
        retired = []
        current = nil
        lock.unlock()
        for s in all { s.release(remove: false) }
        dropSpare()
    }


    /// A new segment for entries from `firstSeq`, with room for an entry of `minimum` bytes.
    private func makeSegment(firstSeq: UInt64, minimum: Int) throws -> Segment {
        let segment = try makeFile(number: nextNumber(), minimum: minimum)
        segment.start(at: firstSeq, run: run)
        return segment
    }

    /// The next segment number (numbers are taken in the order the segments are used).
    func nextNumber() -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        segmentNumber += 1
        return segmentNumber - 1
    }

    /// Creates, reserves and maps segment file `number`, its header not written yet; with
    /// `touchingPages` (a spare, made off the call path), each page takes its first write fault
    /// now (``touchPages(_:_:)``). A segment a call makes itself (no spare was ready) leaves them
    /// to the calls: the 256 faults at once would be half a millisecond of that one call.
    func makeFile(number: UInt32, minimum: Int, touchingPages: Bool = false) throws -> Segment {
        let capacity = max(Self.segmentBytes, (Self.headerSize + minimum + 4095) & ~4095)
        let path = (directory as NSString).appendingPathComponent(Self.fileName(session: session, token: token, segment: number))
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
        if touchingPages { Self.touchPages(base, capacity) }
        return Segment(path: path, fd: fd, base: base, capacity: capacity, number: number, firstSeq: 1)
    }

    /// Writes a zero (what the file holds there already) into each page of a new segment's
    /// mapping: the first store into a page of a shared file mapping faults, even a populated one
    /// (the kernel write-protects it to track it dirty, and on Linux converts its reserved block),
    /// and that fault is taken here, when a spare is made (on the recorder's thread), not by the
    /// navigator call whose entry first lands in the page (a few microseconds each, every
    /// thirtieth call or so).
    static func touchPages(_ base: UnsafeMutableRawPointer, _ capacity: Int) {
        // The file is new: zeros throughout, its header not written yet.
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        for offset in stride(from: 0, to: capacity, by: page) {
            base.storeBytes(of: 0 as UInt8, toByteOffset: offset, as: UInt8.self)
        }
    }

    private static func error(_ path: String, _ what: String) -> LMDBEventLogError {
        .lockFailed(path: path, reason: "\(what) the journal segment: \(String(cString: strerror(errno)))")
    }


    // MARK: EventJournal

    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest) {
        guard failure == nil else { return }
        scratch.removeAll(keepingCapacity: true)
        BinaryCodec.encode(event, into: &scratch)
        let size = Self.entrySize(payload: scratch.count)
        guard var segment = current else { return }
        if segment.offset + size > segment.capacity || segment.lastSeq + 1 != seq {
            do {
                let next = try takeSpare(for: seq, minimum: size) ?? makeSegment(firstSeq: seq, minimum: size)
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
        prepareSpare()
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
        unregister()
        dropSpare()
        // The run ends clean in the log before its journal goes, so that nothing ever finds the
        // run open with no journal.
        onClose(allCommitted, parked == nil)
        if !allCommitted { all.last?.setState(.exited) }
        // Newest first when removing: a crash in between leaves a journal whose remaining
        // segments still start at a committed seq.
        for s in all.reversed() { s.release(remove: allCommitted) }
        if allCommitted, let parked { unlink(parked.path) }
        // The description goes last: segments left by a crash in between still find their session.
        if allCommitted, let early { unlink(early.path) }
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
        unregister()
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
        spare?.release(remove: true)
        spare = nil
        segment.setState(.suspended)
        suspended = (segment.path, segment.capacity, segment.firstSeq, segment.lastSeq, segment.offset)
        segment.release(remove: false)
        current = nil
    }

    func resume() throws {
        try resumeSegment()
        // Recovered by another process while suspended, an early journal's description is written
        // again for the segments from here on.
        if let early, access(early.path, F_OK) != 0 { try? early.contents.write(to: URL(fileURLWithPath: early.path), options: .atomic) }
    }

    private func resumeSegment() throws {
        lock.lock()
        guard current == nil, let parked = suspended else {
            lock.unlock()
            return
        }
        suspended = nil
        lock.unlock()
        // The files are opened without the lock (only this thread sets `current`); recovered by
        // another process meanwhile (or damaged), the run goes on in a new segment.
        let segment: Segment
        if let reopened = reopen(parked) {
            reopened.setState(.active)
            segment = reopened
        } else {
            segment = try makeSegment(firstSeq: parked.lastSeq + 1, minimum: 0)
        }
        lock.lock()
        current = segment
        lock.unlock()
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
        let segment = Segment(path: parked.path, fd: fd, base: base, capacity: parked.capacity,
                              number: UInt32(littleEndian: base.load(fromByteOffset: 28, as: UInt32.self)), firstSeq: parked.firstSeq)
        segment.lastSeq = parked.lastSeq
        segment.offset = parked.offset
        return segment
    }


    /// How long the exit handler waits for a journal's lock. The recorder's thread takes it for a
    /// moment after each commit; giving up at once when it held it (a busy machine makes that
    /// likely) left a normal exit looking like a crash. A thread that exits while holding the
    /// lock itself makes the handler give up after this wait rather than hang.
    static let exitLockWait: TimeInterval = 0.5

    /// Stores `exited` in the current segment's header, if there is one (not while suspended).
    func markExited() {
        guard lock.lock(before: Date(timeIntervalSinceNow: Self.exitLockWait)) else { return }
        defer { lock.unlock() }
        current?.setState(.exited)
    }

    /// The bytes of entries written to the current segment (for the benchmarks).
    var bytesWritten: Int { (current?.offset ?? Self.headerSize) - Self.headerSize }
}
