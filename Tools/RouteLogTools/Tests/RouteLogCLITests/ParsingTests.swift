import ArgumentParser
import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import Testing

/// Parsing the command line, in-process, the way swift-argument-parser tests its own commands:
/// `parseAsRoot` for what a command line means, `message(for:)` / `exitCode(for:)` for what a bad
/// one says, and the help texts against the golden files.
struct ParsingTests {
    func parse<C: ParsableCommand>(_ args: [String], as: C.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> C {
        let command = try RouteLogCommand.parseAsRoot(args)
        return try #require(command as? C, "\(args) parsed as \(type(of: command))", sourceLocation: sourceLocation)
    }

    @Test func commandsAndTheirOptions() throws {
        let bisect = try parse(["bisect", "latest~2@40", "--predicate", "depth > 1", "--linear", "--store", "st"], as: BisectCommand.self)
        #expect(bisect.session == "latest~2@40" && bisect.predicate == "depth > 1" && bisect.command == nil)
        #expect(bisect.linear && !bisect.json && bisect.store.store == "st")
        let run = try parse(["bisect", "x.json", "--run", "test $ROUTELOG_SEQ -lt 3", "--json"], as: BisectCommand.self)
        #expect(run.command == "test $ROUTELOG_SEQ -lt 3" && run.predicate == nil && run.json && !run.linear)

        let log = try parse(["log", "abc", "--from", "3", "--to", "9", "--follow"], as: LogCommand.self)
        #expect(log.session == "abc" && log.from == 3 && log.to == 9 && log.follow && !log.json)
        let state = try parse(["state", "latest", "--at", "0", "--json"], as: StateCommand.self)
        #expect(state.at == 0 && state.json)
        let diff = try parse(["diff", "a.json@1", "b.json", "--events"], as: DiffCommand.self)
        #expect(diff.a == "a.json@1" && diff.b == "b.json" && diff.events && !diff.json)
        let verify = try parse(["verify", "--all", "--json"], as: VerifyCommand.self)
        #expect(verify.all && verify.json && verify.sessions.isEmpty)
        let minimize = try parse(["minimize", "latest", "--predicate", "invalid", "-o", "m.json", "--name", "crash"], as: MinimizeCommand.self)
        #expect(minimize.output == "m.json" && minimize.name == "crash")
        let export = try parse(["export", "latest", "--output", "-", "--redact"], as: ExportCommand.self)
        #expect(export.output == "-" && export.redact)
        let imported = try parse(["import", "a.json", "b.json", "--label", "QA"], as: ImportCommand.self)
        #expect(imported.files == ["a.json", "b.json"])
        let check = try parse(["fixtures", "check", "Fixtures", "extra.json", "--json"], as: FixturesCheckCommand.self)
        #expect(check.fixtures.paths == ["Fixtures", "extra.json"] && check.fixtures.json)
        let record = try parse(["fixtures", "record", "Fixtures"], as: FixturesRecordCommand.self)
        #expect(record.fixtures.paths == ["Fixtures"] && !record.fixtures.json)
        _ = try parse(["sessions", "--json"], as: SessionsCommand.self)
    }

    @Test(arguments: [
        (["frobnicate"], "Unexpected argument 'frobnicate'"),
        (["log"], "Missing expected argument '<session>'"),
        (["state", "x.json", "--at", "minus"], "The value 'minus' is invalid for '--at <at>'"),
        (["log", "x.json", "--from"], "Missing value for '--from <from>'"),
        (["diff"], "Missing expected argument '<a>'"),
        (["verify"], "give SESSION… or --all"),
        (["verify", "--all", "x.json"], "give SESSION… or --all, not both"),
        (["minimize", "x.json", "--predicate", "depth > 1"], "Missing expected argument '--output <file>'"),
        (["fixtures", "check"], "Missing expected argument '<paths> ...'"),
        (["sessions", "--colour"], "Unknown option '--colour'"),
    ])
    func badCommandLines(_ args: [String], _ message: String) throws {
        do {
            let command = try RouteLogCommand.parseAsRoot(args)
            Issue.record("\(args) parsed as \(command)")
        } catch {
            #expect(RouteLogCommand.message(for: error).contains(message), "\(args): \(RouteLogCommand.message(for: error))")
            #expect(RouteLogCommand.exitCode(for: error) == .validationFailure)
        }
    }

    @Test func badCommandLinesExitTwoWithOneLine() async throws {
        CLI.expectError(await InProcess.run(["log", "x.json", "--from"]), status: 2,
                        "routelog: usage: Missing value for '--from <from>' (see 'routelog help')")
    }

    @Test func helpAndVersionExitZero() async throws {
        let help = await InProcess.run(["help", "bisect"])
        #expect(help.status == 0 && help.stderr.isEmpty, "\(help)")
        #expect(help.stdout.hasPrefix("OVERVIEW: Find the first seq where a predicate holds"), "\(help)")
        let version = await InProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout == "0.1.0\n", "\(version)")
        for shell in ["zsh", "fish"] {
            let r = await InProcess.run(["--generate-completion-script", shell])
            #expect(r.status == 0, "\(r)")
            #expect(r.stdout.contains("routelog") && r.stdout.contains("bisect") && r.stdout.contains("fixtures"), "\(shell)")
        }
    }

