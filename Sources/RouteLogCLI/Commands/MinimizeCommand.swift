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
        // The first seq ≥ 1 the judge calls bad, by one fold from the start (seq 0, before any
        // event, has nothing to minimize and is not judged).
        let search = try Bisect.run(in: s.log, session: s.id, through: n, mode: .linear) { c in
            c.seq == 0 ? .good : try judge.judge(c)
        }
        guard let firstBad = search.seq else {
            throw CLIError("nothing to minimize: \(judge.summary) never says bad in \(s.name) seqs 1...\(n)", code: Exit.different)
        }
        let events = stable.events(try call { try s.log.events(s.id, from: 1, through: firstBad) }.map(\.recorded))
        // The core's ddmin renumbers the tokens events name, so a kept swipe on the sheet created
        // by a kept event still names that sheet.
        let result: Minimize.Result<RecordedEvent>
        do {
            result = try Minimize.events(events) { candidate in try Minimizer.fails(candidate, judge) }
        } catch let e as MinimizeError {
            throw CLIError("nothing to minimize: \(e)", code: Exit.different)
        }
        let minimal = result.elements
        let kept = result.indices
        let tests = result.predicateCalls
        // By convention a fixture's name is its file name without `.json`.
        let fileName = URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
        let doc = Fixture(
            name: name ?? fileName,
            description: "Minimized from \(s.portableName) with \(judge.portableSummary): \(minimal.count) of \(firstBad) events.",
            events: minimal, expect: Fixture.expectation(for: minimal)
        )
        try doc.write(to: output)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "file": .string(output), "firstBadSeq": .int(Int64(firstBad)), "kept": .int(Int64(minimal.count)),
                "originalSeqs": .array(kept.map { .int(Int64($0 + 1)) }), "tests": .int(Int64(tests)),
                "events": .array(minimal.map(\.json)),
            ]).canonicalText)
            return
        }
        out.line("minimized \(firstBad) events (cut at the first bad seq \(firstBad) of \(n)) to \(minimal.count) in \(tests) tests")
        let r = replay(minimal.map(\.event))
        for (i, e) in minimal.enumerated() {
            out.line("  \(i + 1). \(Render.event(e.event))  \(Render.outcome(r.steps[i].outcome, out))  (was seq \(kept[i] + 1))")
        }
        out.line("final state: " + out.paint(Render.summary(r.state), .cyan))
        out.line("wrote \(output)")
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
