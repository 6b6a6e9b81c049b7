import Foundation
import RouteLog
import RouteLogCore
import RouteLogLMDB
import Testing

/// `restoringLatest` restores the newest session this scene wrote: never an imported one, never
/// another label's (an extension's), and continues it with a run of this launch's version.
@MainActor
@Suite struct RestoreOwnSessionTests {
    @Test func restorePicksTheAppsOwnSession() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-own-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try LMDBEventLog.open(at: dir, options: .init(durability: .none, retention: .none))
        let scene = NewSession(label: "main", appName: "Mail", appVersion: "1.0", build: "100")
        let own = try Navigator<PodRoute>(log: store, session: scene, clock: fixedClock)
        own.push(.settings)
        await own.flush()
        // The share extension writes its own session after it, on the same store.
        let ext = try Navigator<PodRoute>(log: store, session: NewSession(label: "share", appName: "Mail", appVersion: "1.0"), clock: fixedClock)
        ext.push(.settings)
        await ext.flush()
        // A tester's export is imported last, with the app's label and name.
        let fixture = Fixture(name: "tester", session: .init(label: "main", app: "Mail", appVersion: "0.9", created: 1),
                              events: [RecordedEvent(.push(RouteRef(id: "imported")))])
        let imported = try store.importFixture(fixture)
        #expect(try store.session(imported.id).imported)
        #expect(try !store.session(own.session).imported)

        let next = NewSession(label: "main", appName: "Mail", appVersion: "1.1", build: "110")
        let restored = try Navigator<PodRoute>.restoringLatest(log: store, orStarting: next, clock: fixedClock)
        #expect(restored.session == own.session)
        #expect(restored.headSeq == 1)
        restored.push(.settings)
        await restored.flush()
        let runs = try store.runs(of: own.session)
        #expect(runs.map(\.appVersion) == ["1.0", "1.1"])
        #expect(runs.map(\.build) == ["100", "110"])
        #expect(runs.map(\.firstSeq) == [1, 2])
        #expect(runs.map(\.end) == [.clean, .open])

        // A filter picks by anything the app knows; imported sessions never qualify.
        let byApp = try Navigator<PodRoute>.restoringLatest(log: store, where: { $0.appName == "Mail" }, orStarting: next, clock: fixedClock)
        #expect(byApp.session == ext.session)
        let none = try Navigator<PodRoute>.restoringLatest(log: store, where: { $0.label == "nothing" }, orStarting: next, clock: fixedClock)
        #expect(none.session != own.session && none.session != ext.session && none.session != imported.id)
        #expect(none.headSeq == 0)
    }
}
