import ArgumentParser

/// `--store DIR`.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store directory (default: $ROUTELOG_STORE, else ./.routelog).", valueName: "dir"),
            completion: .directory)
    var store: String?

    func validate() throws { try PathOption.check(store, "--store") }

    func workspace() -> Workspace { Workspace(storePath: StoreAccess.path(store)) }
}
