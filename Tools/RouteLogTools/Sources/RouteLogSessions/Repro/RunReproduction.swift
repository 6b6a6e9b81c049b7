import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// A run of a stored session reproduced for a test suite: what `routelog repro` writes and the MCP
/// server's `reproduce_crash` tool answers. The fixture rebuilds the state the run started from
/// and replays the run's events to the screens it ended on (``RouteLogCore/Reproduction``); the
/// test replays it and states those screens; the shortest path (asked for) is the fewest of the
/// session's events, from its start, that reach the same screens.
package struct RunReproduction {
    package let session: ResolvedSession
    package let run: RunInfo
    package let lastSeq: UInt64
    /// The file name without `.json`, and the fixture's name.
    package let name: String
    package let fixture: Fixture
    /// What was on screen after ``lastSeq``.
    package let screens: ScreenLayout
    /// The shortest path to the same screens, when asked for and one exists.
    package private(set) var shortest: Minimize.Result<RecordedEvent>?
    /// Whether the search for ``shortest`` ran to its end (`false`: it stopped at its budget, and a
    /// shorter path may exist).
    package private(set) var shortestComplete = true
    /// The session's events up to ``lastSeq``, read for ``findShortest(budget:progress:)`` when
    /// asked for and not yet searched.
    private var pendingShortest: [RecordedEvent]?
    /// The state after ``lastSeq``.
    private let state: NavigationState

    /// The reproduction of run `number` of `s` (default: its last crashed run). With `shortest`,
    /// the session's events are read for the shortest path, which ``findShortest(budget:progress:)``
    /// then searches (apart from the store: an MCP server searches it outside its store lock).
    package init(_ s: ResolvedSession, run number: Int?, name: String?, shortest: Bool) throws(RouteLogError) {
        guard let store = s.store else {
            throw .usage("repro reproduces a run of a stored session: \(printableName(s.name)) is a file, which records no runs")
        }
        let runs = s.marks().runs
        if runs.isEmpty { throw RouteLogError(.empty, "no runs in session \(s.name): it was recorded before runs were, or imported") }
        let run: RunInfo
        if let number {
            guard let r = runs.first(where: { $0.number == number }) else {
                throw .usage("no run \(number) in session \(s.name) (its runs are 1…\(runs.count))")
            }
            run = r
        } else {
            guard let r = runs.last(where: { if case .crashed = $0.end { true } else { false } }) else {
                let ends = Dictionary(grouping: runs, by: \.end.name).map { "\($0.value.count) \($0.key)" }.sorted()
                throw .usage("no crashed run in session \(s.name) (runs: \(ends.joined(separator: ", "))); give --run N to reproduce another")
            }
            run = r
        }
        let lastSeq = runs.lastSeq(of: run, head: s.info.eventCount)
        let name = name ?? "\(run.end.name)-run-\(run.number)-\(s.id.rawValue.prefix(8))"
        let state = try s.state(at: lastSeq)
        session = s
        self.run = run
        self.lastSeq = lastSeq
        self.name = name
        fixture = try call { try Reproduction.fixture(of: run, lastSeq: lastSeq, session: s.info, in: store, name: name) }
        screens = ScreenLayout(state)
        self.state = state
        if shortest {
            pendingShortest = try call { try store.events(s.id, from: 1, through: lastSeq) }.map(\.recorded)
        }
    }

    /// Searches the shortest path to the screens (if asked for at init), within `budget` events
    /// folded (see ``RouteLogCore/Reproduction/shortestPath(_:reaching:limit:budget:progress:)``).
    package mutating func findShortest(budget: Int = Reproduction.shortestBudget,
                               progress: ((Int, Int) -> Void)? = nil) throws(RouteLogError) {
        guard let events = pendingShortest else { return }
        pendingShortest = nil
        setShortest(try call { try Reproduction.shortestPath(events, reaching: state, budget: budget, progress: progress) })
    }

    /// What the shortest path's search needs, apart from the store.
    package struct ShortestWork: Sendable {
        package let events: [RecordedEvent]
        package let target: NavigationState
    }

    /// The search asked for at init, to run elsewhere (``setShortest(_:)`` takes its answer).
    package mutating func takeShortestWork() -> ShortestWork? {
        guard let events = pendingShortest else { return nil }
        pendingShortest = nil
        return ShortestWork(events: events, target: state)
    }

    /// The answer of a search of ``takeShortestWork()``.
    package mutating func setShortest(_ found: Reproduction.ShortestPath?) {
        shortest = found?.result
        shortestComplete = found?.complete ?? true
    }

    /// The line saying the search stopped at its budget, or `nil`.
    package var shortestNote: String? {
        guard let shortest, !shortestComplete else { return nil }
        return "shortest path: the search stopped at its budget of \(Reproduction.shortestBudget.grouped) events folded; "
            + "\(shortest.elements.count) events reach the screens, fewer might"
    }

    /// The shortest path as a fixture (its events renumbered from seq 1), if one was found.
    package var shortestFixture: Fixture? {
        guard let shortest else { return nil }
        let events = shortest.elements
        return Fixture(name: name + "-shortest",
                       description: "The fewest events of session \(session.id.rawValue) from its start (\(events.count) of \(lastSeq)) that reach the screens run \(run.number) ended on.",
                       events: events, expect: Fixture.Expectation(replay(events.map(\.event))))
    }

    /// Where a generated test finds its fixture: a path relative to the test file (never an
    /// absolute path of the machine that wrote it), which `expectReplay` looks up in the working
    /// directory, then in the test file's directory and each one above it.
    package enum FixtureLocation {
        /// `NAME.json`, written beside the test (`routelog repro -o DIR` writes both into DIR).
        case besideTheTest
        /// `FOLDER/NAME.json`, where the test's reader saves it (the MCP tool returns the files'
        /// contents, not files).
        case folder(String)
    }

    /// The fixture's path as the generated test names it.
    package func fixturePath(_ location: FixtureLocation) -> String {
        switch location {
        case .besideTheTest: "\(name).json"
        case .folder(let folder): "\(folder)/\(name).json"
        }
    }

    /// A Swift Testing test that replays the fixture (at ``fixturePath(_:)`` of `location`) and
    /// checks the screens; with `routeType`, one more that restores it with today's routes
    /// (`expectRestore`), and with `module` the import of the app's module that declares them.
    /// A comment says where the fixture must be for the test to find it.
    /// Recorded text (the session's id, the run's app version and build) goes into the comments
    /// through ``SwiftSource/comment(_:)`` and the paths and screens into literals through
    /// ``SwiftSource/literal(_:)``: nothing recorded becomes code. `routeType` and `module` must be
    /// checked Swift names (the command's validation does it).
    package func test(fixture location: FixtureLocation, routeType: String?, module: String?) -> String {
        let ident = SwiftSource.identifier(name, prefix: "reproduce")
        let fixturePath = fixturePath(location)
        var what = "Run \(run.number) of session \(session.id.rawValue)"
        if let v = run.appVersion { what += ", app \(v)" + (run.build.map { " (build \($0))" } ?? "") }
        what += ", seqs \(run.firstSeq)…\(lastSeq); the run ended \(run.end.name)."
        let whereTo = switch location {
        case .besideTheTest: "The fixture, \(fixturePath), was written beside this file: keep the two together."
        case .folder(let folder): "Save the fixture as \(fixturePath): a \(folder) folder in this file's directory or one above it."
        }
        var out = "import RouteLogTesting\nimport Testing\n"
        if let module { out += "@testable import \(module)\n" }
        out += """

        // \(SwiftSource.comment(what))
        // \(SwiftSource.comment(whereTo))
        // expectReplay looks for a relative path in the working directory, then in this file's directory and each one above it.
        // Regenerate with: routelog repro \(SwiftSource.comment(session.id.rawValue)) --run \(run.number)

        /// The screens the app was on when the run ended: the fixture replays to them.
        @Test func \(ident)() {
            let result = expectReplay(fixture: \(SwiftSource.literal(fixturePath)))
            #expect(result.map { ScreenLayout($0.state).description } == \(SwiftSource.literal(screens.description)))
        }

        """
        if let routeType {
            out += """

            /// Today's routes and migrations restore the state the run ended on.
            @Test func \(ident)Restores() {
                expectRestore(fixture: \(SwiftSource.literal(fixturePath)), as: \(routeType).self)
            }

            """
        }
        return out
    }

    /// What `repro --json` prints (the files written are added by the command).
    package var json: [String: JSONValue] {
        var o: [String: JSONValue] = [
            "session": .string(session.id.rawValue), "run": run.json, "lastSeq": .int(Int64(clamping: lastSeq)),
            "screens": .string(screens.description), "name": .string(name), "events": .int(Int64(fixture.events.count)),
        ]
        if let shortest {
            o["shortestEvents"] = .int(Int64(shortest.elements.count))
            o["shortestComplete"] = .bool(shortestComplete)
        }
        return o
    }
}
