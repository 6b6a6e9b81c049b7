import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// `Fixtures/restore-after-update.json`: a session recorded with version 1, restored with
/// version 2 (whose migration removes the upsell and reads nothing else from version 1), then
/// continued. The CLI tests render it; this test keeps it in step with what the navigator writes
/// (re-recorded with `ROUTELOG_RECORD=1`, or when it is missing).
@MainActor
@Suite struct RestoreFixtureTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/restore-after-update.json").path

    @Test func theCheckedInRestoreSessionIsWhatTheNavigatorWrites() async throws {
        let log = InMemoryEventLog(clock: fixedClock)
        let old = try Navigator<RouteV1>(log: log, session: NewSession(label: "restore after update", appVersion: "1.0"), clock: fixedClock)
        old.setTabs(["home", "library"])
        old.push(.episode(id: 1))
        old.show(.player(episode: 1))
        old.push(.chapter(number: 3))
        old.selectTab("library")
        old.push(.settings)
        old.push(.upsell(feature: "sync"))
        old.selectTab("home")
        await old.flush()
        let nav = try Navigator<RouteV2>(log: log, restoring: old.session, migrate: RouteV2.removingUpsell, clock: fixedClock)
        nav.push(.details(episode: 2))
        await nav.flush()

        let events = try log.events(old.session).map(\.recorded)
        #expect(events.count == 10 && events[8].meta.origin == .system)
        let fixture = Fixture(name: "restore-after-update",
                              description: "Version 1 of an app recorded a session; version 2 renamed a case, added a field and removed a case "
                                  + "and restored it: one system reset keeps what still decodes and names each dropped route in its note.",
                              session: Fixture.SessionHeader(label: "restore after update", appVersion: "1.0"),
                              events: events).recorded()
        if Fixture.isRecordModeEnabled || !FileManager.default.fileExists(atPath: Self.path) {
            try fixture.write(toFile: Self.path)
            return
        }
        let checkedIn = try Fixture(contentsOf: Self.path)
        // Call sites carry line numbers of this file; the rest must match.
        func withoutSites(_ f: Fixture) -> [RecordedEvent] { f.events.map { var e = $0; e.meta.callSite = nil; return e } }
        #expect(withoutSites(checkedIn) == withoutSites(fixture), "re-record with ROUTELOG_RECORD=1")
        #expect(checkedIn.expect == fixture.expect)
        #expect(checkedIn.events[8].meta.note == "restore: dropped seq 2 episode-1 (RouteV1): \(Msg.unknownCase("episode")); "
                + "dropped seq 3 player (RouteV1): \(Msg.missingSpeed), with 1 route above it; dropped seq 7 upsell (RouteV1): removed by a migration")
    }
}
