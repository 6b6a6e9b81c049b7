import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// The built `routelog` binary, run as a process: what only a process shows (exit statuses, the
/// two streams, the environment and working directory, a terminal, a closed pipe) and a few
/// whole runs. Parsing, predicates, references and renderings are tested in-process.
struct EndToEndTests {
    let dir: TempDir

    init() throws {
        dir = try .withUpsell()
        try dir.writeSession("empty.json", [], label: "empty")
    }

    func run(_ args: [String], env: [String: String] = [:]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url, env: env) }

    @Test func helpAndCompletion() async throws {
        let r = try await run(["--help"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        try Golden.check(r.stdout, "help-routelog.txt")
        let check = try await run(["fixtures", "check", "--help"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check)")
        try Golden.check(check.stdout, "help-fixtures-check.txt")
        let bash = try await run(["--generate-completion-script", "bash"])
        #expect(bash.status == 0, "\(bash)")
        #expect(bash.stdout.contains("routelog") && bash.stdout.contains("bisect") && bash.stdout.contains("fixtures"))
    }

    @Test func eachExitStatusWithOneLineOnStderr() async throws {
        // 0: ok, with the answer on stdout only.
        let ok = try await run(["log", "upsell.json"])
        #expect(ok.status == 0 && ok.stderr.isEmpty && !ok.stdout.isEmpty, "\(ok)")
        try Golden.check(ok.stdout, "log-upsell.txt")
        // 1: different.
        let different = try await run(["diff", "upsell.json@4", "upsell.json@5"])
        #expect(different.status == 1 && different.stderr.isEmpty, "\(different)")
        try Golden.check(different.stdout, "diff-upsell-4-5.txt")
        // 2: usage, from the parser and from a command.
        CLI.expectError(try await run(["frobnicate"]), status: 2, "usage: Unexpected argument 'frobnicate'")
        CLI.expectError(try await run(["state", "upsell.json@11"]), status: 2, "seq out of range: 11 (session upsell.json has 10 events)")
        CLI.expectError(try await run(["bisect", "upsell.json", "--predicate", "top.id =="]), status: 2, "predicate: column 10:")
        // 3: data.
        CLI.expectError(try await run(["export", "empty.json", "-o", "x.json"]), status: 3, "empty session: empty.json has no events")
    }

    @Test func theFixtureCorpusPasses() async throws {
        let corpus = CLI.packageRoot.appendingPathComponent("Fixtures")
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".json") }
        try #require(!files.isEmpty, "no fixtures in \(corpus.path)")
        let r = try await CLI.run(["fixtures", "check", "Fixtures"], cwd: CLI.packageRoot)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "\(files.count) passed, 0 failed\n", "\(r)")
        let v = try await CLI.run(["verify"] + files.sorted().map { "Fixtures/\($0)" }, cwd: CLI.packageRoot)
        #expect(v.status == 0 && v.stdout.hasSuffix("\(files.count) ok, 0 failed\n"), "\(v)")
    }

    @Test func theStoreComesFromTheOptionTheEnvironmentOrTheWorkingDirectory() async throws {
        CLI.expectError(try await run(["sessions", "--store", "missing-store"]), status: 3, "not a store: missing-store")
        CLI.expectError(try await run(["log", "latest"], env: ["ROUTELOG_STORE": "missing-env-store"]), status: 3, "not a store: missing-env-store")
        CLI.expectError(try await run(["log", "latest"]), status: 3, "not a store: ./.routelog")
        #expect(!FileManager.default.fileExists(atPath: dir.path(".routelog")), "reading never creates a store")
        // Relative file references are read from the working directory.
        #expect(try await run(["state", "upsell.json", "--store", "missing-store"]).status == 0)
    }

    @Test func aRunCommandsOutputGoesToStderr() async throws {
        // The command's own output goes to stderr, so --json stays parseable.
        let noisy = try await run(["bisect", "upsell.json", "--json", "--run", #"echo judging $ROUTELOG_SEQ; test "$ROUTELOG_SEQ" -lt 5"#])
        #expect(noisy.status == 1, "\(noisy)")
        #expect(try noisy.stdout.json()["seq"]?.intValue == 5, "\(noisy)")
        #expect(noisy.stderr.contains("judging 10"), "\(noisy)")
    }

    @Test func aClosedPipeOrAFullDiskIsNotACrash() async throws {
        try dir.writeSession("big.json", Sessions.generated(seed: 2, count: 2_000, mix: .deepPath))
        let piped = try await Child.run("/bin/bash", ["-c", "set -o pipefail; '\(CLI.binary.path)' log big.json | head -1 >/dev/null; echo status=$?"],
                                        directory: dir.url)
        let o = piped.stdout, e = piped.stderr
        #expect(o == "status=0\n", "routelog | head ends quietly: \(o) \(e)")
        #expect(e.isEmpty, "no crash report: \(e)")
        if FileManager.default.fileExists(atPath: "/dev/full") {
            let full = try await Child.run("/bin/sh", ["-c", "'\(CLI.binary.path)' log big.json > /dev/full"], directory: dir.url)
            let fe = full.stderr
            #expect(full.status == 3)
            #expect(fe == "routelog: cannot write output: No space left on device\n", "\(fe)")
        }
    }

    @Test func colorsOnlyOnATerminalAndNeverWithNoColor() async throws {
        // `script` gives the command a pseudo-terminal.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script (util-linux) is missing")
        let cmd = "\(CLI.binary.path) log upsell.json"
        func viaScript(_ env: [String: String]) throws -> String {
            try Child(path: "/usr/bin/script", ["-qec", cmd, "/dev/null"], environment: env, unsetting: ["NO_COLOR"],
                      directory: dir.url, stdin: .empty, output: .separate).wait().stdout
        }
        let colored = try viaScript([:])
        #expect(colored.contains("\u{1B}[1;31mrejected:notDismissible"), "\(colored)")
        let plain = try viaScript(["NO_COLOR": "1"])
        #expect(plain.contains("rejected:notDismissible") && !plain.contains("\u{1B}["), "\(plain)")
    }
}
