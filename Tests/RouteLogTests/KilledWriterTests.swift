import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A writer killed inside a write transaction while another process has the store open.
///
/// With Linux's liblmdb (robust mutexes) the next writer recovers at once. With LMDB's POSIX
/// semaphores (its lock on Apple platforms; `make test-apple-locks` runs this suite against
/// Debian's LMDB built that way) the writer lock stays taken until every process has closed the
/// store: the recorder must report that within a bounded time, the navigator must keep answering,
/// and recording must resume by itself once the store clears, losing nothing.
@MainActor
@Suite(.serialized, .tags(.appleLocks)) struct KilledWriterTests {
    /// The lock mode this run must be in: `ROUTELOG_EXPECT_LMDB_LOCKS` when the Makefile sets it
    /// (the Apple lock mode run), else the platform's own.
    static var expectedMode: LMDBEnvironment.LockMode {
        if let raw = ProcessInfo.processInfo.environment["ROUTELOG_EXPECT_LMDB_LOCKS"], let mode = LMDBEnvironment.LockMode(rawValue: raw) {
            return mode
        }
        #if os(Linux)
        return .robustMutexes
        #else
        return .posixSemaphores
        #endif
    }

    /// Polls `condition` every 10 ms until it holds or `limit` passes; returns the time it took.
    func waitUntil(_ limit: Duration, _ condition: () -> Bool) async -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if condition() { return clock.now - start }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition() ? clock.now - start : nil
    }

    @Test(.timeLimit(.minutes(8))) func aWriterKilledInsideATransactionNeverStopsRecordingForGood() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, retention: .none))
        #expect(log.environment.lockMode == Self.expectedMode, "the tests run with LMDB's \(log.environment.lockMode.rawValue) locks")
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "killed writer"), clock: fixedClock, retryDelay: 0.05)
        for i in 1...5 { nav.push(.episode(id: i)) }
        await nav.flush()
        #expect(nav.recordingStatus.writtenSeq == 5)

        // A read transaction of this process stays open meanwhile (a long scan): the dead writer
        // must be reported all the same, never waited for behind it.
        let reading = ReadHolder()
        let reader = Thread {
            _ = try? log.environment.withReadTransaction { _ in
                reading.started()
                reading.waitForEnd()
            }
        }
        reader.start()
        reading.waitForStart()
        // Another process keeps the store open; a third dies inside a write transaction.
        let holder = try Child(["hold-open", dir.path])
        #expect(holder.nextLine() == "open \(Self.expectedMode.rawValue)")
        let dying = try Child(["die-in-write", dir.path])
        #expect(dying.nextLine() == "in-txn")
        dying.kill()
        _ = dying.finish()

        // The navigator answers at once whatever the store does.
        for i in 6...25 { nav.push(.episode(id: i)) }
        #expect(nav.headSeq == 25)
        let busyLine = LMDBEventLogError.storeBusy(path: log.environment.path, writerDied: true).description
        if Self.expectedMode == .posixSemaphores {
            let reported = await waitUntil(.seconds(300)) { nav.recordingStatus.error != nil }
            let waited = try #require(reported, "the recorder never reported the dead writer")
            let error = try #require(nav.recordingStatus.error)
            #expect(error.message == busyLine)
            #expect(!error.diverged)
            #expect(nav.recordingStatus.writtenSeq == 5)
            print("killed writer (\(Self.expectedMode.rawValue)): 'store busy' reported \(waited) after the calls; \(nav.recordingStatus.pendingCount) events pending")

            // The scan ends, and the last other process closes the store: it clears and recording
            // resumes alone.
            reading.end()
            holder.closeInput()
            #expect(holder.finish() == 0)
            let resumed = try #require(await waitUntil(.seconds(300)) { nav.recordingStatus.writtenSeq == 25 },
                                       "recording did not resume once every other process closed the store")
            #expect(nav.recordingStatus.error == nil)
            print("killed writer (\(Self.expectedMode.rawValue)): recording resumed \(resumed) after the holder closed the store")
        } else {
            reading.end()
            let caughtUp = await waitUntil(.seconds(300)) { nav.recordingStatus.writtenSeq == 25 }
            #expect(caughtUp != nil, "robust locks: the next writer recovers at once")
            #expect(nav.recordingStatus.error == nil)
            holder.closeInput()
            #expect(holder.finish() == 0)
        }

        // Nothing acknowledged is lost: the store holds every call, in order, as the navigator folded them.
        await nav.flush()
        let stored = try log.events(nav.session)
        #expect(stored.map(\.seq) == Array(1...25))
        #expect(stored.last?.digest == nav.state.digest)
    }

    @Test func aStoreReleasedByItsLastUserIsOpenedAgainByTheNextCall() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "released"), clock: fixedClock, retryDelay: 0.05)
        nav.push(.settings)
        await nav.flush()
        log.environment.release()
        #expect(!log.environment.isOpen)
        nav.push(.episode(id: 1))
        await nav.flush()
        #expect(log.environment.isOpen)
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
        #expect(nav.recordingError == nil)
    }
}

/// A read transaction held open on a thread of its own until told to end.
final class ReadHolder: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    private var isEnded = false

    func started() { condition.withLock { isOpen = true; condition.broadcast() } }
    func waitForStart() { condition.withLock { while !isOpen { condition.wait() } } }
    func end() { condition.withLock { isEnded = true; condition.broadcast() } }
    func waitForEnd() { condition.withLock { while !isEnded { condition.wait() } } }
}
