internal import Atomics
import Dispatch
import Foundation
import Logging
@_spi(Tools) import RouteLogCore

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
    @_spi(Tools) public init(writtenSeq: UInt64, pendingCount: Int, error: RecordingError? = nil) {
        self.writtenSeq = writtenSeq
        self.pendingCount = pendingCount
        self.error = error
    }
}

/// Records a navigator's events: into its journal before the call returns, and into its log off
/// the main actor.
///
/// The navigator hands each event over once, with ``record(_:seq:digest:)``. The event goes into
/// the journal (when the log keeps one), which makes it survive the process. A journal that can
/// give its events back (``EventJournal/canReadBack``) is then the queue itself: the call counts
/// the event and wakes a serial queue, which reads the events back from the journal and appends
/// them, so nothing of the event is kept in memory or touched by another thread, and a log that
/// falls far behind costs the journal's file pages, not the process's memory. Otherwise (no
/// journal, or one that failed) the event is pushed, without taking a lock, onto a lock-free
/// stack, which the queue takes in one atomic exchange. Either way the queue appends the backlog
/// in order, in batches with the right `expectedSeq`, each with the navigator's digests when the
/// log takes them (``/RouteLogCore/FoldedAppendingEventLog``: the store then checks the batch
/// rather than folding every event again). The lock guards only the queue's own bookkeeping; it is
/// never held across I/O, and the call path never takes it. When the log throws, the events stay
/// pending, the failure is reported once, and the recorder retries later; on success it catches
/// up with the backlog in batches of up to ``maxBatch`` events.
///
/// Screen records (``recordScreens(_:urgent:mayWake:)``) take a stack of their own and are written
/// after each drain's events, those whose head the log holds; they never stop the events'
/// recording, and wait (at most ``maxHeldScreens``) while the log cannot take them.
final class Recorder: @unchecked Sendable {
    typealias Item = (event: RecordedEvent, digest: Digest, seq: UInt64)

    /// Screen records handed over since the last drain that make the next one wake the queue.
    static let screenWakeCount = 64
    /// Screen records held at most while the log cannot take them; older ones are dropped first.
    static let maxHeldScreens = 10_000

    /// Events per append at most: a long backlog (after an outage, or an app outrunning the disk)
    /// is written in several transactions, so the writer's transient memory stays bounded.
    static let maxBatch = 1_024

    let log: any EventLog
    let session: SessionID
    let queue: DispatchQueue
    /// The run's journal (when the log keeps one): written each event before the call returns,
    /// told what the log committed, and closed when the recorder goes (removed if everything was
    /// written).
    let journal: (any EventJournal)?
    /// The log's journals and runs (``/RouteLogCore/EventLog/journaling``), asked for once: the
    /// session's writer lock is let go and taken back through it.
    let journaling: (any JournalingEventLog)?
    /// The log as one that stores screen records, `nil` when it does not (they are then dropped).
    let screenLog: (any ScreenRecordingEventLog)?
    /// The log as one that takes each event with the navigator's digest and checks the batch
    /// rather than folding every event again (``/RouteLogCore/FoldedAppendingEventLog``); `nil` when
    /// it does not, and events are appended for the log to fold.
    let foldedLog: (any FoldedAppendingEventLog)?
    private let logger: Logger
    private let retryDelay: Double

    // Lock-free: written by the navigator's calls.
    /// Events handed over and not yet taken by the queue, newest first.
    private let handoffs = HandoffStack<Item>()
    /// Events handed over since the recorder started.
    private let handedOver = ManagedAtomic<Int>(0)
    /// The last seq that went to the journal only (0: none).
    private let journaledThrough = ManagedAtomic<UInt64>(0)
    /// Whether a drain is scheduled on the queue.
    private let drainScheduled = ManagedAtomic<Bool>(false)
    /// Whether recording is stopped by a failure (retries are scheduled by the queue).
    private let stopped = ManagedAtomic<Bool>(false)
    /// Screen records handed over and not yet taken by the queue, newest first, and how many.
    private let screenHandoffs = HandoffStack<[ScreenRecord]>()
    private let screensHanded = ManagedAtomic<Int>(0)

    private let lock = NSLock()
    // Guarded by `lock`; the navigator's calls never take it.
    /// Taken off the stack and not yet written, oldest first.
    private var inflight: [Item] = []
    /// The events of `inflight` before this index are written (dropped in bulk, not one batch at a
    /// time, so a long backlog is not shifted for every batch).
    private var inflightStart = 0
    /// Events of this recorder the log holds.
    private var writtenByUs = 0
    private var written: UInt64
    private var failure: RecordingError?
    private var retryScheduled = false
    private var digestWarningGiven = false
    private var onChange: (@Sendable () -> Void)?
    /// Screen records taken off their stack and not yet written, oldest first.
    private var screensInflight: [ScreenRecord] = []
    private var screenWarningGiven = false
    private var screensDropped = 0

