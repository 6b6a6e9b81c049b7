import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// A session that an app restored after an update changed its routes
/// (`Fixtures/restore-after-update.json`, written by the navigator): `log` shows the restore's
/// `reset` with its reason, and `verify` takes it as an ordinary event.
@Suite(.serialized) struct RestoreLogTests {
    let dir: TempDir
    static let fixture = CLI.packageRoot.appendingPathComponent("Fixtures/restore-after-update.json").path

    init() throws { dir = try TempDir() }

    func run(_ args: [String]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url) }

    static let reason = "restore: dropped seq 2 episode-1 (RouteV1): case \"episode\" of RouteV1 is not a case of RouteV2 at the top level; "
        + "dropped seq 3 player (RouteV1): missing key \"speed\" at .player, with 1 route above it; "
        + "dropped seq 7 upsell (RouteV1): removed by a migration"

    @Test func logShowsTheRestoreEventWithItsReason() async throws {
        let imported = try await run(["import", "--store", "st", Self.fixture])
        #expect(imported.status == 0, "\(imported)")
        let r = try await run(["log", "latest", "--store", "st"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        try Golden.check(r.stdout, "log-restore-after-update.txt")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10)
        let reset = lines[8]
        #expect(reset.hasPrefix("   9  ") && reset.contains("system") && reset.contains("reset") && reset.contains("applied"), "\(reset)")
        #expect(reset.contains("[home] root") && reset.hasSuffix("# " + Self.reason), "\(reset)")

        let json = try await run(["log", "latest", "--store", "st", "--json", "--from", "9", "--to", "9"])
        let v = try json.stdout.json()
        #expect(v["origin"]?.stringValue == "system" && v["note"]?.stringValue == Self.reason && v["outcome"]?.stringValue == "applied", "\(json)")
    }

    @Test func verifyTakesTheRestoreAsAnOrdinaryEvent() async throws {
        let file = try await run(["verify", Self.fixture])
        #expect(file.status == 0, "\(file)")
        let imported = try await run(["import", "--store", "st", Self.fixture])
        #expect(imported.status == 0, "\(imported)")
        let store = try await run(["verify", "latest", "--store", "st", "--json"])
        #expect(store.status == 0, "\(store)")
        #expect(try store.stdout.json()["ok"]?.boolValue == true, "\(store)")
    }
}
