import Foundation
import RouteLogCLI

// A closed pipe is handled where output is written (`routelog log | head` ends quietly), not by a signal.
signal(SIGPIPE, SIG_IGN)
exit(await RouteLogCommand.execute(Array(CommandLine.arguments.dropFirst())))
