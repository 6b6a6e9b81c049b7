import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog bisect`: the first seq at which a predicate holds.
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first seq where a predicate holds (or a command says bad).",
        discussion: """
        With --predicate the search is linear by default: one fold from seq 0 (the state \
        before any event) to N, judging every seq in order, so it finds the first seq where the \
        predicate holds even when it stops holding later (each state costs microseconds).

        With --run (each judgement is a process) or --binary the search is binary: it assumes \
        the predicate stays true once it holds and materializes O(log N) states, each from the \
        nearest snapshot. It needs a bad end: when the last seq is good it says the range has \
        no bad end (a predicate that held for a while and stopped is found with --linear).

        --run CMD follows git bisect run: the state's canonical JSON goes on stdin, ROUTELOG_SEQ \
        (and ROUTELOG_EVENT, ROUTELOG_OUTCOME) in the environment; exit 0 means good, 125 skip, \
        1-127 (but 125) bad, 128 or more aborts. The command's output goes to stderr.

        Prints the seq, the event, the state diff across it and how many states were \
        materialized, and which mode ran. Exit status: 1 when a bad seq is found, 0 when none is \
        (linear: no seq says bad; binary: the range has no bad end).

        \(Predicate.helpText)
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (REF@N searches seqs 1...N).") var session: String
    @Option(help: ArgumentHelp("The predicate that marks a bad state, e.g. 'top.id == \"upsell\"'.", valueName: "expr")) var predicate: String?
    @Option(name: .customLong("run"), help: ArgumentHelp("A shell command that judges each state (git bisect run semantics).", valueName: "cmd")) var command: String?
    @Flag(help: "Check every seq in order (the default with --predicate).") var linear = false
    @Flag(help: "Binary search, for a predicate that stays true once it holds (the default with --run).") var binary = false
    @Flag(help: "Print the result as JSON.") var json = false

    /// The search mode: as asked, else linear for an in-process predicate (microseconds per
    /// state, exact for any predicate) and binary for a command (a process per judgement).
    var mode: Bisect.Mode {
        if binary { return .binary }
        if linear { return .linear }
        return command == nil ? .linear : .binary
    }

    func validate() throws {
        if linear && binary { throw ValidationError("give either --linear or --binary, not both") }
    }

    func run() throws {
        let (judge, s) = try Judge.session(session, in: store.workspace(), predicate: predicate, run: command)
        let n = s.seqOrHead
        // REF@N searches the prefix 0...N, from the log's snapshots.
        // A command judges in a process of its own each time: the person waiting sees the count.
        let progress = Progress("bisecting with \(judge.summary)", unit: "seqs judged", stride: 1, enabled: command != nil && !json)
        let result = try Bisect.run(in: s.log, session: s.id, through: n, mode: mode) { c throws(RouteLogError) in
            defer { progress.add() }
            return try judge.judge(c)
        }
        progress.finish()
        let out = Output.stdout()
        let mode = result.mode.rawValue
        if json {
            out.line(SessionJSON.bisect(result).canonicalText)
            if result.seq != nil, result.context != nil {
                out.flush()
                throw ExitCode.failure
            }
            return
        }
        let countLine = "materialized \(result.materialized) state\(result.materialized == 1 ? "" : "s"), folded \(result.eventsFolded) events, "
            + "judged \(result.evaluations) seq\(result.evaluations == 1 ? "" : "s") (\(mode))"
        guard let seq = result.seq, let context = result.context else {
            switch result.mode {
            case .linear:
                out.line("no bad seq: \(judge.summary) says bad at no seq in 0...\(n)")
            case .binary:
                // Binary search judged the end of the range and found it good: it says
                // nothing about the seqs before (a predicate can hold for a while and stop).
                out.line("no bad end: \(judge.summary) does not say bad at seq \(n), the end of 0...\(n); "
                    + "binary search needs a bad end (--linear checks every seq)")
            }
            if !result.undecided.isEmpty { out.line("skipped: \(result.undecided.map(String.init).joined(separator: ", "))") }
            out.line(out.paint(countLine, .dim))
            return
        }
        out.line(out.paint("first bad seq: \(seq) of \(n)", .bold))
        if !result.undecided.isEmpty {
            out.line("undecided: the first bad seq may also be one of \(result.undecided.map(String.init).joined(separator: ", ")) (skipped)")
        }
        if let e = context.event {
            let site = e.meta.callSite.map { ", \($0.file):\($0.line)" } ?? ""
            out.line("event: \(EventText.describe(e.event))  (\(e.meta.origin.rawValue)\(site))  \(Render.outcome(e.outcome, out))")
            out.line("state diff \(seq - 1) → \(seq):")
            if let before = result.stateBefore, before != context.state {
                for line in Diffing.text(before, context.state, out: out) { out.line(line) }
            } else {
                out.line("  (no change)")
            }
        } else {
            out.line("the predicate already holds before any event (seq 0)")
        }
        out.line(out.paint(countLine, .dim))
        out.flush()
        throw ExitCode.failure
    }
}
