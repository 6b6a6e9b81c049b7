import ArgumentParser
import Foundation
import RouteLogCore

/// `routelog minimize`: ddmin a session down to a 1-minimal failing event list, written as a fixture.
struct MinimizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minimize",
        abstract: "Shrink a session to a 1-minimal event list that still fails; write it as a fixture.",
        discussion: """
        The session is first cut at the first seq where the predicate holds (or --run says bad). \
        Then delta debugging (ddmin) removes events while the last event of the remaining list \
        still makes the predicate hold, until removing any single event would make it pass. \
        The result is written with -o as a fixture (with its expect block) and printed. Its \
        description names the session (a file by its name, without folders) and the predicate \
        or --run command (absolute paths cut to their last component); with --no-times the \
        events carry no times, so minimizing the same events again gives the same bytes.

        \(Predicate.helpText)
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (REF@N considers events 1...N).") var session: String
    @Option(help: ArgumentHelp("The predicate that marks a failing state.", valueName: "expr")) var predicate: String?
    @Option(name: .customLong("run"), help: ArgumentHelp("A shell command that judges the final state (git bisect run semantics).", valueName: "cmd")) var command: String?
    @Option(name: .shortAndLong, help: ArgumentHelp("The fixture file to write.", valueName: "file"), completion: .file(extensions: ["json"]))
    var output: String
    @Option(help: "The fixture's name (default: the file name without .json).") var name: String?
    @OptionGroup var stable: StableFixtureOptions
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        let (judge, s) = try Judge.session(session, in: store, predicate: predicate, run: command)
        let n = s.seqOrHead
        // By convention a fixture's name is its file name without `.json`.
        let fileName = URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
        let result = try Minimized(s, judge: judge, name: name ?? fileName, noTimes: stable.noTimes)
        try result.fixture.write(to: output)
        let out = Output.stdout()
        if json {
            out.line(result.json(file: output).canonicalText)
            return
        }
        let minimal = result.fixture.events, kept = result.kept, firstBad = result.firstBad
        out.line("minimized \(firstBad) events (cut at the first bad seq \(firstBad) of \(n)) to \(minimal.count) in \(result.tests) tests")
        let r = replay(minimal.map(\.event))
        for (i, e) in minimal.enumerated() {
            out.line("  \(i + 1). \(Render.event(e.event))  \(Render.outcome(r.steps[i].outcome, out))  (was seq \(kept[i] + 1))")
        }
        out.line("final state: " + out.paint(Render.summary(r.state), .cyan))
        out.line("wrote \(output)")
    }
}

/// A session minimized for a judge: the fixture of the 1-minimal failing event list, what `minimize`
/// writes (and the MCP server's `minimize` tool answers).
struct Minimized {
    let fixture: Fixture
    /// The first seq ≥ 1 the judge calls bad: the events after it are cut first.
    let firstBad: UInt64
    /// The indices (from 0) in the session of the events kept.
    let kept: [Int]
    /// How many candidate lists were judged.
    let tests: Int

    init(_ s: ResolvedSession, judge: Judge, name: String, noTimes: Bool) throws(RouteLogError) {
        let n = s.seqOrHead
        // The first seq ≥ 1 the judge calls bad, by one fold from the start (seq 0, before any
        // event, has nothing to minimize and is not judged).
        let search = try call { try Bisect.run(in: s.log, session: s.id, through: n, mode: .linear) { c in c.seq == 0 ? .good : try judge.judge(c) } }
        guard let firstBad = search.seq else {
            throw RouteLogError("nothing to minimize: \(judge.summary) never says bad in \(s.name) seqs 1...\(n)", code: Exit.different)
        }
        let events = StableFixtureOptions.events(try call { try s.log.events(s.id, from: 1, through: firstBad) }.map(\.recorded), noTimes: noTimes)
        // The core's ddmin renumbers the tokens events name, so a kept swipe on the sheet created
        // by a kept event still names that sheet.
        let result: Minimize.Result<RecordedEvent>
        do {
            result = try Minimize.events(events) { candidate in try Minimizer.fails(candidate, judge) }
        } catch let e as MinimizeError {
            throw RouteLogError("nothing to minimize: \(e)", code: Exit.different)
        } catch {
            throw RouteLogError.from(error)
        }
        let minimal = result.elements
        fixture = Fixture(
            name: name,
            description: "Minimized from \(s.portableName) with \(judge.portableSummary): \(minimal.count) of \(firstBad) events.",
            events: minimal, expect: Fixture.expectation(for: minimal)
        )
        self.firstBad = firstBad
        kept = result.indices
        tests = result.predicateCalls
    }

    /// What `minimize --json` prints, `file` being where the fixture was written.
    func json(file: String) -> JSONValue {
        .object([
            "file": .string(file), "firstBadSeq": .int(Int64(firstBad)), "kept": .int(Int64(fixture.events.count)),
            "originalSeqs": .array(kept.map { .int(Int64($0 + 1)) }), "tests": .int(Int64(tests)),
            "events": .array(fixture.events.map(\.json)),
        ])
    }
}

/// The failure test `minimize` hands to the core's ``Minimize``.
enum Minimizer {
    /// Whether replaying `events` ends in a failing state: the judge says bad after the last event.
    static func fails(_ events: [Event], _ judge: Judge) throws -> Bool {
        guard !events.isEmpty else { return false }
        var r = Replayer()
        var last: ReplayStep?
        for e in events { last = r.apply(e) }
        let c = PredicateContext(seq: r.seq, state: r.state, event: events.last, outcome: last?.outcome)
        return try judge.judge(c) == .bad
    }
}
