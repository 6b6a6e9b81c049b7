import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing
@_spi(Tools) @testable import RouteLogLMDB

/// ``FixtureImport``: files read once, their sessions entering the store together after the last
/// one, or not at all.
@Suite("LMDBEventLog fixture import, files read once", .tags(.appleLocks))
struct FixtureImportTests {
    /// The layouts a file may have: the header before the events (as RouteLog writes it, the
    /// creation time read ahead), after them (the file written a second time), none at all, and
    /// no events.
    static func layouts(in dir: TempDir) throws -> [String: String] {
        let (_, path) = try StreamedImportTests.exported(SessionImporter.importTransactionEvents + 300, in: dir)
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("  \"session\": ") })
        var after = lines
        let moved = after.remove(at: header)
        let expect = try #require(after.firstIndex { $0.hasPrefix("  \"expect\": ") })
        after.insert(moved, at: expect)
        var none = lines
        none.remove(at: header)
        let files = ["first": lines, "after": after, "none": none]
        var paths: [String: String] = [:]
        for (name, text) in files {
            paths[name] = dir.path + "/\(name).json"
            try text.joined(separator: "\n").write(toFile: paths[name]!, atomically: true, encoding: .utf8)
        }
        paths["empty"] = dir.path + "/empty.json"
        try #"{"format": "routelog-fixture/1", "name": "nothing", "session": {"created": "2026-11-18T11:06:40.000Z", "label": "e"}, "events": []}"#
            .write(toFile: paths["empty"]!, atomically: true, encoding: .utf8)
        return paths
    }

    /// Each layout gives the session a whole-fixture import gives (the same events, times,
    /// header and digest), whichever way the creation time was found.
    @Test func aFileReadOnceGivesTheSessionOfAWholeFixtureImport() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let files = try Self.layouts(in: dir)
        let names = ["first", "after", "none", "empty"]
        let log = try LMDBEventLog.open(at: dir.path + "/store", options: testOptions())
        let group = try log.beginImport()
        for name in names { try group.add(contentsOf: files[name]!) }
        let imported = try group.commit()
        for (name, streamed) in zip(names, imported) {
            let whole = try log.importFixture(Fixture(contentsOf: files[name]!))
            #expect(streamed.label == whole.label && streamed.appName == whole.appName && streamed.eventCount == whole.eventCount, "\(name)")
            #expect(streamed.headDigest == whole.headDigest && streamed.imported, "\(name)")
            if name != "none" { #expect(streamed.createdAt == whole.createdAt, "\(name)") }
            // The events (with their times) of a file without a creation time are stored
            // relative to the clock's: compare them where the times do not depend on it.
            if name != "none" { #expect(try log.events(streamed.id) == log.events(whole.id), "\(name)") }
            #expect(try log.verify(session: streamed.id).isValid, "\(name)")
        }
        #expect(imported.map(\.entryOrder) == [1, 2, 3, 4], "the sessions are numbered in file order, with no gap for the file written twice")
        #expect(try StreamedImportTests.partialImports(log).isEmpty)
    }

    /// Files 1 and 2 are written, file 3 is bad: nothing was visible before the end, and after
    /// the rollback the store is as it was (its sessions, its records, its session numbering).
    @Test func aBadLastFileLeavesTheStoreAsItWas() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let files = try Self.layouts(in: dir)
        let bad = dir.path + "/bad.json"
        try #"{"format": "routelog-fixture/1", "name": "typo", "events": [{"push": {"route": ""}}, {"pop": {"count": "two"}}]}"#
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let log = try LMDBEventLog.open(at: dir.path + "/store", options: testOptions())
        let kept = try log.createSession(NewSession(label: "kept"))
        try log.append(generatedEvents(300, seed: 5), to: kept.id, expectedSeq: 0)
        let records = try Self.recordCount(log)
        let group = try log.beginImport()
        try group.add(contentsOf: files["first"]!)
        try group.add(contentsOf: files["after"]!)
        #expect(try log.sessions().map(\.label) == ["kept"], "no reader sees a session before the end")
        #expect(try Self.recordCount(log) > records && StreamedImportTests.partialImports(log).count == 2)
        #expect(throws: FixtureError.self) { try group.add(contentsOf: bad) }
        group.rollback()
        #expect(try log.sessions().map(\.label) == ["kept"])
        #expect(try Self.recordCount(log) == records)
        #expect(try StreamedImportTests.partialImports(log).isEmpty)
        #expect(try log.verify(session: kept.id).isValid)
        // The numbers the rolled-back sessions took are given again.
        #expect(try log.createSession(NewSession(label: "next")).entryOrder == 2)
    }

    /// An import that dies before its end (its locks let go, as a killed process's are) leaves
    /// sessions no reader sees, and the store's next read-write open removes every one of them.
    @Test func anImportThatDiesLeavesNothingAfterTheNextOpen() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let files = try Self.layouts(in: dir)
        let storePath = dir.path + "/store"
        let log = try LMDBEventLog.open(at: storePath, options: testOptions())
        let group = try log.beginImport()
        try group.add(contentsOf: files["first"]!)
        try group.add(contentsOf: files["none"]!)
        for id in try StreamedImportTests.partialImportIDs(log) { log.finishWriting(id) }
        let next = try LMDBEventLog.open(at: storePath, options: testOptions())
        #expect(try next.sessions().isEmpty)
        #expect(try StreamedImportTests.partialImports(next).isEmpty)
        #expect(try Self.recordCount(next) == 0)
        // The import that "died" cannot end: its marks are gone.
        #expect(throws: LMDBEventLogError.self) { _ = try group.commit() }
        #expect(try log.sessions().isEmpty)
    }

    /// The creation time read ahead of the events: found only in a `session` object that comes
    /// before `"events"`.
    @Test func theCreationTimeIsReadFromTheHeaderBeforeTheEvents() {
        func guess(_ text: String) -> Int64? { CreationTimeGuess.created(in: ArraySlice(text.utf8)) }
        let created: Int64 = 1_763_463_600_000 // 2025-11-18T11:00:00.000Z
        let session = #""session": {"created": "2025-11-18T11:00:00.000Z", "label": "a \"}\" b"}"#
        #expect(guess(#"{"format": "routelog-fixture/1", "name": "x", \#(session), "events": [{"pop": {}}]}"#) == created)
        #expect(guess(#" { "description": "[{\"", "name": "x", "n": [1, {"a": [2]}], "t": true, \#(session) , "events": "#) == created)
        #expect(guess(#"{"events": [], \#(session)}"#) == nil, "after the events")
        #expect(guess(#"{"format": "routelog-fixture/1", "events": []}"#) == nil, "no header")
        #expect(guess(#"{"session": {"label": "no time"}, "events": []}"#) == nil)
        #expect(guess(#"{"sess\u0069on": {"created": "2025-11-18T11:00:00.000Z"}, "events": []}"#) == nil, "an escaped key")
        #expect(guess(#"{"session": {"created": "not a time"}, "events": []}"#) == nil)
        #expect(guess(#"{"session": {"created": "2025-11-18T11:00:00.000Z""#) == nil, "cut short")
        #expect(guess("[1, 2]") == nil && guess("") == nil)
    }

    /// How many event records the store holds, a session's or not.
    static func recordCount(_ log: LMDBEventLog) throws -> Int {
        try log.context.withRead("counting") { try $0.statistics(of: log.databases.events).entries }
    }
}
