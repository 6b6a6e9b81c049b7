import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog drift`: where what was on screen and the state disagreed.
struct DriftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drift",
        abstract: "List where the screens and the state disagreed (what the user saw).",
        discussion: """
        An app whose screens report themselves (RouteLogSwiftUI's containers, or \
        Navigator.screenAppeared/screenDisappeared) stores what it saw beside the events; the \
        navigator stores each disagreement it found as a divergence: not on screen, still on \
        screen, unknown screen, depth mismatch, with its likely cause. drift lists them, each \
        with the seq it concerns, the screen, the cause, when it was found and the events \
        around the place it holds among the events (--context N before and after, default 2, \
        like grep -C), then a summary line: N divergences, no divergences (the screens reported \
        and agreed with the state), or no screen reports in this session.

        Exit status 1 when there is a divergence, 0 when there is none. A fixture or export file \
        carries no screen records: give a session of the store. --json prints one object: \
        session, status (diverged, agreed, unreported), summary, screenRecords, context, total \
        and divergences.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, '#N').") var session: String
    @Option(name: [.customShort("C"), .long], help: ArgumentHelp("Events to show before and after each divergence (0...\(Drift.maxContext)).", valueName: "n"))
    var context: Int = 2
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws {
        let ref = try SessionRef(parsing: session)
        if ref.seq != nil { throw RouteLogError.usage("drift covers the whole session: give \(printableName(ref.text)) without @N") }
        let s = try store.workspace().resolve(ref)
        let drift = try Drift(s, context: context)
        let out = Output.stdout()
        if json {
            out.line(drift.json.canonicalText)
        } else {
            Self.render(drift, out)
        }
        out.flush()
        if drift.status == .diverged { throw ExitCode.failure }
    }

    /// The text: a block per divergence (its line, when and after which event it was found, the
    /// events around it), then the summary line.
    static func render(_ drift: Drift, _ out: Output) {
        let origin: Int64? = try? drift.session.event(at: 1).map(\.meta.timestamp)
        for (n, item) in drift.items.enumerated() {
            let d = item.divergence
            out.line(out.paint("! " + d.markText, .yellow))
            var when = "  found \(ISO8601.format(milliseconds: item.record.time))"
            if let origin, origin != 0 { when += " (\(Render.relativeTime(item.record.time, from: origin)))" }
            when += item.record.headSeq == 0 ? ", before the first event" : ", after #\(item.record.headSeq)"
            out.line(when)
            let events = item.before + item.after
            let width = min(LogColumnWidths.maxEvent, events.map { Render.visibleWidth(EventText.describe($0.event.event)) }.max() ?? 0)
            let outcomeWidth = events.map { $0.event.outcome.description.count }.max() ?? 0
            func line(_ c: Drift.ContextEvent) {
                let e = c.event
                let mark = e.seq == d.seq ? ">" : " "
                let seq = String(e.seq)
                let text = Render.truncate(EventText.describe(e.event), width)
                out.line("  \(mark) " + String(repeating: " ", count: max(0, 4 - seq.count)) + seq + "  "
                         + e.meta.origin.rawValue.padding(toLength: LogPrinter.originWidth, withPad: " ", startingAt: 0) + "  "
                         + text + String(repeating: " ", count: max(0, width - Render.visibleWidth(text))) + "  "
                         + Render.outcome(e.outcome, out) + String(repeating: " ", count: max(0, outcomeWidth - e.outcome.description.count))
                         + "  " + out.paint(c.summary, .cyan))
            }
            item.before.forEach(line)
            if !events.isEmpty { out.line("         " + out.paint("! here", .yellow)) }
            item.after.forEach(line)
            if n + 1 < drift.items.count { out.line() }
        }
        if !drift.items.isEmpty { out.line() }
        out.line("\(drift.session.name): \(drift.summary)")
    }
}
