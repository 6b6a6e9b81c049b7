import ArgumentParser
import Foundation
import RouteLogCore

/// `routelog export`: a session as a portable fixture file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a session as a portable fixture file.",
        discussion: """
        Writes the events (with their metadata) and an expect block replayed with the current \
        reducer. --redact replaces every string and number inside route payloads (and notes) with \
        a stable hash, keeping route ids, types, styles and the shape of the payloads, so a tester \
        can attach the file to a bug report. -o - writes to stdout. The fixture's name is the \
        output file's name without .json (as in Fixtures/), or --name; the session's label stays \
        in the session header.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (REF@N exports events 1...N).") var session: String
    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write ('-' for stdout).", valueName: "file"), completion: .file(extensions: ["json"]))
    var output: String
    @Option(help: "The fixture's name (default: the file name without .json; with -o -, the session's label).") var name: String?
    @Flag(help: "Replace payload strings and numbers with stable hashes.") var redact = false
    @Flag(help: "Print a JSON summary instead of a sentence.") var json = false

    func run() throws {
        let s = try store.workspace().resolve(try parseRef(session))
        try s.requireEvents()
        var events = try call { try s.log.events(s.id, from: 1, through: s.seqOrHead) }.map(\.recorded)
        if redact { events = events.map(Redactor.redact) }
        let app = SessionsCommand.app(s.info)
        let fileName = output == "-" ? nil : URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
        let name = self.name ?? fileName ?? s.document?.name ?? (s.info.label.isEmpty ? s.id.rawValue : s.info.label)
        var description = s.document?.description ?? "Exported from session \(s.id.rawValue)" + (app == "-" ? "" : " (\(app))") + "."
        if redact { description += " Payloads redacted." }
        let header = s.document?.session ?? (s.document == nil
            ? Fixture.SessionHeader(label: s.info.label, app: s.info.appName, appVersion: s.info.appVersion, created: s.info.createdAt)
            : nil)
        let doc = Fixture(name: name, description: description, session: header, events: events, expect: Fixture.expectation(for: events))
        if output == "-" {
            writeStdout(doc.rendered())
            return
        }
        try doc.write(to: output)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "file": .string(output), "events": .int(Int64(events.count)), "digest": .string(doc.expect?.digest?.hex ?? ""), "redacted": .bool(redact),
            ]).canonicalText)
        } else {
            out.line("exported \(events.count) events of \(s.name) to \(output)" + (redact ? " (payloads redacted)" : ""))
        }
    }
}

/// Replaces payload strings and numbers with stable hashes; ids, types and styles are kept.
enum Redactor {
    static func redact(_ e: RecordedEvent) -> RecordedEvent {
        var meta = e.meta
        meta.note = meta.note.map(hash)
        return RecordedEvent(redact(e.event), meta: meta)
    }

    static func redact(_ e: Event) -> Event {
        switch e {
        case .push(let r, let f): .push(redact(r), frame: f)
        case .show(let r, let style, let d, let p): .show(redact(r), style: style, dismissible: d, placement: p)
        case .reset(let state): .reset(redact(state))
        default: e
        }
    }

    static func redact(_ r: RouteRef) -> RouteRef {
        RouteRef(id: r.id, type: r.type, payload: r.payload.map { RawJSON(redact($0.value)) })
    }

    static func redact(_ v: JSONValue) -> JSONValue {
        switch v {
        case .string(let s): .string(hash(s))
        case .int, .double: .string(hash(v.canonicalText))
        case .array(let a): .array(a.map(redact))
        case .object(let o): .object(o.mapValues(redact))
        case .null, .bool: v
        }
    }

    static func redact(_ f: Frame) -> Frame {
        var f = f
        f.path = f.path.map(redact)
        if var p = f.presented {
            p.route = redact(p.route)
            p.content = p.content.map(redact)
            f.presented = p
        }
        return f
    }

    static func redact(_ s: NavigationState) -> NavigationState {
        if let tabs = s.tabs {
            return NavigationState(tabs: tabs.map { Tab(id: $0.id, root: redact($0.root)) }, selectedTab: s.selectedTab ?? "")
        }
        return NavigationState(root: redact(s.root))
    }

    /// `redacted:` and 12 hex digits of a stable hash of the text.
    static func hash(_ text: String) -> String {
        var h = StableHasher()
        h.combine(text)
        return "redacted:" + h.finalize().short
    }
}
