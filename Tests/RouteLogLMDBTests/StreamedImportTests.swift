import Foundation
import RouteLogCore
import RouteLogTestSupport
import Testing
@testable import RouteLogLMDB

/// ``LMDBEventLog/importFixture(contentsOf:checked:label:)``: a file read again and written in
/// batches gives the session an import of the whole fixture gives, and all or nothing.
@Suite("LMDBEventLog streamed import")
struct StreamedImportTests {
    /// An exported fixture of `count` events (more than one batch), written to `dir`.
    static func exported(_ count: Int, in dir: TempDir) throws -> (Fixture, String) {
        let log = try LMDBEventLog.open(at: dir.path + "/source", options: testOptions())
        let s = try log.createSession(NewSession(label: "big", appName: "Podcasts", appVersion: "3.1"))
        try log.append(generatedEvents(count, seed: 77), to: s.id, expectedSeq: 0)
        let fixture = try log.exportFixture(session: s.id)
        let path = dir.path + "/big.json"
        try fixture.write(toFile: path)
        return (fixture, path)
    }

    @Test func streamedImportMatchesTheWholeFixtureImport() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let count = LMDBEventLog.importBatch * 2 + 17
        let (fixture, path) = try Self.exported(count, in: dir)
        let log = try LMDBEventLog.open(at: dir.path + "/store", options: testOptions())
        let checked = try Fixture.scan(contentsOf: path)
        #expect(checked.eventCount == count)
        let streamed = try log.importFixture(contentsOf: path, checked: checked)
        let whole = try log.importFixture(fixture)
        #expect(streamed.eventCount == UInt64(count))
        #expect(streamed.label == "big" && streamed.appName == "Podcasts" && streamed.createdAt == whole.createdAt)
        #expect(streamed.headDigest == whole.headDigest)
        #expect(try log.events(streamed.id) == log.events(whole.id))
        #expect(try log.verify(session: streamed.id).isValid)
        #expect(try log.importFixture(contentsOf: path, checked: checked, label: "again").label == "again")
    }

    /// A file that turns bad after its check, past the first batch: the batches already written
    /// are rolled back with the session.
    @Test func aFileThatChangesAfterItsCheckLeavesNoSession() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let count = LMDBEventLog.importBatch + 500
        let (_, path) = try Self.exported(count, in: dir)
        let log = try LMDBEventLog.open(at: dir.path + "/store", options: testOptions())
        let checked = try Fixture.scan(contentsOf: path)
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        // The events start on the line after `"events": [`; the one at index batch + 100 is broken.
        let first = try #require(lines.firstIndex { $0.hasSuffix("\"events\": [") }) + 1
        let bad = first + LMDBEventLog.importBatch + 100
        lines[bad] = "    {\"push\":{}}" + (lines[bad].hasSuffix(",") ? "," : "")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: FixtureError.self) { try log.importFixture(contentsOf: path, checked: checked) }
        #expect(try log.sessions().isEmpty)
        // A file that is still valid but no longer the one checked is refused too.
        let otherDir = try TempDir()
        defer { otherDir.cleanup() }
        let (_, other) = try Self.exported(10, in: otherDir)
        #expect(throws: FixtureError(file: other, problem: .unreadable("the file changed while it was imported; nothing was written"))) {
            try log.importFixture(contentsOf: other, checked: checked)
        }
        #expect(try log.sessions().isEmpty)
        // No record of the rolled-back session is left.
        for db in [log.eventsDB, log.snapshotsDB, log.sitesDB] {
            #expect(try log.withRead("checking") { try $0.lastKey(in: db) } == nil)
        }
    }
}
