internal import Atomics
import Foundation
@_spi(Tools) import RouteLogCore

/// The journal of a navigator on the guarded launch path whose store could not be opened at
/// launch: its calls go into an early journal (one that needs no store, see
/// ``RouteLogCore/EarlyJournalingEventLog``) from the first one, and, once the store opened and
/// began the run there, into the store's own journal of that run, from the next call on.
///
/// The switch happens on the writer's thread, between two calls: the store's journal is handed
/// over by the recorder's thread (``switchTo(_:)``) and taken at the next ``write(_:seq:digest:)``,
/// so every event is in exactly one of the two journals: seqs through `switchedAfter` in the early
/// one, the later ones in the store's. The early journal is closed (and removed) once the log
/// committed every event it holds; until then a crash leaves it for the next read-write open of
/// the store, which recovers it before the store's journal.
final class SwitchingJournal: EventJournal, @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var early: (any EventJournal)?
    private var handedOver: (any EventJournal)?
    private var store: (any EventJournal)?
    /// The last seq written to the early journal before the switch.
    private var switchedAfter: UInt64 = 0
    private var committedSeq: UInt64 = 0
    private var isSuspended = false

    /// Whether a store journal waits to be switched to (read by the writer's thread each call).
    private let pending = ManagedAtomic<Bool>(false)
    /// The journal calls go to. Touched only by the writer's thread (and under `lock` when set).
    private var current: any EventJournal
    private var lastWritten: UInt64 = 0

    init(early: any EventJournal) {
        self.early = early
        current = early
    }

    /// Hands over the store's journal of the run (begun with head 0): calls go there from the
    /// next one on.
    func switchTo(_ journal: any EventJournal) {
        let suspended: Bool = lock.withLock {
            handedOver = journal
            return isSuspended
        }
        // Handed over while the navigator suspends: it holds nothing either until it resumes.
        if suspended { journal.suspend() }
        pending.store(true, ordering: .releasing)
    }

    /// Whether calls go to the store's journal now.
    var hasSwitched: Bool { lock.withLock { store != nil } }

    var runNumber: Int { lock.withLock { (store ?? handedOver ?? early)?.runNumber ?? 1 } }

    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest) {
        if pending.load(ordering: .acquiring) { takeHandedOver(after: seq - 1) }
        current.write(event, seq: seq, digest: digest)
        lastWritten = seq
    }

    /// Switches to the handed-over journal; the early one holds seqs through `last`.
    private func takeHandedOver(after last: UInt64) {
        pending.store(false, ordering: .relaxed)
        let closing: (any EventJournal)? = lock.withLock {
            guard let next = handedOver else { return nil }
            handedOver = nil
            store = next
            switchedAfter = last
            current = next
            guard committedSeq >= last, let e = early else { return nil }
            early = nil
            return e
        }
        closing?.close(allCommitted: true)
    }

    func committed(through seq: UInt64) {
        let (e, s, closeEarly): ((any EventJournal)?, (any EventJournal)?, Bool) = lock.withLock {
            committedSeq = max(committedSeq, seq)
            let e = early
            let done = store != nil && seq >= switchedAfter && e != nil
            if done { early = nil }
            return (e, store, done)
        }
        if closeEarly {
            e?.close(allCommitted: true)
        } else {
            e?.committed(through: seq)
        }
        s?.committed(through: seq)
    }

    func close(allCommitted: Bool) {
        let all: [any EventJournal] = lock.withLock {
            defer { early = nil; handedOver = nil; store = nil }
            return [early, store, handedOver].compactMap { $0 }
        }
        for j in all { j.close(allCommitted: allCommitted) }
    }

    func suspend() {
        let all: [any EventJournal] = lock.withLock {
            isSuspended = true
            return [early, store, handedOver].compactMap { $0 }
        }
        for j in all { j.suspend() }
    }

    func resume() throws {
        let all: [any EventJournal] = lock.withLock {
            isSuspended = false
            return [early, store, handedOver].compactMap { $0 }
        }
        var failure: (any Error)?
        for j in all {
            do { try j.resume() } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    var canReadBack: Bool { current.canReadBack }

    func events(from seq: UInt64, through last: UInt64) -> [(event: RecordedEvent, digest: Digest)]? {
        guard seq <= last else { return [] }
        let (e, s, after) = lock.withLock { (early, store, switchedAfter) }
        guard let s else { return e?.events(from: seq, through: last) }
        var out: [(event: RecordedEvent, digest: Digest)] = []
        if seq <= after {
            guard let part = e?.events(from: seq, through: min(last, after)) else { return nil }
            out += part
        }
        if last > after {
            guard let part = s.events(from: max(seq, after + 1), through: last) else { return nil }
            out += part
        }
        return out
    }
}
