import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
@_spi(Tools) import RouteLogTimeline

/// `routelog log`: one line per event, optionally following a live session.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print a session's events, one per line.",
        discussion: """
        Columns: seq, time since the session's first event, origin, the event, its outcome \
        (rejected events stand out), call site, and the state after it in one line, e.g. \
        inbox ▸ thread-42 ┃ sheet composer#12 ▸ attachments

        --follow keeps printing events as another process appends them (stop it with Ctrl-C, \
        or give --to). --json prints one JSON object per line.

        Where the app's screens reported themselves and disagreed with the state, a line \
        starting with ! follows the event it came after (routelog drift lists them with the \
        events around them); with --json, that event's object has a divergences array. \
        --follow marks those stored when it started.

        A session without events (an app that has just started) is not an error: log prints \
        one line saying so (nothing with --json) and exits 0.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json; REF@N stops at N).") var session: String
    @Option(parsing: .unconditional, help: "First seq to print (default 1).", transform: SeqArgument.parse) var from: UInt64?
    @Option(parsing: .unconditional, help: "Last seq to print (default: the last one).", transform: SeqArgument.parse) var to: UInt64?
    @Flag(help: "Keep printing new events as they are appended.") var follow = false
    @Flag(help: "Print one JSON object per line.") var json = false

    func run() async throws {
        let ref = try SessionRef(parsing: session)
        let s = try store.workspace().resolve(ref)
        if follow, !s.isStored { throw RouteLogError.usage("--follow needs a session in a store, not a file (\(s.name))") }
        if follow, ref.seq != nil { throw RouteLogError.usage("--follow cannot be combined with \(ref.text); use --to") }
        let first = from ?? 1
        if first == 0 { throw RouteLogError.usage("--from out of range: 0 (seqs start at 1)") }
        // Following without --to never ends by itself (stop it with Ctrl-C).
        var last = to ?? (follow ? UInt64.max : s.seqOrHead)
        if let to, let seq = ref.seq, to > seq { last = seq }
        if let to, let from, to < from { throw RouteLogError.usage("--to \(to) is before --from \(from)") }
        if !follow {
            if s.info.eventCount == 0 && from == nil && to == nil {
                if !json {
                    let out = Output.stdout()
                    out.line("\(s.name) has no events yet")
                    // What its screens disagreed on before any event, as log marks it before the first one.
                    let marks = DivergenceMarks(s)
                    LogPrinter.printDivergences(marks, after: 0, to: out)
                    if let e = marks.error { printError("warning: divergences not marked: \(e.message)") }
                }
                return
            }
            if first > s.info.eventCount { try s.check(seq: first, what: "--from") }
            if let to { try s.check(seq: to, what: "--to") }
        }

        let out = Output.stdout()
        let printer = try LogPrinter(session: s, json: json, out: out, from: first)
        // A damaged screen record keeps the divergences from being marked, never the events from being shown.
        if let e = printer.divergenceError { printError("warning: divergences not marked: \(e.message)") }
        var next = first
        if next <= min(last, s.info.eventCount) {
            try printer.print(from: next, through: min(last, s.info.eventCount))
            next = min(last, s.info.eventCount) + 1
        }
        out.flush()
        guard follow, next <= last else { return }
        guard let lmdb = s.store else { throw RouteLogError.usage("--follow needs a session in a store (\(s.name))") }
        // The store's follower polls with short read transactions (none is held between polls, so
        // the writer's pages can be reused) and backs off while nothing arrives.
        for try await e in lmdb.follow(session: s.id, from: printer.folded + 1) {
            printer.print(e)
            out.flush()
            if e.seq >= last { break }
        }
    }
}
