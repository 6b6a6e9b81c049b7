import Foundation
import RouteLogCLI

// A closed pipe is handled where output is written (`routelog log | head` ends quietly), not by a signal.
signal(SIGPIPE, SIG_IGN)
// A command that reads a store runs in a watched child process (see StoreContainment).
if let status = StoreContainment.runIfNeeded() { exit(status) }
exit(await RouteLogCommand.execute(Array(CommandLine.arguments.dropFirst())))
