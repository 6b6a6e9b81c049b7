import Foundation
import Logging
import RouteLog
import RouteLogCore
import RouteLogLMDB
import Testing

/// The crash-loop guard: a store whose open or restore crashed the previous launch is moved aside.
@MainActor
@Suite struct CrashLoopGuardTests {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-guard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func open(_ path: String) throws -> any EventLog { try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: fixedClock)) }

    /// The pid of a process that has exited.
    func deadPID() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    func firstLaunch(_ store: String) async throws -> SessionID {
        let first = try Navigator<PodRoute>.restoringLatest(store: store, clock: fixedClock, open: open)
        first.push(.episode(id: 1))
        await first.flush()
        #expect(first.recordingError == nil)
        return first.session
    }

    @Test func aMarkerLeftByADeadProcessMovesTheStoreAside() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        // A first launch records a session (and closes the store when it ends).
        let session = try await firstLaunch(store)
        // The next launch died inside the open: its marker is still there, its process is gone.
        try FileManager.default.createDirectory(atPath: store + ".opening", withIntermediateDirectories: true)
        try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(try deadPID())-1"))

        let log = CapturingLogHandler()
        let logger = Logger(label: "test") { _ in log }
        let second = try Navigator<PodRoute>.restoringLatest(store: store, logger: logger, clock: fixedClock, open: open)
        // A fresh store: a new, empty session; the old store is kept aside, intact.
        #expect(second.session != session && second.headSeq == 0)
        let error = try #require(second.recordingError)
        #expect(error.message.contains("crashed while opening the store") && error.message.contains("store.damaged-1"), "\(error)")
        #expect(log.messages.contains { $0.0 == .error && $0.1.contains("moved to \(store).damaged-1") }, "\(log.messages)")
        let moved = try LMDBEventLog.open(at: store + ".damaged-1", options: .init(readOnly: true))
        #expect(try moved.sessions().map(\.id) == [session])
        // Recording works and the report stays visible.
        second.push(.episode(id: 2))
        await second.flush()
        #expect(second.recordingError?.message.contains("crashed while opening") == true)
        #expect(try second.log.events(second.session).count == 1)
        // The marker is gone: the launch after that opens the new store as it is.
        let third = try Navigator<PodRoute>.restoringLatest(store: store, clock: fixedClock, open: open)
        #expect(third.recordingError == nil && third.session == second.session && third.headSeq == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store + ".opening") == ["lock"])
    }

    @Test func aMarkerOfALiveProcessIsAnOpenInProgress() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/store"
        _ = try CrashLoopGuard.run(store: store) { try open(store) }
        // Another process (alive) is opening the same store right now.
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/bin/sleep")
        other.arguments = ["60"]
        try other.run()
        // Killed, not waited for: on the main actor `waitUntilExit` would wait for its full minute.
        defer { kill(other.processIdentifier, SIGKILL) }
        try FileManager.default.createFile(atPath: store + ".opening/\(other.processIdentifier)-1", contents: nil).expectTrue()
        let (_, recovery) = try CrashLoopGuard.run(store: store) { try open(store) }
        #expect(recovery == nil)
        #expect(!FileManager.default.fileExists(atPath: store + ".damaged-1"))
        // A marker naming a live pid but another start time is a reused pid: a crash.
        try Data("1".utf8).write(to: URL(fileURLWithPath: store + ".opening/\(other.processIdentifier)-1"))
        let (_, reused) = try CrashLoopGuard.run(store: store) { try open(store) }
        #expect(reused?.movedTo == store + ".damaged-1")
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
