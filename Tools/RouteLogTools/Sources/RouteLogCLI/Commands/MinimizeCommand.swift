import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

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

    func validate() throws { try PathOption.check(output, "-o") }

    func run() throws {
        let (judge, s) = try Judge.session(session, in: store.workspace(), predicate: predicate, run: command)
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
            out.line("  \(i + 1). \(EventText.describe(e.event))  \(Render.outcome(r.steps[i].outcome, out))  (was seq \(kept[i] + 1))")
        }
        out.line("final state: " + out.paint(Render.summary(r.state), .cyan))
        out.line("wrote \(output)")
    }
}
