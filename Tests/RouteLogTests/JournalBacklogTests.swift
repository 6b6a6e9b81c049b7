import Foundation
@_spi(Benchmarks) @_spi(Tools) @testable import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A store whose appends wait at a gate, with the store's crash-safe journals.
final class GatedJournalingLog: GatedLog, JournalingEventLog, @unchecked Sendable {
    let store: LMDBEventLog
    init(_ store: LMDBEventLog) {
        self.store = store
        super.init(store)
    }
    func beginRun(of session: SessionID, head: UInt64, _ run: RunStart) throws -> any EventJournal { try store.beginRun(of: session, head: head, run) }
    func runs(of session: SessionID) throws -> [RunInfo] { try store.runs(of: session) }
    func suspendWriting(_ session: SessionID) { store.suspendWriting(session) }
    func resumeWriting(_ session: SessionID, run: Int) throws { try store.resumeWriting(session, run: run) }
    func isBeingWritten(_ session: SessionID) -> Bool { store.isBeingWritten(session) }
    override var journaling: (any JournalingEventLog)? { self }
}

/// A burst of calls that outruns the log: the journal, which holds every event, is the recorder's
/// queue, so the backlog is not held in memory however long it grows.
@MainActor
@Suite struct JournalBacklogTests {
    static func digest(_ seq: UInt64) -> Digest { Digest(hi: seq &* 0x9E37_79B9_7F4A_7C15, lo: ~seq) }

    @Test func theJournalGivesBackItsUncommittedEventsAcrossSegments() throws {
        let dir = try TempDir()
        let events = writerEvents(seed: 0x5EED, count: 50_000)
        let journal = try JournalWriter(directory: dir.path("journal"), session: SessionID("0190b7a0-0000-7000-8000-000000000001"), run: 1, head: 0)
        defer { journal.close(allCommitted: false) }
        for (i, e) in events.enumerated() { journal.write(e, seq: UInt64(i + 1), digest: Self.digest(UInt64(i + 1))) }
        #expect(journal.canReadBack)
        #expect(journal.retired.count >= 2, "50,000 events span several 1 MiB segments")
        // Forward from the start, across segment ends, back again (the read cursor goes back), the last one.
        for (a, b) in [(1, 1_024), (1_025, 12_000), (20_000, 49_000), (5, 10), (50_000, 50_000), (9_000, 9_500)] as [(UInt64, UInt64)] {
            let got = try #require(journal.events(from: a, through: b), "\(a)...\(b)")
            #expect(got.map(\.event) == Array(events[Int(a - 1)..<Int(b)]), "\(a)...\(b)")
            #expect(got.map(\.digest) == (a...b).map(Self.digest), "\(a)...\(b)")
        }
        #expect(journal.events(from: 49_990, through: 50_001)?.count == nil, "a seq not written yet is not given back")
        // Committed segments are let go of, and what they held cannot be given back.
        journal.committed(through: 45_000)
        #expect(journal.events(from: 1, through: 10)?.count == nil)
        #expect(journal.events(from: 45_001, through: 50_000)?.count == 5_000)
    }

    @Test func aBurstThatOutrunsTheStoreHoldsNoBacklogInMemoryAndLosesNothing() async throws {
        let dir = try TempDir()
        let log = GatedJournalingLog(try LMDBEventLog.open(at: dir.path))
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock, historyWindow: 256)
        let reference = Navigator<PodRoute>.inMemory(clock: fixedClock)
        let calls = 14_000
        var mostHeld = 0
        for i in 0..<calls {
            BoundedHistoryTests.drive(nav, i)
            BoundedHistoryTests.drive(reference, i)
            if i % 500 == 0 { mostHeld = max(mostHeld, nav.memoryFootprint.heldEvents) }
        }
        mostHeld = max(mostHeld, nav.memoryFootprint.heldEvents)
        // Nothing is written while the gate is shut (one batch waits in the append).
        #expect(nav.recordingStatus.writtenSeq == 0)
        #expect(nav.recordingStatus.pendingCount == Int(nav.headSeq))
        #expect(mostHeld == 0, "the recorder held \(mostHeld) events in memory")
        #expect(nav.headSeq > 10_000)

        // Travel to seqs held only by the journal, older than the window and not in the log.
        try await BoundedHistoryTests.expectTravelThenCatchUp(nav, log: log, like: reference, travelTo: [3, 5_000, nav.headSeq - 300])
        #expect(nav.memoryFootprint.heldEvents == 0)
    }
}

/// A journal in memory that stops taking events after seq `lastKept`, as a journal does when it
/// cannot make its next segment: the recorder then holds the later events in memory.
final class FailingMemoryJournal: EventJournal, @unchecked Sendable {
    let runNumber = 1
    private let lastKept: UInt64
    private let lock = NSLock()
    private var kept: [UInt64: (event: RecordedEvent, digest: Digest)] = [:]
    private var failed = false

    init(lastKept: UInt64) { self.lastKept = lastKept }

    func write(_ event: RecordedEvent, seq: UInt64, digest: Digest) {
        lock.withLock {
            if seq > lastKept { failed = true }
            if !failed { kept[seq] = (event, digest) }
        }
    }
    var canReadBack: Bool { lock.withLock { !failed } }
    func events(from seq: UInt64, through last: UInt64) -> [(event: RecordedEvent, digest: Digest)]? {
        lock.withLock {
            let found = (seq...max(seq, last)).compactMap { kept[$0] }
            return seq > last ? [] : found.count == Int(last - seq + 1) ? found : nil
        }
    }
    func committed(through seq: UInt64) { lock.withLock { kept = kept.filter { $0.key > seq } } }
    func close(allCommitted: Bool) {}
    func suspend() {}
    func resume() throws {}
}

/// An in-memory log behind a gate whose runs get a ``FailingMemoryJournal``.
final class GatedFailingJournalLog: GatedLog, JournalingEventLog, @unchecked Sendable {
    let lastKept: UInt64
    init(lastKept: UInt64) {
        self.lastKept = lastKept
        super.init()
    }
    func beginRun(of session: SessionID, head: UInt64, _ run: RunStart) throws -> any EventJournal { FailingMemoryJournal(lastKept: lastKept) }
    func runs(of session: SessionID) throws -> [RunInfo] { [] }
    func suspendWriting(_ session: SessionID) {}
    func resumeWriting(_ session: SessionID, run: Int) throws {}
    func isBeingWritten(_ session: SessionID) -> Bool { false }
    override var journaling: (any JournalingEventLog)? { self }
}

extension JournalBacklogTests {
    /// A journal that fails midway: the events before are read back from it, the later ones are
    /// held in memory, and the backlog is written, and travelled, across the two.
    @Test func aJournalThatFailsMidwayLeavesItsEventsReadBackAndTheRestInMemory() async throws {
        let log = GatedFailingJournalLog(lastKept: 3_000)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock, historyWindow: 256)
        let reference = Navigator<PodRoute>.inMemory(clock: fixedClock)
        for i in 0..<5_000 {
            BoundedHistoryTests.drive(nav, i)
            BoundedHistoryTests.drive(reference, i)
        }
        #expect(nav.recordingStatus.pendingCount == Int(nav.headSeq))
        // Only the events after the journal failed are held.
        #expect(nav.memoryFootprint.heldEvents == Int(nav.headSeq) - 3_000)
        try await BoundedHistoryTests.expectTravelThenCatchUp(nav, log: log, like: reference, travelTo: [2, 2_999, 3_001, 4_000])
    }
}