    init(log: any EventLog, session: SessionID, writtenSeq: UInt64, logger: Logger, retryDelay: Double, journal: (any EventJournal)? = nil) {
        self.journal = journal
        self.log = log
        self.journaling = log.journaling
        self.screenLog = log.screenRecording
        self.foldedLog = log.foldedAppending
        self.session = session
        self.written = writtenSeq
        self.logger = logger
        self.retryDelay = retryDelay
        self.queue = DispatchQueue(label: "RouteLog.Recorder.\(session)")
    }

    deinit {
        let clean = lock.withLock { failure == nil } && handedOver.load(ordering: .acquiring) == writtenByUs
        journal?.close(allCommitted: clean)
    }

    /// Called (on the recorder's queue) when the status changes: a failure starts or ends.
    func setOnChange(_ body: @escaping @Sendable () -> Void) {
        lock.withLock { onChange = body }
    }

    var status: RecordingStatus {
        let handed = handedOver.load(ordering: .acquiring)
        return lock.withLock { RecordingStatus(writtenSeq: written, pendingCount: max(0, handed - writtenByUs), error: failure) }
    }

    /// The unwritten events held in memory, on the stack or taken off it.
    var heldCount: Int {
        lock.withLock {
            takeHandoffs()
            return inflight.count - inflightStart
        }
    }

    /// Starts a run of `session` and opens its journal when the log keeps journals; a journal that
    /// cannot be opened is reported and the navigator records without it.
    static func beginRun(log: any EventLog, session: SessionID, head: UInt64, _ run: RunStart, logger: Logger) -> (any EventJournal)? {
        guard let journaling = log.journaling else { return nil }
        do {
            return try journaling.beginRun(of: session, head: head, run)
        } catch {
            logger.error("no crash-safe journal for this session; calls are written only by the recorder: \(error)", metadata: ["session": "\(session)"])
            return nil
        }
    }

    /// Records event `seq`: `digest` is the state's digest after it, as the navigator computed
    /// it. The event is in the journal when this returns (it survives the process from here on)
    /// and queued for the log. Lock-free: a journal write and a few atomic operations (and an
    /// allocation when the event goes onto the stack).
    func record(_ event: RecordedEvent, seq: UInt64, digest: Digest) {
        if let journal {
            journal.write(event, seq: seq, digest: digest)
            // The journal holds the event: the queue reads it back from there.
            if journal.canReadBack {
                journaledThrough.store(seq, ordering: .releasing)
                handedOver.wrappingIncrement(ordering: .releasing)
                wake()
                return
            }
        }
        enqueue((event, digest, seq))
    }

    /// Queues screen records for the log, each after the events through its
    /// ``ScreenRecord/headSeq``. Lock-free: one allocation and a few atomic operations for the
    /// batch. The queue wakes for them when `urgent` (a divergence), or once
    /// ``screenWakeCount`` records wait and `mayWake` (not while the navigator is suspended);
    /// otherwise the next event's drain, or a flush, takes them.
    func recordScreens(_ records: [ScreenRecord], urgent: Bool, mayWake: Bool) {
        guard screenLog != nil, !records.isEmpty else { return }
        screenHandoffs.push(records)
        let waiting = screensHanded.wrappingIncrementThenLoad(by: records.count, ordering: .relaxed)
        if mayWake && (urgent || waiting >= Self.screenWakeCount) { wake() }
    }

    /// Moves the screen stack's records to the end of `screensInflight`, oldest first, dropping
    /// the oldest beyond ``maxHeldScreens``. Call with `lock` held.
    private func takeScreenHandoffs() {
        var batches: [[ScreenRecord]] = []
        guard screenHandoffs.takeAll(appendingTo: &batches) > 0 else { return }
        screensHanded.store(0, ordering: .relaxed)
        for batch in batches { screensInflight.append(contentsOf: batch) }
        if screensInflight.count > Self.maxHeldScreens {
            let over = screensInflight.count - Self.maxHeldScreens
            screensInflight.removeFirst(over)
            screensDropped += over
        }
    }

