import ArgumentParser
import RouteLogCore

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
        let ref = try parseRef(session)
        if let at, let seq = ref.seq, at != seq { throw CLIError.usage("--at \(at) contradicts \(ref.text)") }
        let s = try store.workspace().resolve(ref)
        let seq = at ?? s.seqOrHead
        try s.check(seq: seq, what: "--at")
        let state = try call { try s.log.state(of: s.id, at: seq) }
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object(["seq": .int(Int64(seq)), "digest": .string(state.digest.hex), "state": state.json]).canonicalText)
            return
        }
        out.line(out.paint("\(s.name) at seq \(seq) of \(s.info.eventCount)", .bold) + "  digest \(state.digest.short)")
        if seq >= 1, let e = try s.event(at: seq) {
            out.line("after: \(Render.event(e.event))  \(Render.outcome(e.outcome, out))")
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
