import ArgumentParser
import RouteLogCore
import RouteLogLMDB

/// `routelog import`: each file becomes a new session in the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import fixture or export files as new sessions in the store.",
        discussion: """
        Each FILE becomes a new session (the store is created if it does not exist). A \
        hand-written event list without an expect block imports fine. Every file is read and \
        checked before anything is written; a session's events are written in transactions of \
        32,768 and the session itself in the last one, so an import that is killed or runs out of \
        space leaves no session (what it wrote is removed, at once or at the store's next \
        read-write open). Without --label a session keeps the label its file records: an export's \
        session label, else the fixture's "name".
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Fixture or export files.", completion: .file(extensions: ["json"])) var files: [String]
    @Option(help: "The label of the new sessions (default: the label the file records, an export's session label, else the fixture's name).") var label: String?
    @Flag(help: "Print one JSON object per imported session.") var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one FILE") }
    }

    func run() throws {
        // Every file is checked first (without keeping its events), then read again as it is
        // written: an import holds one batch of events in memory, not the file.
        let progress = Progress("checking", enabled: !json)
        let checked = try files.map { f throws(RouteLogError) in
            progress.stage("checking \(f)", total: nil)
            return (f, try Fixture.scan(f) { _ in progress.add() })
        }
        let log = try StoreAccess.open(path: store.path, writable: true)
        let out = Output.stdout()
        for (file, doc) in checked {
            progress.stage("importing \(file)", total: doc.eventCount)
            let info = try call { try log.importFixture(contentsOf: file, checked: doc, label: label) { progress.update($0) } }
            progress.finish()
            if json {
                out.line(JSONValue.object([
                    "file": .string(file), "session": .string(info.id.rawValue), "events": .int(Int64(info.eventCount)),
                    "headDigest": .string(info.headDigest.hex),
                ]).canonicalText)
            } else {
                out.line("imported \(file) as \(info.id.rawValue) (\(info.eventCount) events)")
            }
            if progress.isShown { out.flush() }
        }
    }
}
