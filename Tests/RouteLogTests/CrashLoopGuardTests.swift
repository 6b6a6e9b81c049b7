import Foundation
import Logging
import RouteLogTestSupport
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

/// The crash-loop guard: a store whose open or restore crashed several launches in a row is moved aside.
@MainActor
@Suite struct CrashLoopGuardTests {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-guard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    nonisolated static func openStore(_ path: String) throws -> any EventLog { try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: fixedClock)) }
    func open(_ path: String) throws -> any EventLog { try Self.openStore(path) }

    /// The pid of a process that has exited.
    func deadPID() throws -> Int32 {
        let p = try Child(path: "/bin/true", [], stdin: .empty, output: .separate)
        _ = try p.wait()
        return p.process.processIdentifier
    }

    func firstLaunch(_ store: String) async throws -> SessionID {
        let first = Navigator<PodRoute>.restoringLatest(store: store, clock: fixedClock, open: Self.openStore)
        first.push(.episode(id: 1))
        await first.flush()
        #expect(first.recordingError == nil)
        return first.session
    }

    @Test func aSingleDeathAtLaunchMovesNothing() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        let session = try await firstLaunch(store)
        // The next launch was killed inside the open (a swipe during a slow launch, the watchdog).
        try FileManager.default.createDirectory(atPath: store + ".opening", withIntermediateDirectories: true)
        try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(try deadPID())-1"))
        let log = CapturingLogHandler()
        let second = Navigator<PodRoute>.restoringLatest(store: store, logger: Logger(label: "test") { _ in log }, clock: fixedClock, open: Self.openStore)
        #expect(second.session == session && second.headSeq == 1)
        #expect(second.recordingError == nil)
        #expect(!FileManager.default.fileExists(atPath: store + ".damaged-1"))
        #expect(log.messages.contains { $0.0 == .warning && $0.1.contains("died while opening the store (1 in a row") }, "\(log.messages)")
        // The launch got through: the count starts again.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + ".opening") == ["lock"])
    }

    @Test func aLoopOfDeathsMovesTheStoreAsideOnceAndKeepsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        // A first launch records a session (and closes the store when it ends).
        let session = try await firstLaunch(store)
        // Launches that die inside the open, one after the other: each finds the marker of the one
        // before it, and leaves its own.
        struct Died: Error {}
        try FileManager.default.createDirectory(atPath: store + ".opening", withIntermediateDirectories: true)
        for death in 1..<CrashLoopGuard.deathsBeforeMovingAside {
            try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(try deadPID())-\(death)"))
            #expect(throws: Died.self) { try CrashLoopGuard.run(store: store) { () throws -> Int in throw Died() } }
            #expect(!FileManager.default.fileExists(atPath: store + ".damaged-1"), "moved after \(death) deaths")
        }
        try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(try deadPID())-9"))

        let log = CapturingLogHandler()
        let logger = Logger(label: "test") { _ in log }
        let secondSession: SessionID
        do {
            let second = Navigator<PodRoute>.restoringLatest(store: store, logger: logger, clock: fixedClock, open: Self.openStore)
            // A fresh store: a new, empty session; the old store is kept aside, intact.
            #expect(second.session != session && second.headSeq == 0)
            let error = try #require(second.recordingError)
            #expect(error.message.contains("the last 3 launches crashed while opening the store") && error.message.contains("store.damaged-1"), "\(error)")
            #expect(log.messages.contains { $0.0 == .error && $0.1.contains("moved to \(store).damaged-1") }, "\(log.messages)")
            let moved = try LMDBEventLog.open(at: store + ".damaged-1", options: .init(readOnly: true))
            #expect(try moved.sessions().map(\.id) == [session])
            #expect(try moved.events(session).count == 1)
            // Recording works and the report stays visible.
            second.push(.episode(id: 2))
            await second.flush()
            #expect(second.recordingError?.message.contains("crashed while opening") == true)
            #expect(try second.log.events(second.session).count == 1)
            // The count is back to zero: the launch after that (once this one is gone: its
            // navigator released) opens the new store as it is, and the moved store stays where it is.
            await second.suspend()
            secondSession = second.session
        }
        let third = Navigator<PodRoute>.restoringLatest(store: store, clock: fixedClock, open: Self.openStore)
        #expect(third.recordingError == nil && third.session == secondSession && third.headSeq == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + ".opening") == ["lock"])
        #expect(!FileManager.default.fileExists(atPath: store + ".damaged-2"))
    }

    @Test func aMarkerOfALiveProcessIsAnOpenInProgress() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        _ = try CrashLoopGuard.run(store: store) { try open(store) }
        // Another process (alive) is opening the same store right now.
        let sleeper = try Child(path: "/bin/sleep", ["60"], stdin: .empty, output: .separate)
        let other = sleeper.process
        // Killed, not waited for: on the main actor `waitUntilExit` would wait for its full minute.
        defer { sleeper.kill() }
        try FileManager.default.createFile(atPath: store + ".opening/\(other.processIdentifier)-1", contents: nil).expectTrue()
        let (_, recovery) = try CrashLoopGuard.run(store: store) { try open(store) }
        #expect(recovery == nil)
        #expect(!FileManager.default.fileExists(atPath: store + ".damaged-1"))
        // A marker naming a live pid but another start time is a reused pid: a death.
        try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(other.processIdentifier)-1"))
        let log = CapturingLogHandler()
        let (_, reused) = try CrashLoopGuard.run(store: store, logger: Logger(label: "test") { _ in log }) { try open(store) }
        #expect(reused == nil)
        #expect(log.messages.contains { $0.0 == .warning && $0.1.contains("(1 in a row") }, "\(log.messages)")
    }

    @Test func anOpenThatThrowsLeavesNoMarker() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        struct Refused: Error {}
        #expect(throws: Refused.self) { try CrashLoopGuard.run(store: store) { () throws -> Int in throw Refused() } }
        let (_, recovery) = try CrashLoopGuard.run(store: store) { try open(store) }
        #expect(recovery == nil)
    }
}

private extension Bool {
    func expectTrue(sourceLocation: SourceLocation = #_sourceLocation) throws { try #require(self, sourceLocation: sourceLocation) }
}
