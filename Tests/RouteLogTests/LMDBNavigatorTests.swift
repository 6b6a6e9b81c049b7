import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing

@MainActor
@Suite struct LMDBNavigatorTests {
    func temporaryStore() throws -> (LMDBEventLog, String) {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("routelog-nav-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))").path
        return (try LMDBEventLog.open(at: dir, options: .init(durability: .none, snapshotInterval: 4, clock: fixedClock)), dir)
    }

    @Test func aNavigatorOnLMDBAgreesWithTheStoreAndReopens() async throws {
        let (store, dir) = try temporaryStore()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let nav = try Navigator<PodRoute>(log: store, clock: fixedClock)
        let results = NavigatorTests.script(nav)
        await nav.flush()
        #expect(nav.recordingError == nil)
        let stored = try store.events(nav.session)
        #expect(stored.map(\.seq) == Array(1...UInt64(results.count)))
        #expect(stored.map(\.outcome) == results.compactMap(\.outcome))
        #expect(replay(stored.map(\.event)).state == nav.state)
        #expect(stored.last?.digest == nav.state.digest)
        #expect(stored[0].meta.callSite?.file == "RouteLogTests/NavigatorTests.swift")

        let reopened = try Navigator<PodRoute>(log: store, restoring: nav.session, clock: fixedClock)
        #expect(reopened.state == nav.state && reopened.headSeq == nav.headSeq)
        #expect(try reopened.snapshot() == nav.snapshot())
        // Time travel before the reopened navigator's first event reads the store's snapshots.
        for seq in [UInt64(3), 4, 9, 12] {
            try reopened.travel(to: seq)
            #expect(reopened.state == replay(stored.prefix(Int(seq)).map(\.event)).state, "seq \(seq)")
        }
        reopened.returnToPresent()
        #expect(reopened.push(.settings).seq == UInt64(results.count) + 1)
        await reopened.flush()
        #expect(try store.session(nav.session).eventCount == UInt64(results.count) + 1)
    }
}
