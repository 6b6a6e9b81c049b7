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
        get_events, get_state, diff, blame, lifetimes, bisect, minimize, verify, export; resources \
        routelog://sessions, routelog://sessions/ID/events, routelog://sessions/ID/state/N; prompts \
        diagnose_navigation_bug and write_regression_test. No answer is over 80 KB: longer ones \
        page with a cursor. export redacts payloads unless --unredacted is given. \
        Runs the routelog-mcp program installed beside routelog.
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Let the export tool return payloads as recorded (default: redacted).") var unredacted = false

    func run() throws {
        let program = try ServeCommand.siblingPath("routelog-mcp")
        let args = [program, "--store", store.path] + (unredacted ? ["--unredacted"] : [])
        var cArgs = args.map { strdup($0) } + [nil]
        execv(program, &cArgs)
        throw CLIError.data("cannot run \(program): \(String(cString: strerror(errno)))")
    }
}
