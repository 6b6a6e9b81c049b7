import Dispatch
import Foundation
import Logging
import RouteLogCore

/// Why recording to the log stopped. Navigation keeps working in memory meanwhile.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in one line.
    public var message: String
    /// The first seq the log does not hold yet.
    public var firstUnwrittenSeq: UInt64
    /// `true` when the log holds events this navigator did not write (another writer appended
    /// to the session): recording cannot resume.
    public var diverged: Bool

    /// One line for logs.
    public var description: String {
        "recording stopped at seq \(firstUnwrittenSeq): \(message)" + (diverged ? " (the log diverged; recording will not resume)" : "")
    }
}

/// A snapshot of the recorder, as the navigator exposes it.
public struct RecordingStatus: Hashable, Sendable {
    /// The seq of the last event the log holds.
    public var writtenSeq: UInt64
    /// Events applied in memory and not yet in the log.
    public var pendingCount: Int
    /// The current failure, if recording is stopped.
    public var error: RecordingError?

    /// A status with these values.
    public init(writtenSeq: UInt64, pendingCount: Int, error: RecordingError? = nil) {
        self.writtenSeq = writtenSeq
        self.pendingCount = pendingCount
        self.error = error
    }
}

/// Writes a navigator's events to its log off the main actor.
///
/// The navigator hands each event over with ``enqueue(_:digest:)``: a short lock around an
/// append to a chunked backlog, never I/O and never a copy of a growing array. A serial queue
/// takes the backlog in one move and appends it in batches with the right `expectedSeq`. When
/// the log throws, the events stay pending, the failure is reported once, and the recorder
/// retries later; on success it catches up with the whole backlog in one batch.
final class Recorder: @unchecked Sendable {
    typealias Item = (event: RecordedEvent, digest: Digest)

    let log: any EventLog
    let session: SessionID
    let queue: DispatchQueue
    private let logger: Logger
    private let retryDelay: Double
    private let lock = NSLock()

    // Guarded by `lock`. Only O(1) work happens under it: moves of array references.
    /// Handed over by the navigator, not yet taken by the queue.
    private var incoming = Backlog<Item>()
    /// Taken by the queue and not yet written, oldest first. Only the queue replaces it, with an
    /// array built outside the lock.
    private var inflight: [Item] = []
    /// Taken from `incoming` by the queue and not yet in `inflight` (while the queue builds the
    /// new `inflight` outside the lock), so that status and reads still see those events.
    private var inTransit = Backlog<Item>()
    private var written: UInt64
    private var failure: RecordingError?
    private var drainScheduled = false
    private var retryScheduled = false
    private var digestWarningGiven = false
    private var onChange: (@Sendable () -> Void)?

    init(log: any EventLog, session: SessionID, writtenSeq: UInt64, logger: Logger, retryDelay: Double) {
        self.log = log
        self.session = session
        self.written = writtenSeq
        self.logger = logger
        self.retryDelay = retryDelay
        self.queue = DispatchQueue(label: "RouteLog.Recorder.\(session)")
    }

    /// Called (on the recorder's queue) when the status changes: a failure starts or ends.
    func setOnChange(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { onChange = body }
    }

    var status: RecordingStatus {
        lock.withLock { RecordingStatus(writtenSeq: written, pendingCount: inflight.count + inTransit.count + incoming.count, error: failure) }
    }

    /// Hands one event over. `digest` is the state's digest after it, as the navigator computed it.
    func enqueue(_ event: RecordedEvent, digest: Digest) {
        let schedule: Bool = lock.withLock {
            incoming.append((event, digest))
            guard failure == nil, !drainScheduled else { return false }
            drainScheduled = true
            return true
        }
        if schedule { queue.async { self.drain() } }
    }

    /// The last seq the log holds, and the events handed over after it through seq `through`
    /// (oldest first). The copy is made outside the lock.
    func unwritten(through: UInt64) -> (writtenSeq: UInt64, events: [RecordedEvent]) {
        let (w, taken, moving, handed) = lock.withLock { (written, inflight, inTransit, incoming) }
        guard through > w else { return (w, []) }
        let wanted = Int(through - w)
        var out: [RecordedEvent] = []
        out.reserveCapacity(wanted)
        for item in taken where out.count < wanted { out.append(item.event) }
        for backlog in [moving, handed] {
            backlog.forEach { item in
                guard out.count < wanted else { return false }
                out.append(item.event)
                return true
            }
        }
        return (w, out)
    }

