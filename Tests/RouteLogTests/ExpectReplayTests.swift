import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTesting
import Testing

@MainActor
@Suite struct ExpectReplayTests {
    func tempFile(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// A session recorded through the navigator, turned into a fixture file.
    func recordedSessionFixture(_ name: String) async throws -> (String, Fixture) {
        let log = InMemoryEventLog(clock: fixedClock)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        nav.show(.player(episode: 1))
        nav.present(.upsell(feature: "chapters"), dismissible: false)
        nav.interactiveDismiss()
        await nav.flush()
        let fixture = Fixture(name: name, events: try log.events(nav.session).map(\.recorded)).recorded()
        let path = tempFile("\(name).json")
        try fixture.write(toFile: path)
        return (path, fixture)
    }

    @Test func aRepositoryFixtureReplaysFromARelativePath() throws {
        let result = try #require(expectReplay(fixture: "Fixtures/item-sheet-late-nil-stale.json", record: false))
        #expect(result.passed && result.hasExpectation && !result.replay.steps.isEmpty)
    }

    @Test func aSessionTurnedIntoAFixturePassesAndItsRoutesDecode() async throws {
        let (path, _) = try await recordedSessionFixture("upsell")
        let result = try #require(expectReplay(fixture: path, decoding: PodRoute.self))
        #expect(result.replay.steps.map(\.outcome) == [.applied(), .applied(), .rejected(.notDismissible)])
        // The same fixture read with an incompatible route type names the seq.
        let problems = routeDecodingProblems(try Fixture(contentsOf: path).events.map(\.event), as: OldRoute.self)
        #expect(problems.count == 2 && problems[0].hasPrefix("seq 1: route \"player\""))
    }

    @Test func aChangedOutcomeIsReportedAsAnOutcomeDiff() async throws {
        let (path, fixture) = try await recordedSessionFixture("changed")
        var edited = fixture
        edited.expect?.outcomes?[2] = .applied()
        try edited.write(toFile: path)
        let (problems, result, _) = replayProblems(fixture: path, record: false)
        #expect(result?.passed == false)
        #expect(problems.count == 1)
        let text = try #require(problems.first)
        #expect(text.contains("outcomes differ") && text.contains("-   [2]: \"#3 applied\"") && text.contains("+   [2]: \"#3 rejected:notDismissible\""))
        withKnownIssue { expectReplay(fixture: path, record: false) }
    }

    @Test func aChangedStateIsReportedAsAStateDiff() async throws {
        let (path, fixture) = try await recordedSessionFixture("state")
        var edited = fixture
        edited.expect?.state = NavigationState()
        edited.expect?.digest = nil
        try edited.write(toFile: path)
        let (problems, _, _) = replayProblems(fixture: path, record: false)
        #expect(problems.count == 1 && problems[0].contains("final state differs") && problems[0].contains("+ "))
    }

    @Test func recordModeRewritesTheExpectationsAndPasses() async throws {
        let (path, fixture) = try await recordedSessionFixture("record")
        var edited = fixture
        edited.expect?.outcomes = [.applied()]
        try edited.write(toFile: path)
        #expect(replayProblems(fixture: path, record: false).problems.count == 1)
        #expect(replayProblems(fixture: path, record: true).problems.isEmpty)
        #expect(try Fixture(contentsOf: path) == fixture)
        #expect(replayProblems(fixture: path, record: false).problems.isEmpty)
    }

    @Test func aFixtureWithoutExpectationsIsRecordedButFailsOnce() async throws {
        let (path, fixture) = try await recordedSessionFixture("bare")
        var bare = fixture
        bare.expect = nil
        try bare.write(toFile: path)
        let first = replayProblems(fixture: path, record: false).problems
        #expect(first.count == 1 && first[0].contains("had no expectations"))
        #expect(replayProblems(fixture: path, record: false).problems.isEmpty)
    }

    @Test func anUnreadableFixtureIsOneLine() {
        let problems = replayProblems(fixture: "Fixtures/does-not-exist.json", record: false).problems
        #expect(problems.count == 1 && !(problems.first ?? "").contains("\n"), "\(problems)")
        let message = problems.first ?? ""
        #expect(message.hasPrefix("Fixtures/does-not-exist.json: cannot read the file: no such file; \"Fixtures/does-not-exist.json\" is in none of these directories: "),
                "\(message)")
        // It names the working directory and every directory from this file's up to the root.
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for dir in [FileManager.default.currentDirectoryPath, here.path, here.deletingLastPathComponent().path, here.deletingLastPathComponent().deletingLastPathComponent().path] {
            #expect(message.contains(dir), "\(dir) in \(message)")
        }
        let absolute = replayProblems(fixture: "/nonexistent/x.json", record: false).problems
        #expect(absolute == ["/nonexistent/x.json: cannot read the file: no such file (no file at this absolute path)"])
    }
}
