import Foundation
import RouteLog
import RouteLogCore
import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// `suspend()` and `resume()`: a navigator in the background holds no lock and no file of its
/// store, and the same run of the same session goes on afterwards.
@MainActor
@Suite(.serialized) struct SuspensionTests {
    @Test func aSuspendedNavigatorHoldsNoLockAndNoFileAndGoesOnAfterResume() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock)
        for i in 0..<200 { nav.push(.episode(id: i)) }
        #expect(!HeldFiles.of(under: dir.path).locks.isEmpty, "an active navigator holds its locks")

        await nav.suspend()
        #expect(nav.isSuspended)
        let held = HeldFiles.of(under: dir.path)
        #expect(held.locks == [], "locks while suspended")
        #expect(held.descriptors == [], "open files while suspended")
        #expect(held.mappings == [], "mapped files while suspended")
        #expect(!log.environment.isOpen)
        // Nothing was left only in the journal, and reading the navigator needs no file.
        #expect(nav.recordingStatus.pendingCount == 0)
        #expect(nav.headSeq == 200 && nav.path.count == 200)
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(try reader.session(nav.session).eventCount == 200)
        #expect(try reader.runs(of: nav.session).map(\.end) == [.open])

        try nav.resume()
        #expect(!nav.isSuspended)
        nav.push(.settings)
        await nav.flush()
        #expect(nav.recordingError == nil)
        let stored = try log.events(nav.session)
        #expect(stored.map(\.seq) == Array(1...201))
        #expect(stored.last?.digest == nav.state.digest)
        // The same run goes on.
        #expect(try log.runs(of: nav.session).map(\.number) == [1])
        #expect(try log.runs(of: nav.session).map(\.end) == [.open])
    }

    /// A navigator on a new store in `dir`, suspended after one call.
    func suspendedAfterOneCall(in dir: TempDir) async throws -> (LMDBEventLog, Navigator<PodRoute>) {
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock)
        nav.push(.settings)
        await nav.suspend()
        return (log, nav)
    }

    @Test func aCallWhileSuspendedResumesFirst() async throws {
        let dir = try TempDir()
        let (log, nav) = try await suspendedAfterOneCall(in: dir)
        nav.push(.episode(id: 1))
        #expect(!nav.isSuspended)
        await nav.flush()
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
    }

    /// A recovery by another process while this one is suspended (say `routelog prune`) takes
    /// the suspended journal and ends the run `suspended`: resume opens the run again.
    @Test func aRunEndedByARecoveryWhileSuspendedIsOpenAgainAfterResume() async throws {
        let dir = try TempDir()
        let (log, nav) = try await suspendedAfterOneCall(in: dir)
        let other = try Child(["open", dir.path, "rw"])
        #expect(other.finish() == 0)
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(try reader.runs(of: nav.session).map(\.end) == [.suspended])
        try nav.resume()
        nav.push(.episode(id: 2))
        await nav.flush()
        #expect(try log.runs(of: nav.session).map(\.end) == [.open])
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
        #expect(nav.recordingError == nil)
    }

    /// Issue 38 B: a window opened while another window of the same process is suspended gets a
    /// session of its own (the suspended one holds no lock, but its session is still its own), and
    /// the first window records on after it resumes.
    @Test func aSecondWindowNeverRestoresASuspendedWindowsSessionInTheSameProcess() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let first = try Navigator<PodRoute>.restoringLatest(log: log, orStarting: NewSession(label: "main"), clock: fixedClock)
        first.push(.settings)
        await first.suspend()
        #expect(HeldFiles.of(under: dir.path).locks == [], "a suspended navigator still holds no lock")
        #expect(log.isBeingWritten(first.session))

        let second = try Navigator<PodRoute>.restoringLatest(log: log, orStarting: NewSession(label: "main"), clock: fixedClock)
        #expect(second.session != first.session)
        second.push(.episode(id: 7))

        try first.resume()
        first.push(.episode(id: 1))
        await first.flush()
        await second.flush()
        #expect(first.recordingError == nil, "\(String(describing: first.recordingError))")
        #expect(second.recordingError == nil)
        #expect(try log.events(first.session).map(\.seq) == [1, 2])
        #expect(try log.events(second.session).map(\.seq) == [1])
    }
}
