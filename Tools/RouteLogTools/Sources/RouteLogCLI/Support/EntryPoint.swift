import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore

extension RouteLogCommand {
    /// Runs `routelog` with `arguments` (without the program name): parses them, runs the command,
    /// and maps every error to one line on stderr and a documented exit code (0 ok/equal,
    /// 1 different/failed/found bad, 2 usage, 3 data). Never a stack trace.
    ///
    /// - Returns: the exit status for the process.
    public static func execute(_ arguments: [String]) async -> Int32 {
        await execute(arguments, reducer: SessionVerifier.currentReducer)
    }

    /// Runs `routelog` as ``execute(_:)`` does, with `verify` replaying with `reducer` (tests pass
    /// one with a rule changed, to show that `verify` catches a reducer change).
    static func execute(_ arguments: [String], reducer: NavigationState.Reducer) async -> Int32 {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            return report(parseError: error)
        }
        do {
            if let verify = command as? VerifyCommand {
                try verify.run(reducer: reducer)
            } else if var async = command as? any AsyncParsableCommand {
                try await async.run()
            } else {
                var sync = command
                try sync.run()
            }
            return ExitCode.success.rawValue
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // Help requests, validation errors and clean exits raised while running.
            return report(parseError: error)
        } catch {
            let e = RouteLogError.from(error)
            printError(e.message)
            return ExitCode(e.cause).rawValue
        }
    }

    /// Help, version and completion requests go to stdout with status 0; usage errors are one line and status 2.
    static func report(parseError error: any Error) -> Int32 {
        let code = exitCode(for: error)
        if code == .success {
            let text = fullMessage(for: error)
            writeStdout(text.hasSuffix("\n") ? text : text + "\n")
            return ExitCode.success.rawValue
        }
        if let e = error as? RouteLogError {
            printError(e.message)
            return ExitCode(e.cause).rawValue
        }
        printError("usage: \(oneLine(message(for: error))) (see 'routelog help')")
        return ExitCode.usage.rawValue
    }
}

/// Writes `routelog: <message>` as one line on stderr.
func printError(_ message: String) {
    // One line, and no control character of a quoted label or file name reaches the terminal.
    writeAll(2, Array("routelog: \(TerminalText.escaped(oneLine(message)))\n".utf8))
}