    /// Tries to write everything pending now, even during an outage; runs on the queue.
    func flush() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            queue.async {
                self.drain(force: true)
                c.resume()
            }
        }
    }

    /// Writes the backlog. Runs on `queue` only.
    private func drain(force: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        while true {
            let (taken, current, expected, stopped): (Backlog<Item>, [Item], UInt64, Bool) = lock.withLock {
                drainScheduled = false
                let taken = incoming
                incoming = Backlog()
                inTransit = taken
                return (taken, inflight, written, failure?.diverged == true || (failure != nil && !force))
            }
            var batch = current
            if taken.count > 0 {
                batch.reserveCapacity(current.count + taken.count)
                taken.forEach { batch.append($0); return true }
                lock.withLock {
                    inflight = batch
                    inTransit = Backlog()
                }
            }
            if batch.isEmpty || stopped { return }
            do {
                let stored = try log.append(batch.map(\.event), to: session, expectedSeq: expected)
                checkDigests(stored, against: batch)
                succeeded(writing: batch[...])
            } catch let EventLogError.conflict(_, exp, actual) where actual > exp && actual - exp <= UInt64(batch.count) {
                // The log holds more than we thought: a write reported as failed was committed.
                // If those records are ours, skip them and carry on (re-sync); otherwise stop.
                if resync(expected: exp, actual: actual, batch: batch) { continue }
                return
            } catch {
                failed("\(error)", diverged: false)
                return
            }
        }
    }

    private func resync(expected: UInt64, actual: UInt64, batch: [Item]) -> Bool {
        let k = Int(actual - expected)
        let existing = (try? log.events(session, from: expected + 1, through: actual)) ?? []
        if existing.count == k && zip(existing, batch).allSatisfy({ $0.recorded == $1.event }) {
            logger.notice("log already held seqs \(expected + 1)...\(actual); recording continues after them",
                          metadata: ["session": "\(session)"])
            succeeded(writing: batch[..<k])
            return true
        }
        failed("the log's session has events this navigator did not write (its last seq is \(actual), expected \(expected))", diverged: true)
        return false
    }

    /// Drops the written head of `inflight`: `batch` is a prefix of it.
    private func succeeded(writing batch: ArraySlice<Item>) {
        let current = inflightOnQueue
        let count = batch.count
        let rest = count == current.count ? [] : Array(current.dropFirst(count))
        let (recovered, callback): (RecordingError?, (@Sendable () -> Void)?) = lock.withLock {
            inflight = rest
            self.written += UInt64(count)
            let was = failure
            failure = nil
            return (was, onChange)
        }
        if let recovered {
            logger.notice("recording resumed: the log caught up from seq \(recovered.firstUnwrittenSeq)", metadata: ["session": "\(session)"])
            callback?()
        }
    }

    private func failed(_ message: String, diverged: Bool) {
        let (first, callback, error): (Bool, (@Sendable () -> Void)?, RecordingError) = lock.withLock {
            let first = failure == nil || (diverged && failure?.diverged != true)
            let error = RecordingError(message: message, firstUnwrittenSeq: written + 1, diverged: diverged)
            if first { failure = error }
            return (first, onChange, failure ?? error)
        }
        if first {
            // Reported once per outage; retries stay silent until recording resumes.
            logger.error("recording failed; navigation continues in memory: \(error)", metadata: ["session": "\(session)"])
            callback?()
        }
        if !diverged { scheduleRetry() }
    }

    private func scheduleRetry() {
        let schedule: Bool = lock.withLock {
            if retryScheduled { return false }
            retryScheduled = true
            return true
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + retryDelay) {
            self.lock.withLock { self.retryScheduled = false }
            self.drain(force: true)
        }
    }

    /// `inflight` read from the queue, which alone replaces it.
    private var inflightOnQueue: [Item] {
        dispatchPrecondition(condition: .onQueue(queue))
        return lock.withLock { inflight }
    }

    private func checkDigests(_ stored: [StoredEvent], against batch: [Item]) {
        guard let bad = zip(stored, batch).first(where: { $0.digest != $1.digest }) else { return }
        let warn: Bool = lock.withLock {
            defer { digestWarningGiven = true }
            return !digestWarningGiven
        }
        if warn {
            logger.warning("the log's digest after seq \(bad.0.seq) differs from the navigator's: the store folds events differently",
                           metadata: ["session": "\(session)"])
        }
    }
}

/// A FIFO that grows in fixed-size chunks: appending never copies what it already holds, and
/// handing the whole of it over is a move of two array references.
struct Backlog<Element> {
    static var chunkSize: Int { 256 }
    private var chunks: [[Element]] = []
    private var tail: [Element] = []
    private(set) var count = 0

    mutating func append(_ element: Element) {
        if tail.capacity == 0 { tail.reserveCapacity(Self.chunkSize) }
        tail.append(element)
        count += 1
        if tail.count == Self.chunkSize {
            chunks.append(tail)
            tail = []
        }
    }

    /// Calls `body` for each element, oldest first, until it returns `false`.
    func forEach(_ body: (Element) -> Bool) {
        for chunk in chunks {
            for e in chunk where !body(e) { return }
        }
        for e in tail where !body(e) { return }
    }
}
