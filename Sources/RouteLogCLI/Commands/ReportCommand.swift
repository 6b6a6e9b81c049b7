import ArgumentParser
import Foundation
import RouteLogCore
import RouteLogTimeline

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
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, FILE.json; REF@N opens at N).") var session: String
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The HTML file to write.", valueName: "file.html"))
    var output: String?

    func run() throws {
        let ref = try parseRef(session)
        let s = try store.workspace().resolve(ref)
        let events = try call { try s.log.events(s.id, from: 1, through: s.info.eventCount) }
        var header = Timeline.Header(s.info)
        if let doc = s.document {
            // A file's session: its own header fields, when it has them.
            header.session = s.name
            header.label = doc.session?.label ?? doc.name
            header.app = doc.session?.app
            header.version = doc.session?.appVersion
            header.created = doc.session?.created
        }
        let timeline = Timeline.build(header: header, events: events, openAt: ref.seq)
        let path = output ?? "routelog-report-\(s.document == nil ? String(s.id.rawValue.prefix(13)) : "file").html"
        // The runs of a store's session, marked on the page's scrubber.
        let runs = s.document == nil ? (try? (s.log as? any JournalingEventLog)?.runs(of: s.id)) ?? [] : []
        try ReportFile.write(runs.isEmpty ? timeline.html() : timeline.html(extra: ["runs": TimelineRuns.json(runs)]), to: path)
        Output.stdout().line(path)
    }
}

/// Writing report pages.
enum ReportFile {
    /// Writes `html` to `path` atomically (a reader never sees half a page).
    static func write(_ html: String, to path: String) throws(CLIError) {
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .data("cannot write \(path): \(oneLine(error.localizedDescription))")
        }
    }
}
