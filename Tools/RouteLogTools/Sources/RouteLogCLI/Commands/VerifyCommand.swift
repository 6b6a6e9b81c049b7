import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `routelog verify`: checksums, chain, and digests replayed with the current reducer.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check sessions: checksums, chain, and digests replayed with the current reducer.",
        discussion: """
        For a session in the store, checks every record's checksum and the hash chain, then replays \
        the events with the current reducer and compares each stored outcome and digest. For a \
        fixture file, compares the replay with its expect block. Names the first failing seq and \
        what failed; when digests diverge it prints the state diff there, which is how a changed \
        reducer rule shows up. Exit status: 1 when any session fails.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Sessions to verify.") var sessions: [String] = []
    @Flag(help: "Verify every session in the store.") var all = false
    @Flag(help: "Print one JSON object per session.") var json = false

    func validate() throws {
        if all && !sessions.isEmpty { throw ValidationError("give SESSION… or --all, not both") }
        if !all && sessions.isEmpty { throw ValidationError("give SESSION… or --all") }
    }

    func run() throws { try run(reducer: SessionVerifier.currentReducer) }

    /// Verifies the sessions, replaying with `reducer`: the current reducer, or in tests one with a
    /// rule changed, to show that `verify` catches a reducer change and names the right seq.
    func run(reducer: NavigationState.Reducer) throws {
        let ws = store.workspace()
        let targets = try ws.resolve(sessions, all: all)
        let out = Output.stdout()
        var failed = 0
        let progress = Progress("verifying", total: targets.count, unit: "sessions", stride: 1, enabled: !json && targets.count > 1)
        for s in targets {
            let report = try SessionVerifier.verify(s, reducer: reducer)
            progress.finish()
            if report.failure != nil { failed += 1 }
            if json {
                out.line(report.json.canonicalText)
            } else {
                for line in report.text(out: out) { out.line(line) }
            }
            // The lines go out before the progress line is drawn under them again.
            if progress.isShown { out.flush() }
            progress.add()
        }
        progress.finish()
        if !json && targets.count > 1 { out.line("\(targets.count - failed) ok, \(failed) failed") }
        out.flush()
        if failed > 0 { throw ExitCode.failure }
    }
}
