import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing
@_spi(Tools) @testable import RouteLogLMDB

/// ``LMDBEventLog/importFixture(contentsOf:checked:label:progress:)``: a file read again and written in
/// batches gives the session an import of the whole fixture gives, and all or nothing.
@Suite("LMDBEventLog streamed import", .tags(.appleLocks))
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
        let count = SessionImporter.importBatch * 2 + 17
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
        // Progress comes after each batch, growing to the file's event count.
        var reported: [Int] = []
        #expect(try log.importFixture(contentsOf: path, checked: checked, label: "again") { reported.append($0) }.label == "again")
        #expect(reported == [SessionImporter.importBatch, SessionImporter.importBatch * 2, count], "\(reported)")
        // In transactions of 1,000 events (the map, 1 MiB at first, grows between and inside them):
        // the same session, its row written last, and no import mark left.
        let parts = try log.importer.importFixture(contentsOf: path, checked: checked, label: "parts", transactionEvents: 1_000)
        #expect(parts.eventCount == UInt64(count) && parts.headDigest == whole.headDigest && parts.imported)
        #expect(try log.events(parts.id) == log.events(whole.id))
        #expect(try log.verify(session: parts.id).isValid)
        #expect(try Self.partialImports(log).isEmpty)
    }

    /// The `part` marks in the store's meta database: imports begun and not ended.
    static func partialImports(_ log: LMDBEventLog) throws -> [[UInt8]] {
        var marks: [[UInt8]] = []
        try log.forEachEntry(in: log.databases.meta, prefix: PartialImport.keyPrefix) { k, _ in marks.append(Array(k)) }
        return marks
    }

    /// How many events the store holds under `prefix`, whether a session row names them or not.
    static func records(_ log: LMDBEventLog, prefix: [UInt8]) throws -> Int {
        try log.entryCount(in: log.databases.events, prefix: prefix)
    }

    /// An import that dies midway (here: its writer lock let go, as the kernel does for a killed
    /// process) leaves records no reader sees; another log's read-write open removes them, but
    /// never while the import's lock is held, and an import whose records were removed fails.
    @Test func anAbandonedImportIsRemovedAtTheNextReadWriteOpen() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let storePath = dir.path + "/store"
        let log = try LMDBEventLog.open(at: storePath, options: testOptions())
        let kept = try log.createSession(NewSession(label: "kept"))
        try log.append(generatedEvents(300, seed: 5), to: kept.id, expectedSeq: 0)
        let events = generatedEvents(5_000, seed: 9)
        let prefix = StoreKey.number(2)
        var sawWhileHeld = -1, removedOnceLetGo = -1, leftAfterRemoval = -1
        #expect(throws: LMDBEventLogError.self) {
            _ = try log.importer.importSession(NewSession(label: "dies"), createdAt: 1, transactionEvents: 1_000) { write in
                for start in stride(from: 0, to: 2_500, by: 500) { try write(Array(events[start..<start + 500])) }
                // Two transactions are committed: their records are there, and no session shows them.
                #expect(try Self.records(log, prefix: prefix) == 2_000)
                let other = try LMDBEventLog.open(at: storePath, options: testOptions())
                #expect(try other.sessions().map(\.label) == ["kept"])
                sawWhileHeld = try Self.records(other, prefix: prefix)
                // The import "dies": its lock goes, as a killed process's does.
                for id in try Self.partialImportIDs(log) { log.finishWriting(id) }
                let next = try LMDBEventLog.open(at: storePath, options: testOptions())
                removedOnceLetGo = try Self.partialImports(next).count
                leftAfterRemoval = try Self.records(next, prefix: prefix)
                for start in stride(from: 2_500, to: 5_000, by: 500) { try write(Array(events[start..<start + 500])) }
            }
        }
        #expect(sawWhileHeld == 2_000, "a read-write open while the import runs leaves it alone")
        #expect(removedOnceLetGo == 0 && leftAfterRemoval == 0)
        // The import wrote nothing after its records were removed.
        #expect(try Self.records(log, prefix: prefix) == 0)
        #expect(try log.sessions().map(\.label) == ["kept"])
        #expect(try log.verify(session: kept.id).isValid)
        for db in [log.databases.snapshots, log.databases.sites] {
            #expect(try log.context.withRead("checking") { try $0.lastKey(in: db).map { Array($0.prefix(4)) } } != prefix)
        }
    }

    static func partialImportIDs(_ log: LMDBEventLog) throws -> [SessionID] {
        var ids: [SessionID] = []
        try log.forEachEntry(in: log.databases.meta, prefix: PartialImport.keyPrefix) { _, v in ids.append(StoreKey.sessionID(v)) }
        return ids
    }

    /// A file that turns bad after its check, past the first batch: the batches already written
    /// are rolled back with the session.
    @Test func aFileThatChangesAfterItsCheckLeavesNoSession() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let count = SessionImporter.importBatch + 500
        let (_, path) = try Self.exported(count, in: dir)
        let log = try LMDBEventLog.open(at: dir.path + "/store", options: testOptions())
        let checked = try Fixture.scan(contentsOf: path)
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        // The events start on the line after `"events": [`; the one at index batch + 100 is broken.
        let first = try #require(lines.firstIndex { $0.hasSuffix("\"events\": [") }) + 1
        let bad = first + SessionImporter.importBatch + 100
        lines[bad] = "    {\"push\":{}}" + (lines[bad].hasSuffix(",") ? "," : "")
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        // In transactions of 1,000 events, four are committed before the bad event is read.
        #expect(throws: FixtureError.self) { try log.importer.importFixture(contentsOf: path, checked: checked, label: nil, transactionEvents: 1_000) }
        #expect(try log.sessions().isEmpty)
        #expect(try Self.partialImports(log).isEmpty)
        // A file that is still valid but no longer the one checked is refused too.
        let otherDir = try TempDir()
        defer { otherDir.cleanup() }
        let (_, other) = try Self.exported(10, in: otherDir)
        #expect(throws: FixtureError(file: other, problem: .unreadable("the file changed while it was imported; nothing was written"))) {
            try log.importFixture(contentsOf: other, checked: checked)
        }
        #expect(try log.sessions().isEmpty)
        // No record of the rolled-back session is left.
        for db in [log.databases.events, log.databases.snapshots, log.databases.sites] {
            #expect(try log.context.withRead("checking") { try $0.lastKey(in: db) } == nil)
        }
    }
}
