import CustomDump
import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// The fixture corpus in `Fixtures/`, found relative to this file.
enum FixtureCorpus {
    static let directory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The `.json` file names in `Fixtures/`, sorted.
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func path(_ file: String) -> String { directory + "/" + file }
}

@Suite("Fixture corpus")
struct FixtureCorpusTests {
    @Test func corpusIsThere() {
        #expect(FixtureCorpus.files.count >= 32, "found \(FixtureCorpus.files.count) fixtures in \(FixtureCorpus.directory)")
    }

    /// Replays one fixture and checks outcomes, final state and digest. With `ROUTELOG_RECORD=1`
    /// the file is rewritten from the replay instead.
    @Test(arguments: FixtureCorpus.files)
    func replayMatchesExpectations(_ file: String) throws {
        let path = FixtureCorpus.path(file)
        let fixture = try Fixture(contentsOf: path)
        #expect(fixture.name + ".json" == file, "the fixture's name should be its file name")
        #expect(!fixture.description.isEmpty, "\(file): give the fixture a description")
        #expect(!fixture.events.isEmpty, "\(file): no events")

        if Fixture.isRecordModeEnabled {
            try fixture.recorded().write(toFile: path)
            return
        }

        let expect = try #require(fixture.expect, "\(file): no \"expect\" block; run the tests with ROUTELOG_RECORD=1 to record it")
        let outcomes = try #require(expect.outcomes, "\(file): expect.outcomes is missing")
        let state = try #require(expect.state, "\(file): expect.state is missing")
        let digest = try #require(expect.digest, "\(file): expect.digest is missing")

        let result = fixture.check()
        #expect(result.passed, "\(result)")
        expectNoDifference(result.replay.steps.map(\.outcome.description), outcomes.map(\.description), "\(file): outcomes")
        expectNoDifference(result.replay.state, state, "\(file): final state")
        #expect(result.replay.state.digest == digest, "\(file): digest")
        #expect(result.replay.state.digest == result.replay.state.computeDigest(), "\(file): incremental digest")
        #expect(result.replay.state.validate().isEmpty, "\(file): \(result.replay.state.validate())")

        // The file is written through `rendered()`, so it reads well in a diff.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let canonical = fixture.rendered()
        if text != canonical {
            let have = text.split(separator: "\n", omittingEmptySubsequences: false)
            let want = canonical.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(have.count, want.count)).first { have[$0] != want[$0] } ?? min(have.count, want.count)
            Issue.record("""
                \(file) is not in canonical form; run the tests with ROUTELOG_RECORD=1 to rewrite it. First difference at line \(line + 1):
                  file:      \(line < have.count ? have[line] : "<end of file>")
                  canonical: \(line < want.count ? want[line] : "<end of file>")
                """)
        }
    }

    /// Every rejection reason and both applied details occur somewhere in the corpus.
    @Test func corpusCoversEveryOutcome() throws {
        var seen = Set<String>()
        for file in FixtureCorpus.files {
            let fixture = try Fixture(contentsOf: FixtureCorpus.path(file))
            for step in fixture.check().replay.steps { seen.insert(step.outcome.description) }
        }
        // chainTooDeep needs 1,000 nested presentations, a fixture of thousands of lines;
        // ReducerTests covers it.
        let all = ["applied", "applied:updatedInPlace"] + RejectionReason.allCases.filter { $0 != .chainTooDeep }.map { "rejected:\($0.rawValue)" }
        let missing = all.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "no fixture produces \(missing)")
    }

    /// Every event kind, presentation style and placement appears in the corpus.
    @Test func corpusCoversEveryEventKindStyleAndPlacement() throws {
        var kinds = Set<String>(), styles = Set<String>(), placements = Set<String>()
        for file in FixtureCorpus.files {
            for e in try Fixture(contentsOf: FixtureCorpus.path(file)).events {
                kinds.insert(e.event.kind.rawValue)
                if case .show(_, let style, _, let placement) = e.event {
                    styles.insert(style.rawValue)
                    let name = switch placement {
                    case .replacingTop: "replacingTop"
                    case .onTop: "onTop"
                    case .in: "in"
                    }
                    placements.insert(name)
                }
            }
        }
        #expect(kinds == Set(Event.Kind.allCases.map(\.rawValue)))
        #expect(styles == Set(PresentationStyle.allCases.map(\.rawValue)))
        #expect(placements == ["replacingTop", "onTop", "in"])
    }
}

