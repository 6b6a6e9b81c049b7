import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore

/// `routelog export`: a session as a portable fixture file, or sessions as flat event rows.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a session as a portable fixture file, or sessions as JSON Lines for a query engine.",
        discussion: """
        --format fixture (the default) writes one SESSION's events (with their metadata) and an \
        expect block replayed with the current reducer. --redact replaces every string and number \
        inside route payloads (and notes) with a stable hash, keeping route ids, types, styles and \
        the shape of the payloads, so a tester can attach the file to a bug report; strings become \
        "redacted:" and a hash, numbers stay numbers (a hash below 10^9; a fraction stays a \
        fraction), so an app decoding its routes still reads them. Ids built from payloads \
        ("episode-303") leak what the payloads held: --redact-ids (which implies --redact) also \
        replaces every route id and tab id with "id-" and a hash of it. The same id gets the same \
        hash throughout the file and empty ids stay empty, so replaying the redacted file gives \
        the same outcomes and a state of the same shape. --no-times writes no event times and \
        no creation time, and names the session by its label rather than its id, so exporting \
        the same events again (a new recording of the same steps) gives the same bytes. The fixture's \
        name is the output file's name without .json (as in Fixtures/), or --name; the session's \
        label stays in the session header.

        --format events-jsonl writes one flat JSON object per event of each SESSION (or of every \
        session with --all): session, app, app_version, label, seq, time, origin, call_site, kind, \
        route_id, route_type, style, placement, token, outcome, reason, digest, and after the \
        event top_id, top_style, top_dismissible, depth and path_length; then the run that wrote \
        it: run, run_app_version, run_build, run_end (open, clean, crashed, suspended, unknown), and recovered (shown \
        from a crashed app's journal). app_version is the writing run's version (see RouteLogLMDB's Fleet export article). DuckDB \
        (read_json_auto), Spark and BigQuery read it as is.

        --format last-states writes one JSON object per SESSION (or per session with --all), \
        the corpus of a restore gate (RouteLogTesting's expectRestore(corpus:as:atLeast:)): \
        session, label, app, app_version (the version of the run that wrote the last event, else the \
        session's), session_app_version (the session's, which a restore hands to the migrations), \
        seq (the last seq, or N of REF@N), digest and state (the state after seq, as canonical JSON).

        --format divergences-jsonl writes one flat JSON object per divergence (what was on \
        screen and the state disagreeing, as routelog drift lists them) of each SESSION (or of \
        every session with --all): session, app, app_version, label, seq, head_seq, time, kind, \
        cause, route_id, tab, screen, screen_kind, visible_depth, state_depth and run.

        --label LABEL (repeatable) exports, in any JSON Lines format, the sessions with that \
        label instead of SESSIONs or every session; a LABEL ending in * takes every label that \
        starts with what comes before it ('scene *'). A store the app shares with its extensions \
        (or into which it moves their sessions) holds sessions whose routes are of another type: \
        a restore gate of the app's routes counts the app's own sessions, --label main (the label \
        the app's NewSession gives).

        -o - writes to stdout.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case fixture
        case eventsJSONL = "events-jsonl"
        case lastStates = "last-states"
        case divergencesJSONL = "divergences-jsonl"
    }

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (REF@N exports events 1...N); with a JSON Lines format, any number of them.") var sessions: [String] = []
    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write ('-' for stdout).", valueName: "file"), completion: .file(extensions: ["json"]))
    var output: String
    @Option(help: "The output format.") var format: Format = .fixture
    @Flag(help: "With events-jsonl, last-states or divergences-jsonl: every session in the store.") var all = false
    @Option(name: .customLong("label"),
            help: ArgumentHelp("With a JSON Lines format: the sessions with this label (repeatable; 'scene *' takes every label that starts with 'scene ').",
                               valueName: "label"))
    var labels: [String] = []
    @Option(help: "The fixture's name (default: the file name without .json; with -o -, the session's label).") var name: String?
    @Flag(help: "Replace payload strings and numbers with stable hashes.") var redact = false
    @Flag(name: .customLong("redact-ids"), help: "Also replace route ids and tab ids with stable hashes (implies --redact).") var redactIDs = false
    @OptionGroup var stable: StableFixtureOptions
    @Flag(help: "Print a JSON summary instead of a sentence.") var json = false

    func validate() throws {
        try PathOption.check(output, "-o")
        switch format {
        case .fixture:
            if all { throw ValidationError("--all needs --format events-jsonl or last-states") }
            if !labels.isEmpty { throw ValidationError("--label needs --format events-jsonl or last-states") }
            if sessions.count != 1 { throw ValidationError("give one SESSION to export as a fixture") }
        case .eventsJSONL, .lastStates, .divergencesJSONL:
            if all && !sessions.isEmpty { throw ValidationError("give SESSIONs or --all, not both") }
            if !labels.isEmpty && !sessions.isEmpty { throw ValidationError("give SESSIONs or --label, not both") }
            if !all && sessions.isEmpty && labels.isEmpty { throw ValidationError("give at least one SESSION, or --all") }
            if redact || redactIDs || name != nil || stable.noTimes {
                throw ValidationError("--redact, --redact-ids, --no-times and --name apply to --format fixture only")
            }
        }
    }

    func run() throws {
        if format == .eventsJSONL { return try exportEvents() }
        if format == .lastStates { return try exportLastStates() }
        if format == .divergencesJSONL { return try exportDivergences() }
        let s = try store.workspace().resolve(sessions[0])
        let fileName = output == "-" ? nil : URL(fileURLWithPath: output).deletingPathExtension().lastPathComponent
        let doc = try s.fixture(name: name ?? fileName, redact: redact, redactIDs: redactIDs, noTimes: stable.noTimes)
        let events = doc.events
        if output == "-" {
            writeStdout(doc.rendered())
            return
        }
        try doc.write(to: output)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "file": .string(output), "events": .int(Int64(events.count)), "digest": .string(doc.expect?.digest?.hex ?? ""),
                "redacted": .bool(redact || redactIDs), "idsRedacted": .bool(redactIDs),
            ]).canonicalText)
        } else {
            out.line("exported \(events.count) events of \(s.name) to \(output)"
                     + (redactIDs ? " (payloads redacted, ids hashed)" : redact ? " (payloads redacted)" : ""))
        }
    }
}

extension ExportCommand {
    /// The sessions to write in a JSON Lines format: those SESSION names, every session (`--all`),
    /// or those with a `--label`.
    func targets() throws(RouteLogError) -> [ResolvedSession] {
        let workspace = store.workspace()
        guard !labels.isEmpty else { return try workspace.resolve(sessions, all: all) }
        let every = try workspace.resolve([], all: true)
        let chosen = every.filter { s in labels.contains { Self.label(s.info.label, matches: $0) } }
        if chosen.isEmpty {
            let known = Set(every.map(\.info.label)).sorted().map { $0.isEmpty ? "(none)" : "'\(printableName($0))'" }
            let asked = labels.map { "'\(printableName($0))'" }.joined(separator: ", ")
            throw .unknownSession("no session labelled \(asked) in \(StoreAccess.path(store.store)) "
                                  + (known.isEmpty ? "(it has no sessions)" : "(its labels: \(known.joined(separator: ", ")))"))
        }
        return chosen
    }

    /// Whether `label` is `pattern`, or starts with what comes before a `pattern`'s final `*`.
    static func label(_ label: String, matches pattern: String) -> Bool {
        pattern.hasSuffix("*") ? label.hasPrefix(pattern.dropLast()) : label == pattern
    }

    /// `--format events-jsonl`: the rows of ``FleetRows``, streamed session by session.
    func exportEvents() throws {
        let targets = try targets()
        let sink = try JSONLSink(path: output)
        var rows: Int64 = 0
        // Not while the rows go to standard output (`-o -`), which may be the same terminal.
        let progress = Progress("exporting", total: Int(clamping: targets.reduce(UInt64(0)) { $0 + $1.seqOrHead }),
                                enabled: !json && output != "-")
        defer { progress.finish() }
        for s in targets {
            var replayer = Replayer()
            let marks = s.marks()
            try call {
                try s.log.read(s.id, from: 1, through: s.seqOrHead) { event in
                    replayer.apply(event.event)
                    sink.append(FleetRows.row(s.info, event, after: replayer.state, run: marks.runs.run(of: event.seq),
                                              recovered: marks.isJournaled(event.seq)).canonicalText)
                    rows += 1
                    progress.add()
                    return true
                }
            }
        }
        try sink.close()
        // Erased before the summary, which would otherwise be drawn after it on the same line.
        progress.finish()
        summarize(events: rows, sessions: targets.count)
    }

    /// `--format divergences-jsonl`: the rows of ``DivergenceRows``, session by session (a session
    /// whose screens never reported, or agreed, has none; a damaged screen record is a data error).
    func exportDivergences() throws {
        let targets = try targets()
        let sink = try JSONLSink(path: output)
        var rows: Int64 = 0
        for s in targets {
            let runs = s.marks().runs
            for (record, d) in try s.divergences() where record.headSeq <= s.seqOrHead {
                sink.append(DivergenceRows.row(s.info, record, d, run: runs.run(of: max(record.headSeq, 1))).canonicalText)
                rows += 1
            }
        }
        try sink.close()
        summarize(events: nil, sessions: targets.count, divergences: rows)
    }

    /// `--format last-states`: one line of ``LastStates`` per session.
    func exportLastStates() throws {
        let targets = try targets()
        let sink = try JSONLSink(path: output)
        for s in targets { sink.append(try LastStates.line(s).canonicalText) }
        try sink.close()
        summarize(events: nil, sessions: targets.count)
    }

    /// The line (or, with --json, the object) saying what was written to a file; nothing for `-o -`.
    private func summarize(events: Int64?, sessions: Int, divergences: Int64? = nil) {
        if output == "-" { return }
        let out = Output.stdout()
        let plural = sessions == 1 ? "" : "s"
        if json {
            var summary: [String: JSONValue] = ["file": .string(output), "sessions": .int(Int64(sessions))]
            if let events { summary["events"] = .int(events) }
            if let divergences { summary["divergences"] = .int(divergences) }
            out.line(JSONValue.object(summary).canonicalText)
        } else if let events {
            out.line("exported \(events) events of \(sessions) session\(plural) to \(output)")
        } else if let divergences {
            out.line("exported \(divergences) divergence\(divergences == 1 ? "" : "s") of \(sessions) session\(plural) to \(output)")
        } else {
            out.line("exported the last states of \(sessions) session\(plural) to \(output)")
        }
    }
}
