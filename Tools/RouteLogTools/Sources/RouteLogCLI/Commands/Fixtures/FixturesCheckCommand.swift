import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

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

    func validate() throws { try PathOption.check(report, "--report") }

    func run() throws {
        let files = try FixturesCommand.expand(fixtures.paths)
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
        if failed > 0 { throw ExitCode.failure }
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
                problems.append("events[\(i)] (seq \(i + 1), \(EventText.describe(doc.events[i].event))): expected \(expected), got \(actual)"
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
