import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import RouteLogTesting
import Testing

/// From a crashed run to a failing-first test: `routelog repro` writes a fixture that replays to
/// the screens the run ended on and a test that says so; the next launch's navigator knows the
/// run (`previousRun`) and gives the same fixture as data.
@Suite(.serialized) struct ReproTests {
    let dir: TempDir
    var store: String { dir.path }

    init() throws { dir = try TempDir() }

    /// Launches the crash app: `count` calls from `seed`, then `death`; returns its session id.
    @discardableResult
    func launch(_ seed: Int, _ count: Int, _ death: String, version: String = "1.0") throws -> String {
        let lines = try CrashApp.run(["navigate", store, "main", version, String(seed), String(count), death])
        let session = try #require(lines.first { $0.hasPrefix("session ") }, "\(lines)")
        return String(session.dropFirst(8))
    }

    /// Settles the runs' ends as the next launch would (a read-write open recovers the journals).
    func settle() throws {
        let lines = try CrashApp.run(["recover", store])
        #expect(lines.last == "open", "\(lines)")
    }

    /// The screens of the stored session at `seq`.
    func screens(_ session: String, at seq: UInt64) throws -> ScreenLayout {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        return ScreenLayout(try log.state(of: SessionID(session), at: seq))
    }

    @Test(.timeLimit(.minutes(10))) func theLastCrashedRunBecomesAFixtureAndATest() async throws {
        let session = try launch(1, 60, "clean")
        try launch(2, 45, "kill", version: "1.1")
        try launch(3, 30, "clean", version: "1.2")
        try settle()
        let out = dir.path("crashes")
        let r = await InProcess.run(["repro", session, "--store", store, "-o", out, "--shortest", "--json", "--route-type", "Screen", "--module", "CrashApp"])
        try #require(r.status == 0, "\(r)")
        let summary = try JSONValue(parsing: r.stdout)
        // Run 2 (the crashed one), seqs 61…105.
        #expect(summary["run"]?["run"] == .int(2) && summary["run"]?["end"] == .string("crashed"), "\(r.stdout)")
        #expect(summary["lastSeq"] == .int(105), "\(r.stdout)")
        let name = "crashed-run-2-\(session.prefix(8))"
        let fixture = try Fixture(contentsOf: dir.path("crashes/\(name).json"))
        let expected = try screens(session, at: 105)
        #expect(summary["screens"] == .string(expected.description))
        // The fixture rebuilds the run's start (origin system), then holds the run's 45 events, and
        // replays to the screens the run ended on, its expect block passing.
        let setup = fixture.events.prefix { $0.meta.origin == .system }
        #expect(fixture.events.count == setup.count + 45, "\(fixture.events.count) events, \(setup.count) of setup")
        #expect(fixture.check().passed)
        #expect(ScreenLayout(replay(fixture.events.map(\.event)).state) == expected)
        #expect(fixture.session?.appVersion == "1.1" && fixture.description.contains("Run 2 of session \(session)"))
        // The test replays the fixture, states the screens, and restores with the app's routes.
        let test = try dir.read("crashes/\(name).swift")
        #expect(test.contains("expectReplay(fixture: \"\(name).json\")"), "\(test)")
        #expect(test.contains(SwiftSource.literal(expected.description)), "\(test)")
        #expect(test.contains("expectRestore(fixture:") && test.contains("as: Screen.self") && test.contains("@testable import CrashApp"))
        // The shortest path from the session's start reaches the same screens with no more events.
        let shortest = try Fixture(contentsOf: dir.path("crashes/\(name)-shortest.json"))
        #expect(ScreenLayout(replay(shortest.events.map(\.event)).state) == expected)
        #expect(shortest.events.count <= 105 && shortest.events.count == summary["shortestEvents"]?.intValue.map(Int.init))
        #expect(shortest.check().passed)
    }

