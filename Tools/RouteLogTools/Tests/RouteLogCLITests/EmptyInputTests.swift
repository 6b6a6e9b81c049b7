import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// Inputs that hold nothing: an empty fixture folder, sessions whose events carry no time.
@Suite struct EmptyInputTests {
    @Test func fixturesCheckOnAFolderWithoutFixturesFails() async throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.path("empty"), withIntermediateDirectories: true)
        try dir.write("notes/readme.txt", "not a fixture")
        for folder in ["empty", "notes"] {
            let r = try await CLI.run(["fixtures", "check", folder], cwd: dir.url)
            CLI.expectError(r, status: 1, "no fixtures found in \(folder)")
            let j = try await CLI.run(["fixtures", "check", "--json", folder], cwd: dir.url)
            CLI.expectError(j, status: 1, "no fixtures found in \(folder)")
        }
        // A folder that holds one fixture still passes.
        try dir.writeSession("some/one.json", Sessions.upsell, expect: true)
        let ok = try await CLI.run(["fixtures", "check", "some"], cwd: dir.url)
        #expect(ok.status == 0 && ok.stdout.contains("1 passed, 0 failed"), "\(ok)")
    }

    @Test func sessionsJSONGivesNullForASessionWithoutTimes() async throws {
        let dir = try TempDir()
        let untimed = Sessions.upsell.map { RecordedEvent($0.event) }
        try dir.writeSession("untimed.json", untimed, label: "untimed")
        try dir.writeSession("timed.json", Sessions.upsell, label: "timed")
        let imported = try await CLI.run(["import", "--store", "st", "untimed.json", "timed.json"], cwd: dir.url)
        #expect(imported.status == 0, "\(imported)")
        let r = try await CLI.run(["sessions", "--store", "st", "--json"], cwd: dir.url)
        let all = try #require(try r.stdout.json().arrayValue, "\(r)")
        let byLabel = Dictionary(uniqueKeysWithValues: all.map { ($0["label"]?.stringValue ?? "", $0) })
        #expect(byLabel["untimed"]?["lastEventAt"] == .null, "\(r)")
        #expect(byLabel["timed"]?["lastEventAt"]?.stringValue == ISO8601.format(milliseconds: Sessions.upsell.last!.meta.timestamp), "\(r)")
        let text = try await CLI.run(["sessions", "--store", "st"], cwd: dir.url)
        // A time of 0 would print as the epoch, 1970-01-01T00:00:00.000Z. (Not just "1970": a
        // session id's random hex digits can hold those four.)
        #expect(!text.stdout.contains("1970-01-01"), "\(text)")
    }
}