    /// Writes the screen records whose events the log holds, in transactions of at most 4,096 (the
    /// navigator hands them over in batches, so this is at most one transaction per batch). A
    /// failure keeps them for the next drain and is logged once; it never stops the events'
    /// recording. Runs on `queue` only.
    private func drainScreens() {
        guard let screenLog else { return }
        while true {
            let (batch, dropped): ([ScreenRecord], Int) = lock.withLock {
                takeScreenHandoffs()
                let ready = screensInflight.prefix { $0.headSeq <= written }.prefix(4_096)
                defer { screensDropped = 0 }
                return (Array(ready), screensDropped)
            }
            if dropped > 0 {
                logger.warning("\(dropped) screen record\(dropped == 1 ? "" : "s") dropped while the log could not take them",
                               metadata: ["session": "\(session)"])
            }
            guard !batch.isEmpty else { return }
            do {
                try screenLog.appendScreenRecords(batch, to: session)
            } catch {
                let warn: Bool = lock.withLock {
                    defer { screenWarningGiven = true }
                    return !screenWarningGiven
                }
                if warn { logger.warning("screen records not written yet: \(error)", metadata: ["session": "\(session)"]) }
                return
            }
            lock.withLock {
                screensInflight.removeFirst(min(batch.count, screensInflight.count))
                screenWarningGiven = false
            }
        }
    }

    /// Pushes one event onto the handoff stack and wakes the queue.
    private func enqueue(_ item: Item) {
        handoffs.push(item)
        handedOver.wrappingIncrement(ordering: .releasing)
        wake()
    }

    /// Schedules a drain unless one is scheduled or recording is stopped.
    private func wake() {
        if !stopped.load(ordering: .relaxed) && !drainScheduled.exchange(true, ordering: .acquiringAndReleasing) {
            queue.async { self.drain() }
        }
    }

    /// Moves the stack's events to the end of `inflight`, oldest first. Call with `lock` held.
    private func takeHandoffs() {
        handoffs.takeAll(appendingTo: &inflight)
    }

    /// The last seq the log holds, and the events handed over after it through seq `through`
    /// (oldest first).
    ///
    /// - Throws: ``UnavailableEvents`` when one of them is neither held in memory nor given back
    ///   by the journal.
    func unwritten(through: UInt64) throws -> (writtenSeq: UInt64, events: [RecordedEvent]) {
        while true {
            let (from, held): (UInt64, [Item]) = lock.withLock {
                takeHandoffs()
                return (written, Array(inflight[inflightStart...].prefix { $0.seq <= through }))
            }
            guard through > from else { return (from, []) }
            if let items = assemble(held, from: from + 1, through: through) { return (from, items.map(\.event)) }
            // The log committed some of them meanwhile and the journal let go of them: ask again
            // from the new written seq. If nothing moved, this process cannot give them.
            if lock.withLock({ written }) == from { throw UnavailableEvents(from: from + 1, through: through) }
        }
    }

    /// Unwritten events that neither the recorder's memory nor the journal can give back.
    struct UnavailableEvents: Error, CustomStringConvertible {
        var from: UInt64
        var through: UInt64
        var description: String { "the recorder cannot give back seqs \(from)...\(through), which the log does not hold yet" }
    }

    /// Lets go of every file and lock the recording holds, after a ``flush()``: the journal marks
    /// itself suspended and releases its files, and the log releases the session's writer lock
    /// (and the store, when no other session of it is written in this process).
    func suspend() {
        journal?.suspend()
        journaling?.suspendWriting(session)
    }