    /// `-o` with an absolute path (a user's checkout): the test names the fixture relative to
    /// itself, so it passes from where it was written and from another checkout (another machine,
    /// CI), and nothing of this machine's paths is in it.
    @Test(.timeLimit(.minutes(10))) func theTestFindsItsFixtureWhereverTheTwoFilesGo() async throws {
        let session = try launch(7, 30, "clean")
        try launch(8, 25, "kill", version: "1.1")
        try settle()
        let out = dir.path("MyApp/Tests/MyAppTests/Crashes")
        #expect(out.hasPrefix("/"))
        let r = await InProcess.run(["repro", session, "--store", store, "-o", out, "--name", "Checkout"])
        try #require(r.status == 0, "\(r)")
        let test = try String(contentsOfFile: out + "/Checkout.swift", encoding: .utf8)
        #expect(!test.contains(dir.parent), "the test holds a path of this machine:\n\(test)")
        #expect(test.contains("expectReplay(fixture: \"Checkout.json\")"), "\(test)")
        #expect(test.contains("// The fixture, Checkout.json, was written beside this file: keep the two together."), "\(test)")

        /// What the generated test's `expectReplay` reports, run as the test file at `testFile`.
        func problems(_ testFile: String) throws -> [String] {
            let path = try #require(test.firstMatch(of: /expectReplay\(fixture: "([^"]+)"\)/)?.1, "\(test)")
            return replayProblems(fixture: String(path), record: false, filePath: testFile).problems
        }
        #expect(try problems(out + "/Checkout.swift") == [])
        // The two files moved to another checkout: still found, still passing.
        let moved = dir.path("elsewhere/App/Tests/AppTests")
        try FileManager.default.createDirectory(atPath: moved, withIntermediateDirectories: true)
        for file in ["Checkout.json", "Checkout.swift"] { try FileManager.default.copyItem(atPath: out + "/" + file, toPath: moved + "/" + file) }
        try FileManager.default.removeItem(atPath: out)
        #expect(try problems(moved + "/Checkout.swift") == [])
    }

    @Test(.timeLimit(.minutes(10))) func theNextLaunchKnowsTheCrashedRun() throws {
        let session = try launch(4, 50, "clean")
        try launch(5, 35, "kill", version: "1.1")
        let lines = try CrashApp.run(["previous", store, "main", "1.2"])
        let expected = try screens(session, at: 85)
        #expect(lines.contains("previous 2 crashed 85"), "\(lines)")
        #expect(lines.contains("screens \(expected)"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fixture ") && $0.hasSuffix(" \(expected)") }, "\(lines)")
        // A launch after a clean run hears of a clean run.
        let again = try CrashApp.run(["previous", store, "main", "1.3"])
        #expect(again.contains { $0.hasPrefix("previous 3 clean ") }, "\(again)")
    }

    @Test func badRequestsAreOneLine() async throws {
        let session = try launch(6, 10, "clean")
        let none = await InProcess.run(["repro", session, "--store", store, "-o", dir.path("x")])
        #expect(none.status == 2 && none.stderr.contains("no crashed run in session") && none.stderr.contains("(runs: 1 clean)"), "\(none)")
        let missing = await InProcess.run(["repro", session, "--store", store, "-o", dir.path("x"), "--run", "9"])
        #expect(missing.status == 2 && missing.stderr.contains("no run 9"), "\(missing)")
        try dir.write("f.json", Fixture(name: "f", events: [.push(RouteRef(id: "a"))]).rendered())
        let file = await InProcess.run(["repro", dir.path("f.json"), "--store", store, "-o", dir.path("x")])
        #expect(file.status == 2 && file.stderr.contains("is a file, which records no runs"), "\(file)")
        let name = await InProcess.run(["repro", session, "--store", store, "-o", dir.path("x"), "--name", "../evil"])
        #expect(name.status == 2 && name.stderr.contains("--name must be letters"), "\(name)")
    }
}
