import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `routelog compact`: a compacted copy of the store.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Write a compacted copy of the store.",
        discussion: """
        Copies the store into DIR (created if missing; it must be empty) without its free pages \
        (LMDB's mdb_env_copy2 with MDB_CP_COMPACT). The copy reads one consistent snapshot of the \
        store, so an app may keep writing meanwhile; replace the store with the copy only while \
        nothing has it open. The store itself is not changed. The copy is written into a temporary \
        directory beside DIR and renamed into place when complete, so a failure or a kill leaves \
        nothing half-written at DIR; its files get the store's modes.

        With --format 4, the copy of a format-3 store (a record per event, as RouteLog wrote \
        stores before) is converted to format 4 (events in blocks, about half the bytes): every \
        record is checked on the way, so a damaged store is refused with the first bad seq and \
        nothing is written at DIR. Replace the store with the copy while nothing has it open. A \
        format-4 store's copy is a plain copy.
        """
    )

    @OptionGroup var store: StoreOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("The directory of the copy.", valueName: "dir"), completion: .directory)
    var output: String
    @Option(help: ArgumentHelp("The copy's store format: 4 converts a format-3 store (the only conversion).", valueName: "n"))
    var format: UInt32?
    @Flag(help: "Print a JSON object instead of a sentence.") var json = false

    func validate() throws {
        try PathOption.check(output, "-o")
        if let format, format != LMDBEventLog.newStoreFormat {
            throw RouteLogError.usage("bad --format \(format): a copy converts to format \(LMDBEventLog.newStoreFormat) only")
        }
    }

    func run() throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDir) {
            guard isDir.boolValue else { throw RouteLogError.usage("bad -o \(printable(output)): a file, not a directory") }
            if !((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty {
                throw RouteLogError.usage("bad -o \(printable(output)): the directory is not empty")
            }
        }
        let path = StoreAccess.path(store.store)
        let lmdb = try store.workspace().store()
        let from = lmdb.storeFormat
        try call { try lmdb.compactCopy(to: output, format: format) }
        let before = LMDBEventLog.bytesOnDisk(at: path), after = LMDBEventLog.bytesOnDisk(at: output)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object(["store": .string(path), "output": .string(output), "bytesBefore": .int(Int64(before)),
                                       "bytesAfter": .int(Int64(after)), "formatBefore": .int(Int64(from)),
                                       "formatAfter": .int(Int64(format ?? from))]).canonicalText)
        } else {
            let converted = format.map { $0 != from } ?? false ? ", converted from format \(from) to \(format!)" : ""
            out.line("compacted \(path) (\(StatsCommand.bytes(before))) to \(output) (\(StatsCommand.bytes(after)))\(converted)")
        }
    }
}
