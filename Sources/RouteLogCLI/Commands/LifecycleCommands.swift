import ArgumentParser
import Foundation
import RouteLogCore
import RouteLogLMDB

/// The one line a deleted (or to-be-deleted) session gets in `rm` and `prune`.
private func deletionLine(_ verb: String, _ s: SessionInfo) -> String {
    "\(verb) \(s.id.rawValue) \(s.label.isEmpty ? "-" : s.label) (\(s.eventCount) event\(s.eventCount == 1 ? "" : "s"))"
}

private func deletionJSON(_ sessions: [SessionInfo], dryRun: Bool) -> String {
    JSONValue.object([
        "dryRun": .bool(dryRun),
        "sessions": .array(sessions.map { SessionsCommand.json($0) }),
        "events": .int(Int64(sessions.reduce(UInt64(0)) { $0 + $1.eventCount })),
    ]).canonicalText
}

/// Opens the store for a command that deletes: it must exist (nothing is created).
private func openForDeleting(_ path: String) throws(CLIError) -> LMDBEventLog {
    try asLMDB(StoreAccess.open(path: path, writable: true, create: false), path: path)
}

/// The store as the LMDB log it is: the commands that manage the store use its own API.
private func asLMDB(_ log: any EventLog, path: String) throws(CLIError) -> LMDBEventLog {
    guard let lmdb = log as? LMDBEventLog else { throw .data("not a store: \(path)") }
    return lmdb
}

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
        let refs = try sessions.map { text throws(CLIError) in try parseRef(text) }
        for ref in refs {
            if case .file = ref.base { throw CLIError.usage("rm deletes sessions of the store, not files: \(printable(ref.text))") }
            if ref.seq != nil { throw CLIError.usage("rm deletes whole sessions: \(printable(ref.text)) names a seq") }
        }
        let log = try openForDeleting(store.path)
        let workspace = Workspace(storePath: store.path, log: log)
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

