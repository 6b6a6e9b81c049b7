import ArgumentParser
import Foundation

// Entry point: parse, run, and map every error to one line on stderr and a documented exit code
// (0 ok/equal, 1 different/failed/found bad, 2 usage, 3 data). Never a stack trace.
signal(SIGPIPE, SIG_IGN)

// A command that reads a store runs in a watched child process (see StoreContainment).
if let status = StoreContainment.runIfNeeded() { exit(status) }

func runMain() async -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let command: any ParsableCommand
    do {
        command = try RouteLogCommand.parseAsRoot(arguments)
    } catch {
        return report(parseError: error)
    }
    do {
        if var async = command as? any AsyncParsableCommand {
            try await async.run()
        } else {
            var sync = command
            try sync.run()
        }
        return Exit.ok
    } catch let result as CommandResult {
        return result.code
    } catch let exit as ExitCode {
        return exit.rawValue
    } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
        // Help requests, validation errors and clean exits raised while running.
        return report(parseError: error)
    } catch {
        let e = CLIError.from(error)
        printError(e.message)
        return e.code
    }
}

/// Help, version and completion requests go to stdout with status 0; usage errors are one line and status 2.
func report(parseError error: any Error) -> Int32 {
    let code = RouteLogCommand.exitCode(for: error)
    if code == .success {
        let text = RouteLogCommand.fullMessage(for: error)
        writeStdout(text.hasSuffix("\n") ? text : text + "\n")
        return Exit.ok
    }
    if let e = error as? CLIError {
        printError(e.message)
        return e.code
    }
    let message = oneLine(RouteLogCommand.message(for: error))
    printError("usage: \(message) (see 'routelog help')")
    return Exit.usage
}

func printError(_ message: String) {
    writeAll(2, Array("routelog: \(oneLine(message))\n".utf8))
}

exit(await runMain())
