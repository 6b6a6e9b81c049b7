import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog state`: time travel to any seq.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show the state after an event (time travel).",
        discussion: """
        Prints the state after event --at N (default: the last event; 0 is the state before any \
        event) as an indented tree, or with --json as canonical JSON {"digest", "seq", "state"}. \
        A session without events (an app that has just started) shows the state at seq 0.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json, or REF@N).") var session: String
    @Option(parsing: .unconditional, help: "The seq to show (default: the last one).", transform: SeqArgument.parse) var at: UInt64?
    @Flag(help: "Print canonical JSON.") var json = false

    func run() throws {
        let ref = try SessionRef(parsing: session)
        if let at, let seq = ref.seq, at != seq { throw RouteLogError.usage("--at \(at) contradicts \(ref.text)") }
        // A file is streamed: its events are folded as they are read, never kept (a file of
        // millions of events is not loaded as a log), and the state at the seq shown is kept.
        let s = try store.workspace().resolve(ref, reading: .streamed(keeping: at.map { [$0] } ?? []))
        let seq = at ?? s.seqOrHead
        try s.check(seq: seq, what: "--at")
        let state = try s.state(at: seq)
        let after = seq >= 1 ? try s.event(at: seq).map { ($0.event, $0.outcome) } : nil
        show(name: s.name, seq: seq, of: s.info.eventCount, state: state, after: after)
    }

    private func show(name: String, seq: UInt64, of count: UInt64, state: NavigationState, after: (Event, Outcome)?) {
        let out = Output.stdout()
        if json {
            out.line(SessionJSON.state(state, seq: seq).canonicalText)
            return
        }
        out.line(out.paint("\(name) at seq \(seq) of \(count)", .bold) + "  digest \(state.digest.short)")
        if let (event, outcome) = after {
            out.line("after: \(EventText.describe(event))  \(Render.outcome(outcome, out))")
        }
        out.line(out.paint(Render.summary(state), .cyan))
        out.line()
        for line in Render.tree(state) { out.line(line) }
        let violations = state.validate()
        if !violations.isEmpty {
            out.line()
            for v in violations { out.line(out.paint("invariant broken: \(v)", .boldRed)) }
        }
    }
}