/// `routelog prune`: applies a retention policy once.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete the oldest sessions by count, age or size.",
        discussion: """
        Deletes sessions oldest first (in the order they entered the store) until at most \
        --keep remain, none is older than --older-than (by its last event, or when it entered \
        the store if it has none), and the store's live data fits in --max-size; any \
        combination, at least one. Sessions an app is writing are never deleted. --dry-run \
        prints what would be deleted and deletes nothing. Durations: 30d, 12h, 90m, 45s, 2w. \
        Sizes: 64MB, 512KB, 1GB, or bytes (KB, MB, GB are powers of 1024). rm, prune and import \
        are the only commands that write to the store.
        """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: ArgumentHelp("Keep at most N sessions.", valueName: "n")) var keep: Int?
    @Option(name: .customLong("older-than"), help: ArgumentHelp("Delete sessions older than this (e.g. 30d).", valueName: "duration"))
    var olderThan: String?
    @Option(name: .customLong("max-size"), help: ArgumentHelp("Keep the live data under this size (e.g. 64MB).", valueName: "size"))
    var maxSize: String?
    @Flag(name: .customLong("dry-run"), help: "Print what would be deleted; delete nothing.") var dryRun = false
    @Flag(help: "Print a JSON object instead of lines.") var json = false

    func run() throws {
        var policy = LMDBEventLog.Retention()
        if let keep {
            guard keep >= 0 else { throw CLIError.usage("bad --keep \(keep): expected a number of sessions, 0 or more") }
            policy.maxSessions = keep
        }
        if let olderThan { policy.maxAge = try Self.parseDuration(olderThan) }
        if let maxSize { policy.maxBytes = try Self.parseSize(maxSize) }
        if policy.isNone { throw CLIError.usage("prune needs --keep, --older-than or --max-size") }
        let log = try openForDeleting(store.path)
        let deleted = try call { try log.applyRetention(policy, dryRun: dryRun) }
        let out = Output.stdout()
        if json {
            out.line(deletionJSON(deleted, dryRun: dryRun))
            return
        }
        for s in deleted { out.line(deletionLine(dryRun ? "would delete" : "deleted", s)) }
        if deleted.isEmpty { out.line(dryRun ? "nothing would be deleted" : "nothing to delete") }
    }

    /// `30d`, `12h`, `90m`, `45s`, `2w`.
    static func parseDuration(_ text: String) throws(CLIError) -> Duration {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last, let seconds = units[unit], let n = Int64(text.dropLast()), n >= 0,
              n <= Int64.max / 1000 / seconds else {
            throw .usage("bad duration '\(printable(text))': expected a number and s, m, h, d or w (e.g. 30d)")
        }
        return .seconds(n * seconds)
    }

    /// `64MB`, `512KB`, `1GB`, `4096` (bytes); powers of 1024.
    static func parseSize(_ text: String) throws(CLIError) -> Int {
        let upper = text.uppercased()
        let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        var factor = 1
        var number = Substring(upper)
        if let (suffix, f) = units.first(where: { upper.hasSuffix($0.0) }) {
            factor = f
            number = upper.dropLast(suffix.count)
        }
        guard let n = Int(number), n >= 0, n <= Int.max / factor else {
            throw .usage("bad size '\(printable(text))': expected a number of bytes, KB, MB or GB (e.g. 64MB)")
        }
        return n * factor
    }
}

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
        """
    )

    @OptionGroup var store: StoreOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("The directory of the copy.", valueName: "dir"), completion: .directory)
    var output: String
    @Flag(help: "Print a JSON object instead of a sentence.") var json = false

    func run() throws {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDir) {
            guard isDir.boolValue else { throw CLIError.usage("bad -o \(printable(output)): a file, not a directory") }
            if !((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty {
                throw CLIError.usage("bad -o \(printable(output)): the directory is not empty")
            }
        }
        let lmdb = try asLMDB(store.workspace().store(), path: store.path)
        try call { try lmdb.compactCopy(to: output) }
        let before = Self.fileSize(store.path), after = Self.fileSize(output)
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object(["store": .string(store.path), "output": .string(output), "bytesBefore": .int(Int64(before)),
                                       "bytesAfter": .int(Int64(after))]).canonicalText)
        } else {
            out.line("compacted \(store.path) (\(StatsCommand.bytes(before))) to \(output) (\(StatsCommand.bytes(after)))")
        }
    }

    static func fileSize(_ dir: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: (dir as NSString).appendingPathComponent("data.mdb"))
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// `routelog stats`: the store's counts and sizes.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the store's counts and sizes.",
        discussion: """
        Sessions, events, bytes on disk (data.mdb), live bytes (the pages the store's databases \
        use), bytes on disk per event, free pages (LMDB reuses them for later writes; compact \
        drops them from a copy), the map size, and the oldest and newest session (in the order \
        they entered the store).
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let lmdb = try asLMDB(store.workspace().store(), path: store.path)
        let st = try call { try lmdb.statistics() }
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "sessions": .int(Int64(st.sessions)), "events": .int(Int64(st.events)), "bytesOnDisk": .int(Int64(st.fileBytes)),
                "liveBytes": .int(Int64(st.liveBytes)), "bytesPerEvent": .double((st.bytesPerEvent * 10).rounded() / 10),
                "freePages": .int(Int64(st.freePages)), "pageSize": .int(Int64(st.pageSize)), "mapSize": .int(Int64(st.mapSize)),
                "oldest": st.oldest.map { SessionsCommand.json($0) } ?? .null, "newest": st.newest.map { SessionsCommand.json($0) } ?? .null,
            ]).canonicalText)
            return
        }
        func session(_ s: SessionInfo?) -> String {
            guard let s else { return "-" }
            return "\(s.id.rawValue) \(s.label.isEmpty ? "-" : s.label) (added \(Render.time(s.enteredAt)), \(s.eventCount) events)"
        }
        let rows: [[String]] = [
            ["sessions", String(st.sessions)],
            ["events", String(st.events)],
            ["bytes on disk", Self.bytes(st.fileBytes)],
            ["live bytes", Self.bytes(st.liveBytes)],
            ["bytes per event", st.events == 0 ? "-" : String(format: "%.1f", st.bytesPerEvent)],
            ["free pages", "\(st.freePages) (\(Self.bytes(st.freePages * st.pageSize)))"],
            ["map size", Self.bytes(st.mapSize)],
            ["oldest session", session(st.oldest)],
            ["newest session", session(st.newest)],
        ]
        for line in Render.table(rows) { out.line(line) }
    }

    /// `1234567 (1.2 MiB)`.
    static func bytes(_ n: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(n)
        var unit = -1
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit < 0 ? "\(n) B" : "\(n) (\(String(format: "%.1f", value)) \(units[unit]))"
    }
}
