import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `routelog import`: each file becomes a new session in the store.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import fixture or export files as new sessions in the store.",
        discussion: """
        Each FILE becomes a new session (the store is created if it does not exist). A \
        hand-written event list without an expect block imports fine. Each file is read once and \
        checked as its events are written, in transactions of 32,768; the sessions enter the store \
        together after the last file, so an import that meets a bad file, is killed or runs out of \
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
        for file in files { try PathOption.check(file, "FILE") }
    }

    func run() throws {
        let progress = Progress("importing", enabled: !json)
        let isNew = !FileManager.default.fileExists(atPath: StoreAccess.path(store.store))
        let imported: [SessionInfo]
        do {
            imported = try importFiles(progress)
        } catch {
            progress.finish()
            // A failed import leaves no store behind where there was none.
            if isNew { removeEmptyStore() }
            throw error
        }
        progress.finish()
        let out = Output.stdout()
        for (file, info) in zip(files, imported) {
            if json {
                out.line(JSONValue.object([
                    "file": .string(file), "session": .string(info.id.rawValue), "events": .int(Int64(info.eventCount)),
                    "headDigest": .string(info.headDigest.hex),
                ]).canonicalText)
            } else {
                out.line("imported \(file) as \(info.id.rawValue) (\(info.eventCount) events)")
            }
        }
    }

    /// Imports every file, each read once and checked as it is written; the sessions enter the
    /// store together after the last file, or not at all. The errors are those of a check of
    /// every file before anything is written: the first bad file's, else the store's.
    private func importFiles(_ progress: Progress) throws(RouteLogError) -> [SessionInfo] {
        let log: LMDBEventLog
        do {
            log = try StoreAccess.open(path: StoreAccess.path(store.store), writable: true)
        } catch {
            try check(files[...], progress)
            throw error
        }
        let group = try call { try log.beginImport() }
        for (i, file) in files.enumerated() {
            progress.stage("importing \(file)", total: nil)
            do {
                // The file's events are counted as they are written; how far into the file the
                // reader is tells how long is left.
                let size = max(1, (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 1)
                try group.add(contentsOf: file, label: label, scan: { path, event throws(RouteLogError) in
                    try Fixture.scan(path, event: event) { progress.update(fraction: Double($0) / Double(size)) }
                }) {
                    progress.update($0)
                }
            } catch let error as RouteLogError {
                group.rollback()
                throw error
            } catch {
                group.rollback()
                try check(files[(i + 1)...], progress)
                throw RouteLogError.from(error)
            }
        }
        return try call { try group.commit() }
    }

    /// Reads `files` without writing them, and throws the first one's error.
    private func check(_ files: ArraySlice<String>, _ progress: Progress) throws(RouteLogError) {
        for file in files {
            progress.stage("checking \(file)", total: nil)
            _ = try Fixture.scan(file) { _ in progress.add() }
        }
    }

    /// Removes the store a failed import created, when it holds no session (nothing else wrote to
    /// it meanwhile).
    private func removeEmptyStore() {
        let path = StoreAccess.path(store.store)
        guard let sessions = try? StoreAccess.open(path: path, writable: false).sessions(), sessions.isEmpty else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
