import Foundation
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport
import Testing
@_spi(Tools) @testable import RouteLogLMDB

/// The first of `names` found on the PATH or in /usr/bin.
@Suite("LMDBEventLog interoperability and export", .tags(.appleLocks))
struct InteropTests {
    @Test func mdbStatListsTheNamedDatabases() throws {
        // lmdb-utils is installed by `make setup`: a missing tool fails the test, it never skips it.
        let mdbStat = try #require(findTool("mdb_stat"), "mdb_stat is missing: run make setup (lmdb-utils)")
        let mdbDump = try #require(findTool("mdb_dump"), "mdb_dump is missing: run make setup (lmdb-utils)")
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 10))
        let s = try log.createSession(NewSession(label: "stat"))
        let events = generatedEvents(25, seed: 8)
        try log.append(events, to: s.id, expectedSeq: 0)
        let stat = try Child(path: mdbStat, ["-a", dir.path], stdin: .empty, output: .merged).wait()
        let (status, output) = (stat.status, stat.output)
        #expect(status == 0, "\(output)")
        // Each named database is listed with its entry count.
        let sites = Set(events.compactMap(\.meta.callSite)).count
        // The 25 events fill one block of format 4.
        for (name, entries) in [("meta", 1), ("sessions", 1), ("events", 1), ("snapshots", 2), ("sites", sites)] {
            let section = output.components(separatedBy: "Status of \(name)\n").dropFirst().first ?? ""
            #expect(section.contains("Entries: \(entries)\n"), "mdb_stat -a output for \(name):\n\(output)")
        }
        let dump = try Child(path: mdbDump, ["-s", "meta", "-p", dir.path], stdin: .empty, output: .merged).wait()
        let (dumpStatus, dumped) = (dump.status, dump.output)
        #expect(dumpStatus == 0 && dumped.contains("format"), "\(dumped)")
    }

    @Test func exportAndImportKeepEventsAndMetadata() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let s = try log.createSession(NewSession(label: "bug 42", appName: "Podcasts", appVersion: "3.1"))
        var events = generatedEvents(40, seed: 31)
        events[3].meta.note = "tapped twice"
        events[4].meta.callSite = CallSite(file: "Player.swift", line: 88)
        try log.append(events, to: s.id, expectedSeq: 0)

        let fixture = try log.exportFixture(session: s.id)
        #expect(fixture.name == "bug 42")
        #expect(fixture.events == events)
        #expect(fixture.session == Fixture.SessionHeader(label: "bug 42", app: "Podcasts", appVersion: "3.1", created: s.createdAt))
        #expect(fixture.check().passed)
        // Through the fixture text and back into another store.
        let text = fixture.rendered()
        let reread = try Fixture(text: text, file: "bug-42.json")
        let other = try TempDir()
        defer { other.cleanup() }
        let log2 = try LMDBEventLog.open(at: other.path, options: testOptions())
        let imported = try log2.importFixture(reread)
        #expect(imported.label == "bug 42" && imported.appName == "Podcasts" && imported.appVersion == "3.1")
        #expect(imported.createdAt == s.createdAt)
        #expect(imported.headDigest == (try log.session(s.id)).headDigest)
        #expect(try log2.events(imported.id) == log.events(s.id))
        #expect(try log2.verify(session: imported.id).isValid)
    }

    @Test(.timeLimit(.minutes(6))) func followDeliversExistingThenNewEventsAndEndsOnCancellation() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        let s = try log.createSession(NewSession()).id
        let events = generatedEvents(30, seed: 12)
        try log.append(Array(events[0..<10]), to: s, expectedSeq: 0)
        let reader = Task {
            var seqs: [UInt64] = []
            for try await e in log.follow(session: s, from: 5) {
                seqs.append(e.seq)
                if e.seq == 30 { break }
            }
            return seqs
        }
        try await Task.sleep(for: .milliseconds(20))
        try log.append(Array(events[10..<30]), to: s, expectedSeq: 10)
        #expect(try await reader.value == Array(5...30))

        let idle = Task {
            var n = 0
            for try await _ in log.follow(session: s, from: 31) { n += 1 }
            return n
        }
        try await Task.sleep(for: .milliseconds(20))
        idle.cancel()
        #expect(try await idle.value == 0)

        let missing = SessionID("01900000-0000-7000-8000-000000000000")
        await #expect(throws: EventLogError.sessionNotFound(missing)) {
            for try await _ in log.follow(session: missing) {}
        }
    }
}
