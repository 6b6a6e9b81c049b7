import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import RouteLogTesting
import Testing

/// `expectRestore(corpus:…)`: the last state of every session of a generated fleet restored with
/// today's route type, counted by app version.
@Suite struct RestoreCorpusTests {
    let dir: TempDir
    init() throws { dir = try TempDir() }

    func rows(_ r: CorpusRestoration) -> [String] {
        r.versions.map { "\($0.appVersion ?? "-"): \($0.whole) whole, \($0.partly) partly, \($0.none) none" }
    }

    @Test func aLastStatesCorpusIsCountedByVersion() throws {
        let r = try restoreCorpus(try RestoreFleet.writeLastStates(in: dir), as: RouteV2.self, migrate: RestoreFleet.migrate)
        #expect(rows(r) == [
            "1.0: 5 whole, 3 partly, 2 none", "1.1: 4 whole, 1 partly, 1 none", "2.0: 7 whole, 0 partly, 0 none",
            "10.0: 2 whole, 0 partly, 0 none", "-: 1 whole, 0 partly, 0 none",
        ])
        #expect(r.versions[1].reasons == [
            .init(routeType: "Legacy", message: "case \"gone\" of Legacy is not a case of RouteV1 at the top level", sessions: 1),
            .init(routeType: "RouteV1", message: "removed by a migration", sessions: 1),
        ])
        #expect(r.total.sessions == 26 && r.total.whole == 19 && r.total.partly == 4 && r.total.none == 3)
        #expect(r.share() == 19.0 / 26 && r.share(.wholeOrPartly) == 23.0 / 26)
        #expect(r.description == RestoreFleet.table)
    }

    @Test func aFolderOfFixturesGivesTheSameTable() throws {
        let lines = try restoreCorpus(try RestoreFleet.writeLastStates(in: dir), as: RouteV2.self, migrate: RestoreFleet.migrate)
        let fixtures = try restoreCorpus(try RestoreFleet.writeFixtures(in: dir), as: RouteV2.self, migrate: RestoreFleet.migrate)
        #expect(fixtures == lines)
    }

    /// The table is what restoring each session with a navigator reports: whole when nothing is
    /// dropped, none when the restored state has no route.
    @MainActor @Test func eachVerdictIsANavigatorsRestore() async throws {
        var counts: [String: [Int]] = [:]
        for s in RestoreFleet.sessions {
            let log = InMemoryEventLog(clock: fixedClock)
            let id = try log.createSession(NewSession(label: s.name, appVersion: s.appVersion)).id
            _ = try log.append(s.events.map { RecordedEvent($0) }, to: id, expectedSeq: 0)
            let nav = try Navigator<RouteV2>(log: log, restoring: id, migrate: RestoreFleet.migrate, clock: fixedClock)
            await nav.flush()
            let report = try #require(nav.restoreReport)
            let verdict = report.isComplete ? 0 : nav.state.root.path.isEmpty && nav.state.root.presented == nil ? 2 : 1
            counts[s.appVersion ?? "-", default: [0, 0, 0]][verdict] += 1
        }
        let r = try restoreCorpus(try RestoreFleet.writeLastStates(in: dir), as: RouteV2.self, migrate: RestoreFleet.migrate)
        for row in r.versions {
            #expect(counts[row.appVersion ?? "-"] == [row.whole, row.partly, row.none], "\(row.appVersion ?? "-")")
        }
    }

    @Test func theGatePassesAtOrAboveItsThreshold() throws {
        let path = try RestoreFleet.writeLastStates(in: dir)
        let r = expectRestore(corpus: path, as: RouteV2.self, migrate: RestoreFleet.migrate, atLeast: 0.73)
        #expect(r?.total.sessions == 26)
        expectRestore(corpus: path, as: RouteV2.self, migrate: RestoreFleet.migrate, atLeast: 0.88, counting: .wholeOrPartly)
        #expect(corpusRestoreProblem(try #require(r), atLeast: 19.0 / 26) == nil)
    }

    @Test func theGateFailsBelowItsThreshold() throws {
        let path = try RestoreFleet.writeLastStates(in: dir)
        withKnownIssue {
            expectRestore(corpus: path, as: RouteV2.self, migrate: RestoreFleet.migrate, atLeast: 0.74)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("73.1% of 26 sessions restored whole, below the required 74.0%\n") == true
        }
        withKnownIssue {
            expectRestore(corpus: path, as: RouteV2.self, migrate: RestoreFleet.migrate, atLeast: 0.9, counting: .wholeOrPartly)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("88.5% of 26 sessions restored whole or partly, below the required 90.0%\n") == true
        }
        // Without the migration, version 1's renamed episode no longer decodes: every 1.x session is lost.
        withKnownIssue {
            let r = expectRestore(corpus: path, as: RouteV2.self, migrate: RouteV2.asToday, atLeast: 0.5)
            #expect(r?.versions.first?.whole == 0 && r?.versions.first?.none == 10)
        }
    }

    @Test func unreadableSessionsCountAsNotRestored() throws {
        // A broken first line: the .jsonl name still says what the file is.
        var lines = ["not json"] + RestoreFleet.sessions.prefix(2).map(RestoreFleet.lastStatesLine)
        lines.append("{\"app_version\":\"3.0\",\"state\":{\"root\":{}},\"digest\":\"00\"}")
        try dir.write("bad.jsonl", lines.joined(separator: "\n"))
        let r = try restoreCorpus(dir.path("bad.jsonl"), as: RouteV2.self, migrate: RestoreFleet.migrate)
        #expect(r.total.sessions == 4 && r.total.none >= 2)
        let v3 = try #require(r.versions.first { $0.appVersion == "3.0" })
        #expect(v3.none == 1 && v3.reasons.map(\.message) == ["unreadable: the state does not have the line's digest"])
        #expect(r.versions.last?.appVersion == nil && r.versions.last?.reasons.first?.message.hasPrefix("unreadable: a line is not JSON") == true)
    }

    @Test func anEventsExportOrAnEmptyCorpusFailsTheGate() throws {
        try dir.write("events.jsonl", "{\"kind\":\"push\",\"route_id\":\"inbox\",\"route_type\":null,\"seq\":1}\n")
        #expect(throws: CorpusError.self) { try restoreCorpus(dir.path("events.jsonl"), as: RouteV2.self) }
        withKnownIssue {
            expectRestore(corpus: dir.path("events.jsonl"), as: RouteV2.self, atLeast: 0)
        } matching: { issue in
            issue.comments.first?.rawValue.contains("routelog export --format last-states") == true
        }
        try FileManager.default.createDirectory(atPath: dir.path("none"), withIntermediateDirectories: true)
        withKnownIssue {
            expectRestore(corpus: dir.path("none"), as: RouteV2.self, atLeast: 0)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("the corpus holds no sessions\n") == true
        }
    }

    /// An extension's route type: its sessions move into the app's store (see SharingAStore).
    enum ShareRoute: Routable {
        case compose(draft: Int)
        var id: String { if case .compose(let d) = self { "compose-\(d)" } else { "" } }
    }

    /// A route recorded with another type (an extension's session in the corpus) is named as a
    /// route of that type, not as a case today's type lost; a case today's own type lost still is.
    @Test func aRouteOfAnotherTypeIsNamedAsSuch() throws {
        let share = RestoreFleet.Session(name: "share", appVersion: "2.0", events: [.push(try RouteRef(ShareRoute.compose(draft: 1)))])
        let lost = RestoreFleet.Session(name: "main", appVersion: "2.0", events: [
            .push(RouteRef(id: "gone", type: "RouteV2", payload: RawJSON(.object(["gone": .object([:])])))),
        ])
        let r = try restoreCorpus(try RestoreFleet.writeLastStates([share, lost], in: dir), as: RouteV2.self, migrate: RouteV2.asToday)
        #expect(r.total.reasons.map(\.description) == [
            #"RouteV2: case "gone" is no longer a case of RouteV2 at the top level"#,
            #"ShareRoute: case "compose" of ShareRoute is not a case of RouteV2 at the top level"#,
        ])
    }
}
