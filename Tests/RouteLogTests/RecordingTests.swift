import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing

@MainActor
@Suite struct RecordingTests {
    /// A log that notes, for each append, whether its caller asked for the writer thread.
    final class HandOffSpy: ForwardingEventLog, @unchecked Sendable {
        private let lock = NSLock()
        private var _asked: [Bool] = []
        var asked: [Bool] { lock.withLock { _asked } }

        init() { super.init(InMemoryEventLog(snapshotInterval: 4, clock: fixedClock)) }

        override func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
            lock.withLock { _asked.append(WriterHandOff.isRequested) }
            return try inner.append(events, to: session, expectedSeq: expectedSeq)
        }
    }

    /// The recorder's writes ask for the log's writer thread (its queue runs on any thread of a
    /// shared pool); a caller's own append does not.
    @Test func theRecordersWritesAskForTheWriterThread() async throws {
        let log = HandOffSpy()
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        nav.push(.episode(id: 1))
        await nav.flush()
        nav.push(.episode(id: 2))
        await nav.flush()
        #expect(!log.asked.isEmpty && log.asked.allSatisfy { $0 }, "\(log.asked)")
        let other = try log.createSession(NewSession(label: "tool"))
        _ = try log.append([RecordedEvent(.push(RouteRef(id: "inbox")))], to: other.id, expectedSeq: 0)
        #expect(log.asked.last == false)
    }

    @Test func aFailingLogKeepsNavigationInMemoryReportsOnceAndCatchesUp() async throws {
        let log = FlakyLog()
        let capture = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: log, logger: capture.logger, clock: fixedClock, retryDelay: 0.01)
        nav.push(.episode(id: 1))
        await nav.flush()
        #expect(nav.recordingError == nil && nav.recordingStatus.writtenSeq == 1)

        log.failing = true                                         // disk full
        nav.push(.episode(id: 2))
        nav.show(.player(episode: 2))
        await nav.flush()
        await nav.flush()
        nav.push(.episode(id: 3))
        await nav.flush()
        // Navigation kept working in memory.
        #expect(nav.path == [.episode(id: 1), .episode(id: 2)] && nav.top?.content?.path == [.episode(id: 3)])
        let error = try #require(nav.recordingError)
        #expect(error.firstUnwrittenSeq == 2 && !error.diverged)
        #expect(error.message == "No space left on device")
        #expect(nav.recordingStatus.pendingCount == 3)
        #expect(log.attempts >= 4)
        #expect(capture.count(.error) == 1)                        // surfaced once, however many retries

        log.failing = false
        await nav.flush()
        #expect(nav.recordingError == nil)
        #expect(nav.recordingStatus == RecordingStatus(writtenSeq: 4, pendingCount: 0, error: nil))
        let stored = try log.events(nav.session)
        #expect(stored.map(\.seq) == [1, 2, 3, 4])
        #expect(stored.last?.digest == nav.state.digest)
        #expect(capture.count(.error) == 1)
        #expect(capture.messages.contains { $0.0 == .notice && $0.1.contains("recording resumed") })
        #expect(capture.count(.warning) == 0)
    }

    @Test func retriesResumeRecordingWithoutAnyFurtherCall() async throws {
        let log = FlakyLog()
        let nav = try Navigator<PodRoute>(log: log, logger: CapturingLogHandler().logger, clock: fixedClock, retryDelay: 0.01)
        log.failing = true
        nav.push(.episode(id: 1))
        await nav.flush()
        #expect(nav.recordingError != nil)
        log.failing = false
        // No new call and no flush: the recorder's own retry catches up.
        var waited = 0
        while try log.session(nav.session).eventCount < 1 && waited < 30_000 {
            try await Task.sleep(nanoseconds: 10_000_000)
            waited += 1
        }
        #expect(try log.session(nav.session).eventCount == 1)
        await nav.flush()
        #expect(nav.recordingError == nil)
    }

    @Test func aCommitWhoseAcknowledgementWasLostIsReSyncedNotDuplicated() async throws {
        let log = FlakyLog()
        let capture = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: log, logger: capture.logger, clock: fixedClock, retryDelay: 0.01)
        log.failAfterCommit = true
        nav.push(.episode(id: 1))
        nav.push(.episode(id: 2))
        await nav.flush()
        nav.push(.episode(id: 3))
        await nav.flush()
        await nav.flush()
        #expect(try log.events(nav.session).map(\.seq) == [1, 2, 3])
        #expect(try log.events(nav.session).map(\.event) == [1, 2, 3].map { .push(try RouteRef(PodRoute.episode(id: $0))) })
        #expect(nav.recordingError == nil)
        #expect(nav.recordingStatus.writtenSeq == 3)
    }

    @Test func anotherWriterOnTheSessionStopsRecordingForGood() async throws {
        let log = FlakyLog()
        let capture = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: log, logger: capture.logger, clock: fixedClock, retryDelay: 0.01)
        try log.append(RecordedEvent(.push(RouteRef(id: "intruder"))), to: nav.session, expectedSeq: 0)
        nav.push(.episode(id: 1))
        await nav.flush()
        let error = try #require(nav.recordingError)
        #expect(error.diverged)
        #expect(nav.path == [.episode(id: 1)])                    // in memory, navigation goes on
        #expect(capture.count(.error) == 1)
    }

    @Test func rejectedCallsAreLoggedAtDebugLevel() async throws {
        let capture = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: InMemoryEventLog(clock: fixedClock), logger: capture.logger, clock: fixedClock)
        nav.pop()
        #expect(capture.messages.contains { $0.0 == .debug && $0.1.contains("pop #1 rejected:stackTooShort") })
    }

    @Test func theMainActorNeverWaitsForTheLog() async throws {
        let log = GatedLog()
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        // The log's appends block (a slow sync). The calls still return at once with their outcomes.
        #expect(nav.push(.episode(id: 1)).isApplied)
        #expect(nav.push(.episode(id: 2)).isApplied)
        #expect(nav.show(.player(episode: 2)).isApplied)
        var waited = 0
        while !log.started && waited < 60_000 {
            try await Task.sleep(nanoseconds: 10_000_000)
            waited += 1
        }
        #expect(log.started)
        #expect(nav.path == [.episode(id: 1), .episode(id: 2)] && nav.top?.route == .player(episode: 2))
        #expect(nav.recordingStatus.writtenSeq == 0)
        log.open()
        await nav.flush()
        #expect(!log.timedOut)
        #expect(try log.events(nav.session).count == 3)
    }
}
