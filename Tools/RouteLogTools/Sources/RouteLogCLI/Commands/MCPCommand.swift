import ArgumentParser
import Foundation

/// `routelog mcp`: runs `routelog-mcp`, found beside this program (as `routelog serve` runs
/// `routelog-serve`), so the CLI itself does not link the MCP SDK.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the store's sessions to AI agents over the Model Context Protocol (stdio).",
        discussion: """
        Speaks MCP on stdin/stdout until the client closes it. Read-only tools: list_sessions, \
        get_events, get_state, diff, blame, lifetimes, bisect, minimize, reproduce_crash, verify, export, \
        list_divergences; resources \
        routelog://sessions, routelog://sessions/ID/events, routelog://sessions/ID/state/N; prompts \
        diagnose_navigation_bug and write_regression_test. No answer is over 80 KB: longer ones \
        page with a cursor. export redacts payloads unless --unredacted is given. A session argument \
        names a session of the store, never a file, unless --fixtures DIR is given: then also the \
        fixture and export files inside DIR. \
        Runs the routelog-mcp program installed beside routelog.
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Let the export tool return payloads as recorded (default: redacted).") var unredacted = false
    @Option(help: ArgumentHelp("Also serve the fixture and export files in this folder (default: the store's sessions only).", valueName: "dir"),
            completion: .directory)
    var fixtures: String?

    func validate() throws { try PathOption.check(fixtures, "--fixtures") }

    func run() throws {
        let program = try ServeCommand.siblingPath("routelog-mcp")
        let args = [program, "--store", StoreAccess.path(store.store)] + (unredacted ? ["--unredacted"] : []) + (fixtures.map { ["--fixtures", $0] } ?? [])
        var cArgs = args.map { strdup($0) } + [nil]
        execv(program, &cArgs)
        throw RouteLogError(.io, "cannot run \(program): \(String(cString: strerror(errno)))")
    }
}