    /// Takes back what ``suspend()`` let go of: the journal's files and the session's writer lock.
    /// Both are tried; the first failure is thrown.
    func resume() throws {
        var failure: (any Error)?
        do { try journal?.resume() } catch { failure = error }
        if let journal, let journaling {
            do { try journaling.resumeWriting(session, run: journal.runNumber) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Tries to write everything pending now, even during an outage; runs on the queue.
    ///
    /// The caller resumes from a block of its own, queued after the drain's: the queue has let go
    /// of the drain's block, and with it of the recorder, by then. A navigator released right
    /// after its flush is then the recorder's last owner, so the run ends (clean, its journal
    /// removed, the session's writer lock released) before the release returns, not a moment
    /// later on the queue's thread.
    func flush() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            queue.async { self.drain(force: true) }
            queue.async { c.resume() }
        }
    }

    /// Writes the backlog of events, then the screen records they make ready. Runs on `queue` only.
    /// The writes go to the log's writer thread (``WriterHandOff``): the queue's thread is any of a
    /// shared pool's.
    private func drain(force: Bool = false) {
        WriterHandOff.requested.withValue(true) {
            drainEvents(force: force)
            drainScreens()
        }
    }

    /// Writes the backlog of events. Runs on `queue` only.
    private func drainEvents(force: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        while true {
            drainScheduled.store(false, ordering: .releasing)
            let (held, expected, stopped): ([Item], UInt64, Bool) = lock.withLock {
                takeHandoffs()
                let end = min(inflight.count, inflightStart + Self.maxBatch)
                return (Array(inflight[inflightStart..<end]), written, failure?.diverged == true || (failure != nil && !force))
            }
            if stopped { return }
            // Read after taking the stack: a call that went to the journal only before an event
            // on the stack stored its seq before pushing that event.
            let journaled = journaledThrough.load(ordering: .acquiring)
            // Every seq after the log's up to `journaled` is in the journal, and every one after
            // `journaled` on the stack.
            let end = min(expected + UInt64(Self.maxBatch), max(journaled, held.last?.seq ?? 0))
            guard let batch = assemble(held.filter { $0.seq <= end }, from: expected + 1, through: end) else {
                failed("\(UnavailableEvents(from: expected + 1, through: end))", diverged: false)
                return
            }
            if batch.isEmpty { return }
            do {
                try write(batch, expectedSeq: expected)
                succeeded(count: batch.count)
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

    /// Appends `batch` after `expectedSeq`: with the navigator's digests when the log takes them
    /// (it checks the batch's fold rather than folding every event again), else for the log to
    /// fold, comparing its digests with the navigator's. A batch whose fold the log finds
    /// different from the navigator's digests is appended for the log to fold, and the first
    /// difference is reported once.
    private func write(_ batch: [Item], expectedSeq: UInt64) throws {
        let events = batch.map(\.event)
        if let foldedLog {
            do {
                try foldedLog.appendFolded(events, digests: batch.map(\.digest), to: session, expectedSeq: expectedSeq)
                return
            } catch is FoldMismatch {
                // Nothing was written: the log folds the batch itself below.
            } catch is PendingLog.FoldedAppendUnavailable {
                // The store opened behind a pending log does not take the navigator's digests.
            }
        }
        let stored = try log.append(events, to: session, expectedSeq: expectedSeq)
        checkDigests(stored, against: batch)
    }

    /// The events `from`...`through`, in order: those of `held` (in seq order, all within the
    /// range), and the seqs between them read back from the journal; `nil` when the journal cannot
    /// give one back.
    private func assemble(_ held: [Item], from: UInt64, through: UInt64) -> [Item]? {
        var out: [Item] = []
        var next = from
        func readBack(through end: UInt64) -> Bool {
            guard next <= end else { return true }
            guard let events = journal?.events(from: next, through: end) else { return false }
            for (k, e) in events.enumerated() { out.append((e.event, e.digest, next + UInt64(k))) }
            next = end + 1
            return true
        }
        for item in held {
            guard readBack(through: item.seq - 1) else { return nil }
            out.append(item)
            next = item.seq + 1
        }
        return readBack(through: through) ? out : nil
    }

    private func resync(expected: UInt64, actual: UInt64, batch: [Item]) -> Bool {
        let k = Int(actual - expected)
        let existing = (try? log.events(session, from: expected + 1, through: actual)) ?? []
        if existing.count == k && zip(existing, batch).allSatisfy({ $0.recorded == $1.event }) {
            logger.notice("log already held seqs \(expected + 1)...\(actual); recording continues after them",
                          metadata: ["session": "\(session)"])
            succeeded(count: k)
            return true
        }
        failed("the log's session has events this navigator did not write (its last seq is \(actual), expected \(expected))", diverged: true)
        return false
    }

    /// Counts `count` more events written and drops the held ones the log now holds.
    private func succeeded(count: Int) {
        let (recovered, callback): (RecordingError?, (@Sendable () -> Void)?) = lock.withLock {
            writtenByUs += count
            written += UInt64(count)
            // The written events held in memory (a batch read back from the journal may have
            // written some of them too).
            while inflightStart < inflight.count && inflight[inflightStart].seq <= written { inflightStart += 1 }
            if inflightStart == inflight.count {
                inflight = []
                inflightStart = 0
            } else if inflightStart >= Self.maxBatch * 4 && inflightStart * 2 >= inflight.count {
                inflight.removeFirst(inflightStart)
                inflightStart = 0
            }
            let was = failure
            failure = nil
            stopped.store(false, ordering: .relaxed)
            return (was, onChange)
        }
        journal?.committed(through: lock.withLock { written })
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
            stopped.store(true, ordering: .relaxed)
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