@Suite("Fixture format")
struct FixtureFormatTests {
    static let good = """
    {
      "format": "routelog-fixture/1",
      "name": "x",
      "description": "a fixture",
      "events": [
        {"push":{"route":{"id":"a"}}},
        {"show":{"route":{"id":"s"},"style":"sheet"}},
        {"push":{"route":{"id":"b"}}},
        {"show":{"route":{"id":"t"},"style":"sheet","placement":"onTop"}}
      ]
    }
    """

    func error(_ text: String, file: String = "Fixtures/x.json", sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            _ = try Fixture(text: text, file: file)
            Issue.record("expected an error", sourceLocation: sourceLocation)
            return ""
        } catch {
            #expect(!error.description.contains("\n"), "one line: \(error)", sourceLocation: sourceLocation)
            return error.description
        }
    }

    @Test func goodFixtureParses() throws {
        let f = try Fixture(text: Self.good, file: "Fixtures/x.json")
        #expect(f.events.map(\.event.kind) == [.push, .show, .push, .show])
        #expect(f.expect == nil)
        #expect(!f.check().hasExpectation)
    }

    @Test func typoInAStyleNamesFileIndexAndField() {
        let text = Self.good.replacingOccurrences(of: #""route":{"id":"t"},"style":"sheet""#, with: #""route":{"id":"t"},"style":"shet""#)
        #expect(error(text) == #"Fixtures/x.json: events[3].show.style: unknown value "shet" (expected one of sheet, fullScreenCover, popover, alert, confirmationDialog)"#)
    }

    @Test func badJSONNamesLineAndColumn() {
        let text = Self.good.replacingOccurrences(of: #""name": "x","#, with: #""name": "x""#)
        #expect(error(text) == #"Fixtures/x.json: line 4, column 3: expected ',' or '}' in object"#)
    }

    @Test func newerFormatIsUnsupported() {
        let text = Self.good.replacingOccurrences(of: "routelog-fixture/1", with: "routelog-fixture/2")
        #expect(error(text) == #"Fixtures/x.json: unsupported format "routelog-fixture/2" (this build reads routelog-fixture/1)"#)
    }

    @Test func missingFormatOrEvents() {
        let noFormat = Self.good.replacingOccurrences(of: #""format": "routelog-fixture/1","#, with: "")
        #expect(error(noFormat) == #"Fixtures/x.json: format: missing required key "format" (expected "routelog-fixture/1")"#)
        let noEvents = #"{"format": "routelog-fixture/1", "name": "x"}"#
        #expect(error(noEvents) == #"Fixtures/x.json: events: missing required key "events""#)
    }

    @Test func unknownKeysAreTypos() {
        let text = Self.good.replacingOccurrences(of: #""description""#, with: #""descripton""#)
        #expect(error(text) == #"Fixtures/x.json: descripton: unknown key "descripton" (expected one of "description", "events", "expect", "format", "name", "session")"#)
        let inEvent = Self.good.replacingOccurrences(of: #"{"push":{"route":{"id":"b"}}}"#, with: #"{"push":{"route":{"id":"b"},"frme":"root"}}"#)
        #expect(error(inEvent) == #"Fixtures/x.json: events[2].push.frme: unknown key "frme" (expected one of "frame", "route")"#)
    }

    @Test func badMetadataAndExpectations() {
        let meta = Self.good.replacingOccurrences(of: #"{"push":{"route":{"id":"b"}}}"#, with: #"{"push":{"route":{"id":"b"}},"meta":{"origin":"usr"}}"#)
        #expect(error(meta) == #"Fixtures/x.json: events[2].meta.origin: unknown value "usr" (expected one of app, user, system, deepLink)"#)
        let outcome = Self.good.replacingOccurrences(of: "\n  ]\n}", with: "\n  ],\n  \"expect\": {\"outcomes\": [\"applied\", \"applied\", \"rejected:stael\"]}\n}")
        #expect(error(outcome).hasPrefix(#"Fixtures/x.json: expect.outcomes[2]: expected an outcome like"#))
        let digest = Self.good.replacingOccurrences(of: "\n  ]\n}", with: "\n  ],\n  \"expect\": {\"digest\": \"abc\"}\n}")
        #expect(error(digest) == #"Fixtures/x.json: expect.digest: expected 32 lowercase hex digits, found "abc""#)
        let state = Self.good.replacingOccurrences(of: "\n  ]\n}", with: "\n  ],\n  \"expect\": {\"state\": {\"root\": {\"path\": [{\"id\": \"\"}]}}}\n}")
        #expect(error(state) == #"Fixtures/x.json: expect.state.root.path[0].id: empty route id"#)
    }

    @Test func notAnObjectAndEmptyFile() {
        #expect(error("[]") == "Fixtures/x.json: expected a fixture (an object), found an array")
        #expect(error("") == "Fixtures/x.json: line 1, column 1: unexpected end of input, expected a value")
    }

    @Test func unreadableFiles() {
        let missing = FixtureCorpus.directory + "/does-not-exist.json"
        #expect(throws: FixtureError(file: missing, problem: .unreadable("no such file"))) { try Fixture(contentsOf: missing) }
        #expect(throws: FixtureError(file: FixtureCorpus.directory, problem: .unreadable("it is a directory"))) {
            try Fixture(contentsOf: FixtureCorpus.directory)
        }
    }

    /// A fixture using every event kind, metadata field and the session header.
    static let everything = Fixture(
        name: "everything",
        description: "Every kind of event, with \"quotes\" and a newline\nin the text.",
        session: .init(label: "bug 1234", app: "Example", appVersion: "2.1 (301)", created: 1_795_000_000_123),
        events: [
            RecordedEvent(.push(RouteRef(id: "a", type: "Route", payload: RawJSON(.object(["n": .int(1), "s": .string("é\u{1}")]))))),
            RecordedEvent(.show(RouteRef(id: "s"), style: .sheet, dismissible: false, placement: .onTop),
                          meta: EventMetadata(timestamp: 1_795_000_001_000, origin: .app, callSite: CallSite(file: "View.swift", line: 12))),
            RecordedEvent(.push(RouteRef(id: "b"), frame: .presentation(2))),
            RecordedEvent(.pop(count: 2, frame: .root)),
            RecordedEvent(.popToRoot(frame: .presentation(2))),
            RecordedEvent(.show(RouteRef(id: "c"), style: .popover, placement: .in(.presentation(2)))),
            RecordedEvent(.show(RouteRef(id: "d"), style: .alert, placement: .in(.root))),
            RecordedEvent(.interactiveDismiss(token: 7), meta: EventMetadata(timestamp: 1_795_000_002_000, origin: .user, note: "swipe")),
            RecordedEvent(.interactiveDismiss()),
            RecordedEvent(.dismiss(.token(2))),
            RecordedEvent(.dismiss(.all)),
            RecordedEvent(.dismiss()),
            RecordedEvent(.setTabs(["x", "y"], selected: "y")),
            RecordedEvent(.selectTab("x"), meta: EventMetadata(origin: .system)),
            RecordedEvent(.reset(NavigationState(root: Frame(path: [RouteRef(id: "r")], presented: Presentation(token: 3, route: RouteRef(id: "p"), style: .sheet))))),
        ])

    @Test func renderedReadsBackEqual() throws {
        for fixture in [Self.everything, Self.everything.recorded(), Fixture(name: "empty", events: [] as [Event]).recorded()] {
            let text = fixture.rendered()
            let back = try Fixture(text: text, file: "rendered")
            expectNoDifference(back, fixture)
            #expect(back.rendered() == text)
        }
    }

    @Test func renderedWritesOneEventPerLine() {
        let text = Self.everything.recorded().rendered()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let eventLines = lines.drop { $0 != "  \"events\": [" }.dropFirst().prefix { $0 != "  ]," }
        #expect(eventLines.count == Self.everything.events.count)
        #expect(eventLines.allSatisfy { $0.hasPrefix("    {\"") })
        #expect(eventLines.first == #"    {"push":{"route":{"id":"a","payload":{"n":1,"s":"é\u0001"},"type":"Route"}}},"#)
        #expect(eventLines.dropFirst().first == #"    {"show":{"dismissible":false,"placement":"onTop","route":{"id":"s"},"style":"sheet"},"meta":{"origin":"app","site":"View.swift:12","time":"2026-11-18T11:06:41.000Z"}},"#)
        let outcomeLines = lines.drop { $0 != "    \"outcomes\": [" }.dropFirst().prefix { $0 != "    ]," }
        #expect(outcomeLines.count == Self.everything.events.count)
        #expect(text.hasPrefix("{\n  \"format\": \"routelog-fixture/1\",\n  \"name\": \"everything\",\n  \"description\": "))
        #expect(text.hasSuffix("  }\n}\n"))
    }

    @Test func checkReportsTheFirstDifferingOutcomeAndBothStates() throws {
        var fixture = try Fixture(text: Self.good, file: "x").recorded()
        #expect(fixture.check().passed)
        #expect(fixture.check().hasExpectation)
        let recordedState = try #require(fixture.expect?.state)

        fixture.expect?.outcomes?[1] = .rejected(.stale)
        fixture.expect?.outcomes?[3] = .rejected(.stale)
        var result = fixture.check()
        #expect(!result.passed)
        #expect(result.firstDifferingOutcome == 1)
        #expect(result.mismatches == [.outcome(index: 1, expected: .rejected(.stale), actual: .applied(), differing: 2)])
        #expect(result.description == "x: 1 mismatch\n  events[1] (seq 2): expected rejected:stale, got applied (2 outcomes differ; this is the first)")

        fixture = fixture.recorded()
        fixture.expect?.outcomes?.removeLast()
        #expect(fixture.check().mismatches == [.outcomeCount(expected: 3, actual: 4)])

        fixture = fixture.recorded()
        fixture.events.removeLast()
        fixture.expect?.outcomes?.removeLast()
        result = fixture.check()
        let actualState = result.replay.state
        #expect(result.mismatches == [
            .state(expected: recordedState, actual: actualState),
            .digest(expected: recordedState.digest, actual: actualState.digest),
        ])
        #expect(result.description.contains("\n    presented#2.presented: removed {"), "\(result)")
        #expect(result.description.contains("expected: \(recordedState.canonicalJSON)"))
        #expect(result.description.contains("actual:   \(actualState.canonicalJSON)"))
        #expect(result.firstDifferingOutcome == nil)
    }

    @Test func recordedFillsEveryExpectation() throws {
        let fixture = try Fixture(text: Self.good, file: "x")
        let recorded = fixture.recorded()
        let expect = try #require(recorded.expect)
        #expect(expect.outcomes == [.applied(), .applied(), .applied(), .applied()])
        #expect(expect.state?.root.presented?.content?.presented?.route.id == "t")
        #expect(expect.digest == expect.state?.digest)
        #expect(recorded.events == fixture.events)
    }

    @Test func partialExpectationsCheckOnlyWhatTheyGive() throws {
        let text = Self.good.replacingOccurrences(of: "\n  ]\n}", with: "\n  ],\n  \"expect\": {\"outcomes\": [\"applied\", \"applied\", \"applied\", \"rejected:blockedByAlert\"]}\n}")
        let result = try Fixture(text: text, file: "x").check()
        #expect(result.mismatches == [.outcome(index: 3, expected: .rejected(.blockedByAlert), actual: .applied(), differing: 1)])
    }

    @Test func writeThenReadRoundTrips() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routelog-fixture-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("everything.json").path
        try Self.everything.recorded().write(toFile: path)
        #expect(try Fixture(contentsOf: path) == Self.everything.recorded())
        let unwritable = dir.path + "/missing-dir/x.json"
        #expect(throws: FixtureError(file: unwritable, problem: .unwritable("no such directory \(dir.path)/missing-dir"))) {
            try Self.everything.write(toFile: unwritable)
        }
    }
}
