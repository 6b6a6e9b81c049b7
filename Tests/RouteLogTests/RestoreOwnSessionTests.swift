import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// `restoringLatest` restores the newest session this scene wrote: never an imported one, never
/// another label's (an extension's), and continues it with a run of this launch's version.
@MainActor
@Suite(.tags(.appleLocks)) struct RestoreOwnSessionTests {
    @Test func restorePicksTheAppsOwnSession() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-own-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(durability: .none, retention: .none))
        let scene = NewSession(label: "main", appName: "Mail", appVersion: "1.0", build: "100")
        // The previous launch: the app's scene, then the share extension writing its own session
        // after it on the same store; both are gone when the next launch restores.
        var (ownID, extID) = (SessionID(""), SessionID(""))
        do {
            let own = try Navigator<PodRoute>(log: store, session: scene, clock: fixedClock)
            own.push(.settings)
            await own.flush()
            let ext = try Navigator<PodRoute>(log: store, session: NewSession(label: "share", appName: "Mail", appVersion: "1.0"), clock: fixedClock)
            ext.push(.settings)
            await ext.flush()
            (ownID, extID) = (own.session, ext.session)
        }
        // A tester's export is imported last, with the app's label and name.
        let fixture = Fixture(name: "tester", session: .init(label: "main", app: "Mail", appVersion: "0.9", created: 1),
                              events: [RecordedEvent(.push(RouteRef(id: "imported")))])
        let imported = try store.importFixture(fixture)
        #expect(try store.session(imported.id).imported)
        #expect(try !store.session(ownID).imported)

        let next = NewSession(label: "main", appName: "Mail", appVersion: "1.1", build: "110")
        let restored = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: next, clock: fixedClock)
        #expect(restored.session == ownID)
        #expect(restored.headSeq == 1)
        restored.push(.settings)
        await restored.flush()
        let runs = try store.runs(of: ownID)
        #expect(runs.map(\.appVersion) == ["1.0", "1.1"])
        #expect(runs.map(\.build) == ["100", "110"])
        #expect(runs.map(\.firstSeq) == [1, 2])
        #expect(runs.map(\.end) == [.clean, .open])

        // A filter picks by anything the app knows; imported sessions never qualify.
        let byApp = try Navigator<PodRoute>.restoringLatest(log: store, where: { $0.appName == "Mail" }, orStarting: next, clock: fixedClock)
        #expect(byApp.session == extID)
        let none = try Navigator<PodRoute>.restoringLatest(log: store, where: { $0.label == "nothing" }, orStarting: next, clock: fixedClock)
        #expect(none.session != ownID && none.session != extID && none.session != imported.id)
        #expect(none.headSeq == 0)
    }

    /// Two windows of one app, restored one after the other while the first is live: each gets
    /// a session of its own, and neither run is cut short.
    @Test func aSecondWindowNeverTakesALiveWindowsSession() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-windows-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(durability: .none, retention: .none))
        let scene = NewSession(label: "main", appName: "Mail", appVersion: "1.0")
        let first = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: scene, clock: fixedClock)
        first.push(.settings)
        await first.flush()
        let second = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: scene, clock: fixedClock)
        #expect(second.session != first.session)
        second.push(.episode(id: 1))
        first.push(.episode(id: 2))
        await first.flush()
        await second.flush()
        #expect(first.recordingError == nil && second.recordingError == nil)
        #expect(try store.runs(of: first.session).map(\.end) == [.open])
        #expect(try store.runs(of: second.session).map(\.end) == [.open])
        #expect(try store.events(first.session).count == 2)
        // Suspended (the whole app in the background), both sessions stay their windows' own
        // within the process (issue 38 B): a window opened meanwhile gets a session of its own.
        await first.suspend()
        await second.suspend()
        let third = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: scene, clock: fixedClock)
        #expect(third.session != second.session && third.session != first.session)
    }

    /// Once a window closes (its navigator released), a new window may continue its session.
    @Test func aClosedWindowsSessionIsRestoredByTheNextWindow() async throws {
        let dir = try TempDir()
        let store = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, retention: .none))
        let scene = NewSession(label: "main", appName: "Mail", appVersion: "1.0")
        let closed: SessionID
        do {
            let first = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: scene, clock: fixedClock)
            first.push(.settings)
            await first.suspend()
            closed = first.session
        }
        let next = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: scene, clock: fixedClock)
        #expect(next.session == closed && next.headSeq == 1)
    }
}