    static var commands: [(String, any ParsableCommand.Type)] {[
        ("routelog", RouteLogCommand.self), ("sessions", SessionsCommand.self), ("log", LogCommand.self), ("state", StateCommand.self),
        ("diff", DiffCommand.self), ("bisect", BisectCommand.self), ("verify", VerifyCommand.self), ("minimize", MinimizeCommand.self),
        ("export", ExportCommand.self), ("import", ImportCommand.self), ("fixtures", FixturesCommand.self),
        ("fixtures-check", FixturesCheckCommand.self), ("fixtures-record", FixturesRecordCommand.self),
        ("report", ReportCommand.self), ("serve", ServeCommand.self), ("repro", ReproCommand.self), ("mcp", MCPCommand.self),
        ("drift", DriftCommand.self),
    ]}

    @Test(arguments: ["routelog", "sessions", "log", "state", "diff", "bisect", "verify", "minimize", "export", "import",
                      "fixtures", "fixtures-check", "fixtures-record", "report", "serve", "repro", "mcp", "drift"])
    func helpMatchesGolden(_ name: String) throws {
        let command = try #require(Self.commands.first { $0.0 == name }?.1)
        // The width the end-to-end tests give the binary (COLUMNS=100).
        let text = RouteLogCommand.helpMessage(for: command, columns: 100)
        try Golden.check(text.hasSuffix("\n") ? text : text + "\n", "help-\(name).txt")
    }

    @Test func rootHelpDocumentsExitCodesSessionsAndStore() {
        let text = RouteLogCommand.helpMessage(for: RouteLogCommand.self, columns: 100)
        for fragment in ["0  ok, or equal", "1  different, failed, or found bad", "2  usage error", "3  data error",
                         "latest~N", "REF@N", "FILE.json", "$ROUTELOG_STORE", "./.routelog", "NO_COLOR"] {
            #expect(text.contains(fragment), "missing \(fragment)")
        }
    }

    @Test func bisectHelpDocumentsThePredicateLanguage() {
        let text = RouteLogCommand.helpMessage(for: BisectCommand.self, columns: 100)
        for field in RouteLogCLI.Predicate.Field.allCases.map(\.rawValue) + ["contains", "&&", "||", "ROUTELOG_SEQ", "125"] {
            #expect(text.contains(field), "missing \(field)")
        }
    }
}

/// Session references as the user writes them.
struct SessionRefTests {
    @Test(arguments: [
        ("latest", SessionRef.Base.latest(back: 0), nil as UInt64?),
        ("latest~3", .latest(back: 3), nil),
        ("latest@12", .latest(back: 0), 12),
        ("latest~1@0", .latest(back: 1), 0),
        ("01a2b3", .id("01a2b3"), nil),
        ("01a2b3@7", .id("01a2b3"), 7),
        ("upsell.json", .file("upsell.json"), nil),
        ("Fixtures/upsell.json@4", .file("Fixtures/upsell.json"), 4),
        ("dir/no-extension", .file("dir/no-extension"), nil),
        ("odd@name.json", .file("odd@name.json"), nil),
        ("odd@name.json@2", .file("odd@name.json"), 2),
        ("#12", .entry(12), nil),
        ("#1@0", .entry(1), 0),
    ])
    func parses(_ text: String, _ base: SessionRef.Base, _ seq: UInt64?) throws {
        let ref = try SessionRef(parsing: text)
        #expect(ref.base == base && ref.seq == seq && ref.text == text, "\(text)")
    }

    @Test(arguments: [
        ("latest@x", "bad session reference 'latest@x': expected a seq number after '@'"),
        ("latest@", "bad session reference 'latest@': expected a seq number after '@'"),
        ("@3", "bad session reference '@3': empty"),
        ("latest~x", "bad session reference 'latest~x': expected a number after 'latest~'"),
        ("latest~-1", "bad session reference 'latest~-1': expected a number after 'latest~'"),
        ("abc@99999999999999999999", "seq out of range: 99999999999999999999 in 'abc@99999999999999999999'"),
        ("#0", "bad session reference '#0': expected an entry number after '#' (the # column of 'routelog sessions', from 1)"),
        ("#-2", "bad session reference '#-2': expected an entry number after '#' (the # column of 'routelog sessions', from 1)"),
        ("#1a", "bad session reference '#1a': expected an entry number after '#' (the # column of 'routelog sessions', from 1)"),
    ])
    func rejects(_ text: String, _ message: String) {
        do {
            let ref = try SessionRef(parsing: text)
            Issue.record("\(text) parsed as \(ref.base)")
        } catch {
            #expect(error.message == message && error.cause == .usage, "\(text): \(error)")
        }
    }
}
