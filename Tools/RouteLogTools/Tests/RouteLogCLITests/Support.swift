import Foundation
@testable import RouteLogCLI
@_exported import RouteLogTestSupport
@_spi(Tools) import RouteLogCore
import Testing

/// What one run of the `routelog` binary gave.
struct CLIResult: CustomStringConvertible {
    var stdout: String
    var stderr: String
    var status: Int32

    var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// Runs `routelog` in this process, through the library's entry point, with its output captured.
enum InProcess {
    /// Runs `routelog args…` and returns its stdout, stderr and exit status. An argument `$/NAME`
    /// (`$/upsell.json@3`, `$/fx`) names `NAME` inside `dir`; `dir`'s path is removed from the
    /// output again, so that messages read as if the command ran inside `dir`. (The process's
    /// working directory is shared by the tests running at once, so it is left alone.)
    static func run(_ args: [String], in dir: TempDir? = nil,
                    reducer: NavigationState.Reducer = SessionVerifier.currentReducer) async -> CLIResult {
        let args = args.map { arg in
            guard let dir, arg.hasPrefix("$/") else { return arg }
            return dir.path(String(arg.dropFirst(2)))
        }
        let console = Console()
        let status = await Console.$capture.withValue(console) { await RouteLogCommand.execute(args, reducer: reducer) }
        func relative(_ text: String) -> String {
            guard let dir else { return text }
            return text.replacingOccurrences(of: dir.url.path + "/", with: "")
        }
        return CLIResult(stdout: relative(console.stdout), stderr: relative(console.stderr), status: status)
    }
}

/// Runs the built `routelog` binary end to end.
enum CLI {
    /// The binary: next to the test bundle (`.build/<config>/`), else `.build/debug/routelog` in the tools' package.
    static let binary: URL = {
        let fm = FileManager.default
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("routelog"))
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(toolsRoot.appendingPathComponent(".build/debug/routelog"))
        return candidates.first { fm.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// The repository (this file is Tools/RouteLogTools/Tests/RouteLogCLITests/Support.swift): Fixtures/, CHANGELOG.md.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../../..").standardized
    /// The tools' package, whose .build holds `routelog`.
    static let toolsRoot: URL = URL(fileURLWithPath: #filePath).appendingPathComponent("../../..").standardized

    /// Runs `routelog args…` in `cwd` with a clean environment (no NO_COLOR, store or recording
    /// switch inherited) plus `env`; stdin from `stdin`. Waits for the process without holding a
    /// thread (``Child/run(_:_:environment:unsetting:directory:stdin:output:timeout:)``), so that
    /// other tests run meanwhile.
    static func run(_ args: [String], cwd: URL? = nil, env: [String: String] = [:], stdin: String? = nil,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLIResult {
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "routelog is not built at \(binary.path): run `swift build` first", sourceLocation: sourceLocation)
        let r = try await Child.run(binary.path, args, environment: ["COLUMNS": "100"].merging(env) { $1 },
                                    unsetting: ["NO_COLOR", "ROUTELOG_STORE", "ROUTELOG_RECORD"], directory: cwd,
                                    stdin: stdin.map { .text($0) } ?? .empty)
        return CLIResult(stdout: r.stdout, stderr: r.stderr, status: r.status)
    }

    /// Expects a one-line error on stderr, `routelog: …` containing `fragment`, nothing on stdout, and `status`.
    static func expectError(_ r: CLIResult, status: Int32, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(r)", sourceLocation: sourceLocation)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line on stderr: \(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("routelog: "), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(fragment), "expected \(fragment.debugDescription) in stderr: \(r)", sourceLocation: sourceLocation)
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
    }
}

/// Golden files under `Tests/RouteLogCLITests/Golden/`, rewritten when `ROUTELOG_RECORD=1` or missing.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        let record = ProcessInfo.processInfo.environment["ROUTELOG_RECORD"] == "1"
        if record || !FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            print("recorded golden file \(name)")
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected != actual {
            let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
            var diff: [String] = []
            for i in 0..<max(a.count, b.count) where (i < a.count ? String(a[i]) : nil) != (i < b.count ? String(b[i]) : nil) {
                if i < a.count { diff.append("-\(i + 1): \(a[i])") }
                if i < b.count { diff.append("+\(i + 1): \(b[i])") }
                if diff.count > 20 { break }
            }
            Issue.record("golden \(name) differs (re-record with ROUTELOG_RECORD=1):\n\(diff.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
    }
}

extension TempDir {
    /// Writes a session file (fixture format, no expect block unless `expect`).
    func writeSession(_ name: String, _ events: [RecordedEvent], label: String = "", expect: Bool = false) throws {
        try write(name, Sessions.text(events, name: label.isEmpty ? name : label, expect: expect))
    }
}

/// Sessions the tests replay, with timestamps the tests set (no wall clock in any output).
enum Sessions {
    static let t0: Int64 = 1_795_000_000_000

    static func at(_ ms: Int64, _ origin: Origin = .app, site: String? = nil, note: String? = nil) -> EventMetadata {
        let callSite = site.map { s -> CallSite in
            let parts = s.split(separator: ":")
            return CallSite(file: String(parts[0]), line: Int(parts[1])!)
        }
        return EventMetadata(timestamp: t0 + ms, origin: origin, callSite: callSite, note: note)
    }

    /// "The upsell sheet came back after I closed it": a mail app with a composer and an upsell.
    static let upsell: [RecordedEvent] = [
        RecordedEvent(.push(RouteRef(id: "inbox")), meta: at(0, site: "InboxView.swift:12")),
        RecordedEvent(.push(RouteRef(id: "thread-42", type: "Route.thread", payload: RawJSON(.object(["id": .int(42), "subject": .string("Lunch?")])))),
                      meta: at(1_250, .user, site: "InboxView.swift:40")),
        RecordedEvent(.show(RouteRef(id: "composer"), style: .sheet), meta: at(3_000, .user, site: "ThreadView.swift:88")),
        RecordedEvent(.push(RouteRef(id: "attachments")), meta: at(4_500, .user, site: "ComposerView.swift:31")),
        RecordedEvent(.show(RouteRef(id: "upsell"), style: .sheet, dismissible: false, placement: .onTop), meta: at(5_000, .app, site: "Paywall.swift:7")),
        RecordedEvent(.interactiveDismiss(), meta: at(7_100, .user, note: "swipe down")),
        RecordedEvent(.dismiss(.top), meta: at(8_000, .app, site: "Paywall.swift:19")),
        RecordedEvent(.interactiveDismiss(token: 5), meta: at(8_020, .system, note: "late nil write")),
        RecordedEvent(.show(RouteRef(id: "upsell"), style: .sheet, dismissible: false, placement: .onTop), meta: at(9_500, .app, site: "Paywall.swift:7")),
        RecordedEvent(.pop(), meta: at(10_000, .user, site: "ComposerView.swift:50")),
    ]

    /// The fixture text: one event per line; with `expect`, an expect block from a replay.
    static func text(_ events: [RecordedEvent], name: String, expect: Bool) -> String {
        var out = "{\n  \"format\": \"routelog-fixture/1\",\n  \"name\": \(JSONValue.string(name).canonicalText),\n  \"description\": \"\",\n"
        out += "  \"events\": [\n" + events.map { "    " + $0.json.canonicalText }.joined(separator: ",\n") + "\n  ]"
        if expect {
            let r = replay(events.map(\.event))
            out += ",\n  \"expect\": {\n    \"outcomes\": [" + r.steps.map { $0.outcome.json.canonicalText }.joined(separator: ", ") + "],\n"
            out += "    \"state\": \(r.state.json.canonicalText),\n    \"digest\": \"\(r.state.digest.hex)\"\n  }"
        }
        return out + "\n}\n"
    }

    /// A generated session with timestamps 100 ms apart.
    static func generated(seed: UInt64, count: Int, mix: SessionGenerator.Mix = .realistic) -> [RecordedEvent] {
        generatedEvents(count, seed: seed, mix: mix) { at(Int64($0) * 100) }
    }
}

extension String {
    /// Parses one line of canonical JSON output.
    func json(sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try JSONValue(parsing: trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Parses JSON Lines output: one object a line.
    func jsonObjectLines() throws -> [[String: JSONValue]] {
        try split(separator: "\n").map { try #require(try String($0).json().objectValue) }
    }
}

/// A suite whose tests run `routelog` in-process on the files in its own directory.
protocol InProcessSuite {
    var dir: TempDir { get }
    /// The suite over `dir` (a suite's memberwise initializer).
    init(dir: TempDir)
    /// The directory each test of the suite starts in, made again for each test: an empty one
    /// unless the suite says otherwise.
    static func directory() throws -> TempDir
}

extension InProcessSuite {
    /// A suite over a new ``directory()``: Swift Testing makes one for each test.
    init() throws { self.init(dir: try Self.directory()) }

    static func directory() throws -> TempDir { try TempDir() }

    /// Runs `routelog args…` in-process; `$/NAME` names `NAME` in ``dir``.
    func run(_ args: [String]) async -> CLIResult { await InProcess.run(args, in: dir) }
}

/// A suite whose tests start in a directory holding `upsell.json` (``TempDir/withUpsell()``).
protocol UpsellSuite: InProcessSuite {}

extension UpsellSuite {
    static func directory() throws -> TempDir { try .withUpsell() }
}

extension TempDir {
    /// A new directory holding `upsell.json`: ``Sessions/upsell``, labelled "upsell".
    static func withUpsell() throws -> TempDir {
        let dir = try TempDir()
        try dir.writeSession("upsell.json", Sessions.upsell, label: "upsell")
        return dir
    }

    /// A new directory holding `upsell.json` and `name`, `events` labelled `label`.
    static func withUpsell(adding name: String, _ events: [RecordedEvent], label: String) throws -> TempDir {
        let dir = try withUpsell()
        try dir.writeSession(name, events, label: label)
        return dir
    }

    /// Writes `with-header.json`: this directory's `upsell.json` with a session header (label
    /// "Upsell came back", app "Mailer", version "5.1 (88)", created 2026-11-20T09:30:00.000Z).
    func writeUpsellWithHeader() throws {
        let text = try read("upsell.json").replacingOccurrences(of: "  \"events\": [", with: """
          "session": {"label": "Upsell came back", "app": "Mailer", "appVersion": "5.1 (88)", "created": "2026-11-20T09:30:00.000Z"},
          "events": [
        """)
        try write("with-header.json", text)
    }
}
