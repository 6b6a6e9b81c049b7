import ArgumentParser
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

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
            guard keep >= 0 else { throw RouteLogError.usage("bad --keep \(keep): expected a number of sessions, 0 or more") }
            policy.maxSessions = keep
        }
        if let olderThan { policy.maxAge = try Self.parseDuration(olderThan) }
        if let maxSize { policy.maxBytes = try Self.parseSize(maxSize) }
        if policy.isNone { throw RouteLogError.usage("prune needs --keep, --older-than or --max-size") }
        let log = try StoreAccess.open(path: StoreAccess.path(store.store), writable: true, create: false)
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
    static func parseDuration(_ text: String) throws(RouteLogError) -> Duration {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last, let seconds = units[unit], let n = Int64(text.dropLast()), n >= 0,
              n <= Int64.max / 1000 / seconds else {
            throw .usage("bad duration '\(printable(text))': expected a number and s, m, h, d or w (e.g. 30d)")
        }
        return .seconds(n * seconds)
    }

    /// `64MB`, `512KB`, `1GB`, `4096` (bytes); powers of 1024.
    static func parseSize(_ text: String) throws(RouteLogError) -> Int {
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
