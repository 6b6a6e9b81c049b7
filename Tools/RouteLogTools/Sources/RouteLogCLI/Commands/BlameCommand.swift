import ArgumentParser
@_spi(Tools) import RouteLogCore

/// `routelog blame`: what put each element of the state there, and what later removed it.
struct BlameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blame",
        abstract: "Show the state with the event that put each screen there (like git blame).",
        discussion: """
        Prints the state at seq N (REF@N; default: the last seq) as `routelog state` prints it, \
        each line prefixed with the seq and the short form of the event that put its element \
        there in its present form (a push, a show, a reset, an in-place update, a setTabs), and \
        followed by the seq that later removed it, if one did (looked for to the session's end). \
        A reset puts every element of its state there anew. --json prints \
        {"seq", "digest", "elements": [...]} with each element's kind, id, place, start, put, \
        updates, end and the events' short forms. A session without events blames the state at seq 0.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json, or REF@N).") var session: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let ref = try SessionRef(parsing: session)
        let s = try store.workspace().resolve(ref)
        let seq = s.seqOrHead
        let (blame, events) = try BlameQuery.blame(s, at: seq)
        let out = Output.stdout()
        if json {
            out.line(BlameRender.json(blame, events: events).canonicalText)
            return
        }
        out.line(out.paint("\(s.name) at seq \(seq) of \(s.info.eventCount)", .bold) + "  digest \(blame.state.digest.short)")
        for line in BlameRender.lines(blame, events: events) { out.line(line) }
    }
}
