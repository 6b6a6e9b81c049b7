import ArgumentParser
import Foundation
import RouteLogCore

/// `routelog fixtures check|record`.
struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Check or record fixture files.",
        subcommands: [FixturesCheckCommand.self, FixturesRecordCommand.self]
    )

    /// The `.json` files named by `paths`; directories are searched recursively, in sorted order.
    /// A directory holding no `.json` file is an error (exit 1, "no fixtures found in DIR").
    static func expand(_ paths: [String]) throws(RouteLogError) -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { throw .usage("no such file or directory: \(path)") }
            if !isDir.boolValue {
                try refuseNonRegular(path)
                files.append(path)
                continue
            }
            guard let e = fm.enumerator(atPath: path) else { throw .data("cannot read directory: \(path)") }
            var found: [String] = []
            while let item = e.nextObject() as? String {
                if item.hasSuffix(".json") { found.append(path.hasSuffix("/") ? path + item : path + "/" + item) }
            }
            // A folder with nothing to check is a mistake (a CI step pointed at the wrong folder),
            // not a pass: "found bad", exit 1.
            if found.isEmpty { throw RouteLogError("no fixtures found in \(path)", code: Exit.different) }
            for file in found { try refuseNonRegular(file) }
            files += found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return files
    }

    /// A device, FIFO or socket (or a symlink to one) is refused before anything is opened:
    /// reading a FIFO blocks, a device may never end.
    static func refuseNonRegular(_ path: String) throws(RouteLogError) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) != S_IFREG {
            throw .data("cannot read file: \(path): not a regular file (a device, FIFO or socket); give a fixture or export file")
        }
    }
}

struct FixturesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay fixtures and compare outcomes, state and digest with their expect blocks.",
        discussion: """
        Prints a diff per mismatch and a closing line 'N passed, N failed'. --report DIR also writes \
        an HTML page per failing fixture (expected and actual outcomes, the state diff, the replay's \
        timeline at the first divergence). Exit status: 1 when any fails.
        """
    )

    @OptionGroup var fixtures: FixturePaths
    @Option(help: ArgumentHelp("Write an HTML page for each failing fixture into this directory.", valueName: "dir"))
    var report: String?

    func run() throws {
        let files = try fixtures.files()
        let out = Output.stdout()
        var passed = 0, failed = 0
        var results: [JSONValue] = []
        for file in files {
            var problems: [String] = []
            var diff: [String] = []
            var loaded: Fixture?
            do {
                let doc = try Fixture.load(file)
                loaded = doc
                (problems, diff) = Self.check(doc, out: out)
            } catch {
                problems = [error.message]
            }
            var page: String?
            if let report, let loaded, !problems.isEmpty { page = try FixtureReport.write(loaded, file: file, problems: problems, into: report) }
            if problems.isEmpty { passed += 1 } else { failed += 1 }
            if fixtures.json {
                var r: [String: JSONValue] = ["file": .string(file), "ok": .bool(problems.isEmpty), "problems": .array(problems.map(JSONValue.string))]
                if let page { r["report"] = .string(page) }
                results.append(.object(r))
            } else if !problems.isEmpty {
                out.line(out.paint("FAIL", .boldRed) + " \(file)")
                for p in problems { out.line("  " + p) }
                for d in diff { out.line("  " + d) }
                if let page { out.line("  report: \(page)") }
            }
        }
        if fixtures.json {
            out.line(JSONValue.object(["passed": .int(Int64(passed)), "failed": .int(Int64(failed)), "results": .array(results)]).canonicalText)
        } else {
            out.line("\(passed) passed, \(failed) failed")
        }
        out.flush()
        if failed > 0 { throw CommandResult.different }
    }

    /// The problems with one fixture, and the state diff when the state differs.
    static func check(_ doc: Fixture, out: Output) -> ([String], [String]) {
        guard doc.expect != nil else { return (["no expect block (record one with: routelog fixtures record FILE)"], []) }
        let result = doc.check()
        var problems: [String] = []
        var diff: [String] = []
        for m in result.mismatches {
            switch m {
            case .outcome(let i, let expected, let actual, let n):
                problems.append("events[\(i)] (seq \(i + 1), \(Render.event(doc.events[i].event))): expected \(expected), got \(actual)"
                    + (n > 1 ? " (\(n) outcomes differ; this is the first)" : ""))
            case .state(let expected, let actual):
                problems.append("state differs (expected → replayed):")
                diff = Diffing.text(expected, actual, out: out)
            default:
                problems.append(m.description)
            }
        }
        return (problems, diff)
    }
}

struct FixturesRecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Rewrite each fixture's expect block from a replay with the current reducer."
    )

    @OptionGroup var fixtures: FixturePaths

    func run() throws {
        let files = try fixtures.files()
        let docs = try files.map { f throws(RouteLogError) in (f, try Fixture.load(f)) }
        let out = Output.stdout()
        var changed = 0
        var results: [JSONValue] = []
        for (file, doc) in docs {
            let updated = doc.recorded()
            let original = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            let same = original == updated.rendered()
            if !same {
                try updated.write(to: file)
                changed += 1
            }
            if fixtures.json {
                results.append(.object(["file": .string(file), "changed": .bool(!same), "digest": .string(updated.expect?.digest?.hex ?? "")]))
            } else {
                out.line("\(same ? "unchanged" : "recorded ") \(file)  (\(doc.events.count) events, digest \(updated.expect?.digest?.short ?? "-"))")
            }
        }
        if fixtures.json {
            out.line(JSONValue.object(["recorded": .int(Int64(changed)), "results": .array(results)]).canonicalText)
        } else {
            out.line("\(changed) recorded, \(docs.count - changed) unchanged")
        }
    }
}

/// The arguments `fixtures check` and `fixtures record` share.
struct FixturePaths: ParsableArguments {
    @Argument(help: "Fixture files or directories.", completion: .file()) var paths: [String]
    @Flag(help: "Print the results as JSON.") var json = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one PATH") }
    }

    /// The fixture files the paths name (see ``FixturesCommand/expand(_:)``).
    func files() throws(RouteLogError) -> [String] { try FixturesCommand.expand(paths) }
}
