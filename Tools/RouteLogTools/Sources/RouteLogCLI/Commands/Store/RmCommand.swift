import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `routelog rm`: deletes sessions from the store.
struct RmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete sessions from the store.",
        discussion: """
        Deletes each SESSION (an id, a unique prefix, latest or latest~N) with its events and \
        snapshots, all in one transaction: if any SESSION is unknown (exit 2) or being written by \
        an app (exit 3), nothing is deleted. Prints one line per deleted session. rm, prune and \
        import are the only commands that write to the store.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The sessions to delete.") var sessions: [String] = []
    @Flag(help: "Print a JSON object instead of lines.") var json = false

    func validate() throws {
        if sessions.isEmpty { throw ValidationError("give at least one SESSION") }
    }

    func run() throws {
        let refs = try sessions.map { text throws(RouteLogError) in try SessionRef(parsing: text) }
        for ref in refs {
            if ref.filePath != nil { throw RouteLogError.usage("rm deletes sessions of the store, not files: \(printable(ref.text))") }
            if ref.seq != nil { throw RouteLogError.usage("rm deletes whole sessions: \(printable(ref.text)) names a seq") }
        }
        let path = StoreAccess.path(store.store)
        let log = try StoreAccess.open(path: path, writable: true, create: false)
        let workspace = Workspace(storePath: path, log: log)
        var targets: [SessionInfo] = []
        for ref in refs {
            let info = try workspace.resolve(ref).info
            if !targets.contains(where: { $0.id == info.id }) { targets.append(info) }
        }
        try call { try log.deleteSessions(targets.map(\.id)) }
        let out = Output.stdout()
        if json {
            out.line(deletionJSON(targets, dryRun: false))
        } else {
            for s in targets { out.line(deletionLine("deleted", s)) }
        }
    }
}
