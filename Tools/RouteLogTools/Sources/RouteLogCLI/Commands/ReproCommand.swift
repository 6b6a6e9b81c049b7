import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

/// `routelog repro`: a run that crashed, as a fixture and a failing-first test.
struct ReproCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repro",
        abstract: "Write a crashed run as a fixture and a Swift Testing test.",
        discussion: """
        Writes into DIR (created if missing) the run's fixture, NAME.json: events that rebuild the \
        state the run started from (origin system), then the run's own events, with an expect \
        block; and NAME.swift, a Swift Testing test that replays it (expectReplay) and states \
        what was on screen when the run ended. The test names the fixture as NAME.json, beside \
        it, whatever DIR is: keep the two files together in the app's test target (expectReplay \
        looks in the working directory, then in the test file's directory and each one above it). The run is the session's last crashed run unless \
        --run N names another (any end: crashed, suspended, clean, open). --shortest also writes \
        NAME-shortest.json: the fewest of the session's events, from its start, that reach the \
        same screens (the same presentation chain and stacks; delta debugging), the path a UI \
        test or a person takes to the screen. With --route-type TYPE (and --module, the app's \
        module that declares it) the test also restores the state with today's routes and \
        migrations (expectRestore). NAME defaults to END-run-N-PREFIX (crashed-run-3-01a2f3b4). \
        Existing files are replaced.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (id, prefix, latest, latest~N, #N).") var session: String
    @Option(name: .customLong("run"), help: ArgumentHelp("The run to reproduce (default: the last crashed run).", valueName: "n"))
    var runNumber: Int?
    @Option(name: .shortAndLong, help: ArgumentHelp("The directory to write into.", valueName: "dir"), completion: .directory)
    var output: String
    @Option(help: "The fixture's and the files' name (default: END-run-N-PREFIX).") var name: String?
    @Flag(help: "Also write the shortest event sequence from the session's start that reaches the same screens.") var shortest = false
    @Option(name: .customLong("route-type"), help: ArgumentHelp("The app's Routable type, for a test that restores the state.", valueName: "type"))
    var routeType: String?
    @Option(help: ArgumentHelp("The app's module that declares the route type (@testable import).", valueName: "module")) var module: String?
    @Flag(help: "Print a JSON object instead of lines.") var json = false

    func validate() throws {
        try PathOption.check(output, "-o")
        if let name {
            // The name is a file name and, camel-cased, the test's function name.
            if name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) {
                throw ValidationError("--name must be letters, digits, - and _, not \(quoted(name)); use a name like CrashRepro")
            }
            if SwiftSource.keywords.contains(name) {
                throw ValidationError("--name \(quoted(name)) is a Swift keyword; use a name like CrashRepro")
            }
            if !(name.first?.isLetter ?? false) {
                throw ValidationError("--name \(quoted(name)) does not start with a letter; use a name like CrashRepro")
            }
        }
        if let routeType, let problem = SwiftSource.typePathProblem(routeType) {
            throw ValidationError("--route-type \(quoted(routeType)) \(problem); give the app's Routable type, like Screen or MyApp.Screen")
        }
        if let module, let problem = SwiftSource.identifierProblem(module) {
            throw ValidationError("--module \(quoted(module)) \(problem); a module name is one identifier, like MyApp")
        }
        if module != nil && routeType == nil { throw ValidationError("--module goes with --route-type") }
    }

    /// A value the user typed, quoted for an error line.
    private func quoted(_ value: String) -> String { "'\(printableName(value))'" }

    func run() throws {
        let s = try store.workspace().resolve(session)
        var r = try RunReproduction(s, run: runNumber, name: name, shortest: shortest)
        if shortest {
            let progress = Progress("searching the shortest path", total: Reproduction.shortestBudget, unit: "events folded",
                                    stride: 1, enabled: !json)
            defer { progress.finish() }
            try r.findShortest { folds, _ in progress.update(folds) }
        }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDir), !isDir.boolValue {
            throw RouteLogError.usage("bad -o \(printable(output)): a file, not a directory")
        }
        do { try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
            throw RouteLogError(.io, "cannot create \(output): \(oneLine(error.localizedDescription))")
        }
        let fixturePath = (output as NSString).appendingPathComponent(r.name + ".json")
        let testPath = (output as NSString).appendingPathComponent(r.name + ".swift")
        try r.fixture.write(to: fixturePath)
        do {
            // The test names the fixture relative to itself, never by the path given to -o.
            try Data(r.test(fixture: .besideTheTest, routeType: routeType, module: module).utf8).write(to: URL(fileURLWithPath: testPath), options: .atomic)
        } catch {
            throw RouteLogError(.io, "cannot write \(testPath): \(oneLine(error.localizedDescription))")
        }
        var written = [fixturePath, testPath]
        if let doc = r.shortestFixture {
            let path = (output as NSString).appendingPathComponent(doc.name + ".json")
            try doc.write(to: path)
            written.append(path)
        }
        let out = Output.stdout()
        if json {
            var o = r.json
            o["files"] = .array(written.map(JSONValue.string))
            out.line(JSONValue.object(o).canonicalText)
            return
        }
        out.line("run \(r.run.number) of \(s.id.rawValue) ended \(r.run.end.name) after seq \(r.lastSeq)")
        out.line("on screen: " + out.paint(r.screens.description, .cyan))
        if shortest {
            if let short = r.shortest {
                out.line("shortest path: \(short.elements.count) of \(r.lastSeq) events")
                if let note = r.shortestNote { out.line(note) }
                for (i, e) in short.elements.enumerated() { out.line("  \(i + 1). \(EventText.describe(e.event))  (was seq \(short.indices[i] + 1))") }
            } else {
                out.line("shortest path: none (no prefix of the session reaches these screens)")
            }
        }
        for path in written { out.line("wrote \(path)") }
    }
}
