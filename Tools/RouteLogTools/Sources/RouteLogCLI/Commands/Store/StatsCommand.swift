import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `routelog stats`: the store's counts and sizes.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the store's counts and sizes.",
        discussion: """
        Sessions, events, bytes on disk (the store's data file), live bytes (the pages the store's databases \
        use), bytes on disk per event, free pages (LMDB reuses them for later writes; compact \
        drops them from a copy), the map size, and the oldest and newest session (in the order \
        they entered the store).
        """
    )

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let lmdb = try store.workspace().store()
        let st = try call { try lmdb.statistics() }
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "sessions": .int(Int64(st.sessions)), "events": .int(Int64(st.events)), "bytesOnDisk": .int(Int64(st.fileBytes)),
                "liveBytes": .int(Int64(st.liveBytes)), "bytesPerEvent": .double((st.bytesPerEvent * 10).rounded() / 10),
                "freePages": .int(Int64(st.freePages)), "pageSize": .int(Int64(st.pageSize)), "mapSize": .int(Int64(st.mapSize)),
                "oldest": st.oldest.map { SessionJSON.session($0) } ?? .null, "newest": st.newest.map { SessionJSON.session($0) } ?? .null,
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
