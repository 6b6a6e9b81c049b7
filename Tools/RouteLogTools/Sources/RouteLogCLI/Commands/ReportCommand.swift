import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog report`: one self-contained HTML file to look at a session in a browser.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a session's timeline as one self-contained HTML file.",
        discussion: """
        The page (CSS and JavaScript inline; it loads nothing from the network) has a timeline \
        slider with the rejected events marked (←/→ step, Home/End jump), the event list with \
        filters, the state at the selected seq drawn as screens, sheets and alerts, the state \
        diff from the previous seq (or between two seqs), and a button that copies the state's \
        canonical JSON. REF@N opens the page at seq N. Prints the path of the file written \
        (default: routelog-report-ID.html in the current directory).

        --from A --to B (either alone: from 1, to the last seq) puts only seqs A…B on the page: \
        it starts from the state after seq A-1 (read from the store's snapshot before it plus the \
        events since, never the whole session) and shows the real seq numbers. REF@N must then \
        lie in A-1…B (A-1 is the page's first position). A page holds at most \
        \((ReportBudget.defaultBytes / Timeline.Collector.eventCost).grouped) events, fewer when states or \
        payloads are large (the memory the page needs, counted as it is built, must stay within \
        \(ReportBudget.defaultBytes / 1_000_000) MB, which keeps the report's peak memory under 1 GB): a \
        longer session or range is refused in one line (exit 2), and no file is written; choose a \
        range with --from/--to.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json; REF@N opens at N).") var session: String
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The HTML file to write.", valueName: "file.html"))
    var output: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The first seq on the page (default 1).", valueName: "seq"),
            transform: SeqArgument.parse) var from: UInt64?
    @Option(parsing: .unconditional, help: ArgumentHelp("The last seq on the page (default: the last one).", valueName: "seq"),
            transform: SeqArgument.parse) var to: UInt64?

    func validate() throws { try PathOption.check(output, "-o") }

    func run() throws {
        let ref = try SessionRef(parsing: session)
        if from == 0 { throw RouteLogError.usage("--from out of range: 0 (seqs start at 1)") }
        if let to, to < (from ?? 1) { throw RouteLogError.usage("--to \(to) is before --from \(from ?? 1)") }
        let page: ReportPage
        let progress = Progress("reading")
        defer { progress.finish() }
        page = try ReportPage.of(ref, in: store.workspace(), from: from, to: to, progress: progress)
        var extra: [String: JSONValue] = [:]
        if !page.runs.isEmpty { extra["runs"] = SessionJSON.runs(page.runs) }
        if from != nil || to != nil { extra["range"] = .object(["from": .int(Int64(page.first)), "to": .int(Int64(page.last))]) }
        let path = output ?? "routelog-report-\(page.fileID).html"
        try ReportFile.write(page.collector.page(header: page.header, openAt: ref.seq, extra: extra), to: path)
        progress.finish()
        Output.stdout().line(path)
    }
}
