import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A store that cannot be opened at launch (before the first unlock after a reboot: EPERM; a
/// full disk; a damaged file) never fails the launch and is never replaced by memory in silence:
/// the navigator works in memory, `recordingError` says why in one line, and it records into the
/// store once it can.
@MainActor
@Suite(.serialized, .tags(.appleLocks)) struct OpenFailureTests {
    /// Fails the first `failures` opens with EPERM, as Data Protection does before the first
    /// unlock, then opens the store.
    final class Injected: @unchecked Sendable {
        private let lock = NSLock()
        private var left: Int
        private(set) var attempts = 0
        init(failures: Int) { left = failures }
        func open(_ path: String) throws -> any EventLog {
            try lock.withLock {
                attempts += 1
                if left > 0 {
                    left -= 1
                    throw LMDBEventLogError.permissionDenied(path: path, reason: "the store cannot be read (Operation not permitted)")
                }
            }
            return try LMDBEventLog.open(at: path, options: .init(durability: .none, retention: .none))
        }
    }

    @Test(.timeLimit(.minutes(6))) func aStoreLockedAtLaunchIsRecordedIntoOnceItOpens() async throws {
        let dir = try TempDir()
        let store = dir.path
        let injected = Injected(failures: 4)
        let nav = Navigator<PodRoute>.restoringLatest(store: store, orStarting: NewSession(label: "main"), clock: fixedClock,
                                                          retryDelay: 0.05, open: injected.open)
        let error = try #require(nav.recordingError)
        #expect(error.message.hasPrefix("the store \(store) cannot be opened yet (permission denied for store \(store)"), "\(error)")
        #expect(!error.message.contains("\n"))
        // Calls work in memory meanwhile.
        for i in 0..<30 { nav.push(.episode(id: i)) }
        #expect(nav.headSeq == 30 && nav.path.count == 30)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(300)
        while (nav.recordingStatus.writtenSeq < 30 || nav.recordingError != nil) && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(nav.recordingError == nil, "\(String(describing: nav.recordingError))")
        #expect(injected.attempts >= 5)
        // Everything called since launch is in the store, in one session.
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let sessions = try log.sessions()
        #expect(sessions.count == 1 && sessions[0].label == "main")
        let stored = try log.events(sessions[0].id)
        #expect(stored.map(\.seq) == Array(1...30))
        #expect(stored.last?.digest == nav.state.digest)
    }

    @Test(.timeLimit(.minutes(6))) func aDamagedStoreNeverFailsTheLaunch() async throws {
        let dir = try TempDir()
        let store = dir.path
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 64 << 10).write(to: URL(fileURLWithPath: store + "/data.mdb"))
        let nav = Navigator<PodRoute>.restoringLatest(store: store, orStarting: NewSession(label: "main"), clock: fixedClock,
                                                          retryDelay: 0.05) { try LMDBEventLog.open(at: $0) }
        let error = try #require(nav.recordingError)
        #expect(error.message.contains("cannot be opened yet") && error.message.contains("is not a RouteLog store"), "\(error)")
        #expect(nav.push(.settings).outcome?.isApplied == true)
        await nav.flush()
        // Still not recorded, and still said; the damaged file is untouched.
        #expect(nav.recordingStatus.writtenSeq == 0)
        #expect(nav.recordingError != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store + "/data.mdb")).allSatisfy { $0 == 0xAB })
    }
}
