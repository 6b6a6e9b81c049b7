import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// `suspend()` and `resume()`: a navigator in the background holds no lock and no file of its
/// store, and the same run of the same session goes on afterwards.
///
/// Each test runs on both ways a navigator reaches its store: the main path (the store opened,
/// then the navigator) and the guarded launch path with a store that cannot be opened at launch
/// and opens at the navigator's first write (`restoringLatest(store:…open:)`: an early journal,
/// then the store's).
@MainActor
@Suite(.serialized, .tags(.appleLocks)) struct SuspensionTests {
    enum OpenPath: String, CaseIterable, Sendable {
        case main, guardedLateOpen
    }

    /// Fails the first open (the navigator's, at launch) with EPERM, as Data Protection does
    /// before the first unlock; the next one (the recorder's first write) opens the store.
    final class LateStore: @unchecked Sendable {
        private let lock = NSLock()
        private var failures = 1
        func open(_ path: String) throws -> LMDBEventLog {
            try lock.withLock {
                if failures > 0 {
                    failures -= 1
                    throw LMDBEventLogError.permissionDenied(path: path, reason: "the store cannot be read (Operation not permitted)")
                }
            }
            return try LMDBEventLog.open(at: path, options: .init(retention: .none))
        }
    }

    /// A navigator of a new session labelled "main" on a new store in `dir`, by `path`, and a log
    /// of that store for the test to read.
    func navigator(_ path: OpenPath, in dir: TempDir) throws -> (LMDBEventLog, Navigator<PodRoute>) {
        switch path {
        case .main:
            let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
            return (log, try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock))
        case .guardedLateOpen:
            let store = LateStore()
            let nav = Navigator<PodRoute>.restoringLatest(store: dir.path, orStarting: NewSession(label: "main"), clock: fixedClock,
                                                          retryDelay: 0.02, open: store.open)
            #expect(nav.recordingError != nil, "the store did not open at launch")
            return (try LMDBEventLog.open(at: dir.path, options: .init(retention: .none)), nav)
        }
    }

    /// The files of early journals left in the store's `journal/new/`.
    func earlyJournalFiles(_ dir: TempDir) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path + "/journal/new")) ?? []
    }

    @Test(arguments: OpenPath.allCases)
    func aSuspendedNavigatorHoldsNoLockAndNoFileAndGoesOnAfterResume(_ path: OpenPath) async throws {
        let dir = try TempDir()
        let (log, nav) = try navigator(path, in: dir)
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
        // A reader sees the run as its journal says, suspended (what a read-write open would record).
        #expect(try reader.runs(of: nav.session).map(\.end) == [.suspended])

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
        #expect(try log.runs(of: nav.session).map(\.firstSeq) == [1])
        // The session is the navigator's own (on the guarded path: created with its id), the
        // only one, and no early journal is left once everything is committed.
        #expect(try log.sessions().map(\.id) == [nav.session])
        #expect(earlyJournalFiles(dir) == [])
    }

    /// A navigator on a new store in `dir`, suspended after one call.
    func suspendedAfterOneCall(_ path: OpenPath, in dir: TempDir) async throws -> (LMDBEventLog, Navigator<PodRoute>) {
        let (log, nav) = try navigator(path, in: dir)
        nav.push(.settings)
        await nav.suspend()
        let held = HeldFiles.of(under: dir.path)
        #expect(held.locks == [] && held.descriptors == [] && held.mappings == [], "held while suspended: \(held)")
        return (log, nav)
    }

    @Test(arguments: OpenPath.allCases)
    func aCallWhileSuspendedResumesFirst(_ path: OpenPath) async throws {
        let dir = try TempDir()
        let (log, nav) = try await suspendedAfterOneCall(path, in: dir)
        nav.push(.episode(id: 1))
        #expect(!nav.isSuspended)
        await nav.flush()
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
    }

    /// A recovery by another process while this one is suspended (say `routelog prune`) takes
    /// the suspended journal and ends the run `suspended`: resume opens the run again.
    @Test(arguments: OpenPath.allCases)
    func aRunEndedByARecoveryWhileSuspendedIsOpenAgainAfterResume(_ path: OpenPath) async throws {
        let dir = try TempDir()
        let (log, nav) = try await suspendedAfterOneCall(path, in: dir)
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

    /// A navigator released right after its flush ends its run before the release returns: the
    /// run is clean and the session is free for another writer at once (a store move, a delete),
    /// never a moment later on the recorder's thread.
    @Test func aNavigatorReleasedAfterItsFlushHasEndedItsRun() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, retention: .none))
        for k in 0..<100 {
            var nav: Navigator<PodRoute>? = try Navigator<PodRoute>(log: log, session: NewSession(label: "window \(k)"), clock: fixedClock)
            let session = nav!.session
            nav!.push(.episode(id: k))
            await nav!.flush()
            nav = nil
            #expect(!log.isBeingWritten(session), "run \(k): the session is still being written after its navigator went")
            #expect(try log.runs(of: session).map(\.end) == [.clean], "run \(k)")
        }
    }

    /// Issue 38 B: a window opened while another window of the same process is suspended gets a
    /// session of its own (the suspended one holds no lock, but its session is still its own), and
    /// the first window records on after it resumes.
    @Test(arguments: OpenPath.allCases)
    func aSecondWindowNeverRestoresASuspendedWindowsSessionInTheSameProcess(_ path: OpenPath) async throws {
        let dir = try TempDir()
        let (log, first) = try navigator(path, in: dir)
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

    /// A scene discarded in the background releases its suspended navigator: the run ends clean
    /// in the store, and the store is released again, so the app still holds nothing of it while
    /// it keeps its log.
    @Test(arguments: OpenPath.allCases)
    func aSuspendedNavigatorReleasedInTheBackgroundLeavesNothingHeld(_ path: OpenPath) async throws {
        let dir = try TempDir()
        let (log, session): (LMDBEventLog, SessionID)
        do {
            let (l, nav) = try await suspendedAfterOneCall(path, in: dir)
            (log, session) = (l, nav.session)
        }
        let held = HeldFiles.of(under: dir.path)
        #expect(held.locks == [] && held.descriptors == [] && held.mappings == [], "held after the release: \(held)")
        #expect(try log.runs(of: session).map(\.end) == [.clean])
    }
}
