import ArgumentParser
@_spi(Tools) import RouteLogCore

/// `routelog`: replay, inspect, diff, bisect, verify and minimize navigation sessions.
public struct RouteLogCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "routelog",
        abstract: "Replay and debug RouteLog navigation sessions.",
        discussion: """
        routelog opens a RouteLog store (an LMDB directory) or a fixture/export file and \
        replays, shows, diffs, bisects, verifies and minimizes its sessions.

        \(HelpText.sessions)

        \(HelpText.store)

        \(HelpText.exitCodes)

        Text output is colored only on a terminal, and never when NO_COLOR is set. \
        Every command has --json for scripts. Only import, rm and prune write to the store \
        (compact writes a copy elsewhere); every other command only reads it.
        Shell completion: routelog --generate-completion-script bash|zsh|fish
        """,
        version: "0.1.0",
        subcommands: [
            SessionsCommand.self, LogCommand.self, StateCommand.self, BlameCommand.self, LifetimesCommand.self, DriftCommand.self, DiffCommand.self, BisectCommand.self,
            VerifyCommand.self, MinimizeCommand.self, ExportCommand.self, ImportCommand.self, FixturesCommand.self,
            ReportCommand.self, ReproCommand.self, ServeCommand.self, MCPCommand.self, PredicatesCommand.self, RmCommand.self, PruneCommand.self, CompactCommand.self, StatsCommand.self,
        ]
    )

    public init() {}
}

/// Help paragraphs shared by several commands.
enum HelpText {
    static let sessions = """
    SESSIONS
    Wherever a command takes a SESSION it accepts:
      ID            a session id, or a unique prefix of one
      latest        the newest session; latest~N is the Nth before it
      '#N'          the session the store numbered N (the # column of sessions; quoted,
                    as a shell takes # for a comment)
      FILE.json     a fixture or export file (needs no store)
      REF@N         that session at seq N (0 is the state before any event)
    """

    static let store = """
    STORE
    --store DIR, else $ROUTELOG_STORE, else ./.routelog.
    """

    static let exitCodes = """
    EXIT CODES
      0  ok, or equal
      1  different, failed, or found bad
      2  usage error (bad option, unknown session, seq out of range, bad predicate)
      3  data error (corrupt, unreadable, not a store, newer format, empty session
         given to diff, bisect, minimize or export; log, state, blame and lifetimes show one)
    """
}

