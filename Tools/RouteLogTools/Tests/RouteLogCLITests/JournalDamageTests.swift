import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// A store with one session whose `count` events are only in a journal (the app died before the
/// recorder committed any), as a crashed app leaves it. Returns the session, the journal's files
/// and the events as the reducer folds them.
func journalOnlySession(_ store: String, count: Int, seed: UInt64 = 1) throws -> (SessionID, [String], [StoredEvent]) {
    let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, retention: .none))
    let info = try log.createSession(NewSession(label: "journal", appName: "App", appVersion: "1.0"))
    let journal = try #require(try log.beginRun(of: info.id, head: 0, RunStart(appVersion: "1.0", build: "7")) as? JournalWriter)
    var generator = SessionGenerator(seed: seed)
    var replayer = Replayer()
    var expected: [StoredEvent] = []
    for (i, e) in generator.events(count).enumerated() {
        let recorded = RecordedEvent(e, meta: EventMetadata(timestamp: 1_700_000_000_000 + Int64(i), callSite: CallSite(file: "A.swift", line: i % 7)))
        let step = replayer.apply(e)
        journal.write(recorded, seq: step.seq, digest: step.digest)
        expected.append(StoredEvent(seq: step.seq, recorded: recorded, outcome: step.outcome, digest: step.digest))
    }
    journal.abandon()  // as the app's death leaves it: the run was active
    let files = JournalReader.list(log.journalDirectory).flatMap(\.files)
    return (info.id, files, expected)
}

/// The byte offsets of a segment's entries.
func entryOffsets(_ file: String) throws -> [Int] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    var out: [Int] = []
    var at = JournalWriter.headerSize
    while at + 4 <= bytes.count {
        let length = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        if length == 0 { break }
        out.append(at)
        at += JournalWriter.entrySize(payload: length)
    }
    return out
}

/// Rewrites bytes of a file in place.
func patch(_ file: String, at offset: Int, _ body: (inout UInt8) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    body(&bytes[offset])
    try Data(bytes).write(to: URL(fileURLWithPath: file))
}

@Suite("Journal damage and recovery", .serialized, .tags(.appleLocks))
struct JournalDamageTests {
    @Test func tornLastEntryIsDropped() async throws {
        for variant in ["torn", "flipped"] {
            let dir = try TempDir()
            defer { dir.cleanup() }
            let (id, files, expected) = try journalOnlySession(dir.path, count: 20)
            let file = try #require(files.last)
            let last = try #require(try entryOffsets(file).last)
            if variant == "torn" {
                // Died inside the last entry: its body is there, its length (written last) is not.
                for i in 0..<4 { try patch(file, at: last + i) { $0 = 0 } }
            } else {
                try patch(file, at: last + JournalWriter.entryHeader + 1) { $0 ^= 0x10 }
            }
            let (shown, recovered) = try await loggedSeqs(dir.path, id.rawValue)
            #expect(shown == Array(1...19), "\(variant)")
            #expect(recovered == Set(1...19))
            do {
                let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
                #expect(log.journalRecovery.problems.isEmpty, "\(log.journalRecovery.problems)")
                #expect(try log.events(id).map(\.digest) == expected.prefix(19).map(\.digest))
                #expect(try log.runs(of: id).last?.end == .crashed(recovered: 19, lastSeq: 19))
            }
            #expect(JournalReader.list((dir.path as NSString).appendingPathComponent("journal")).isEmpty)
        }
    }

    /// A reader holding a crashed app's journal (shared, as `routelog log` does while it reads)
    /// does not make a launch take it for a live writer's: the recovery waits for the reader and
    /// recovers every event. A live writer's journal (held exclusively) is still left alone.
    @Test func recoveryWaitsForAReaderButNotForAWriter() throws {
        for holder in [LOCK_SH, LOCK_EX] {
            let dir = try TempDir()
            defer { dir.cleanup() }
            let (id, files, expected) = try journalOnlySession(dir.path, count: 12)
            let fd = open(try #require(files.first), O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            // The abandoned writer closed its descriptors, but a child process that another test
            // is starting meanwhile may hold a copy of one (and its lock) from its fork until its
            // exec closes it: asked again for up to 5 s.
            var locked = flock(fd, holder | LOCK_NB) == 0
            for _ in 0..<500 where !locked {
                usleep(10_000)
                locked = flock(fd, holder | LOCK_NB) == 0
            }
            try #require(locked, "flock: \(String(cString: strerror(errno)))")
            let released = DispatchSemaphore(value: 0)
            if holder == LOCK_SH {
                // The reader lets go after 150 ms, while the open is waiting.
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) { close(fd); released.signal() }
            }
            let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
            if holder == LOCK_SH {
                #expect(log.journalRecovery.skippedLive == 0)
                #expect(try log.events(id).map(\.digest) == expected.map(\.digest))
                released.wait()
            } else {
                #expect(log.journalRecovery.skippedLive == 1)
                #expect(try log.session(id).eventCount == 0)
                close(fd)
            }
        }
    }

    /// Before any read-write open, `state`, `export` and `report` show a crashed app's journaled
    /// events (marked recovered where they have a field for it), and reading writes nothing.
    @Test func readersShowTheJournalBeforeRecovery() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (id, files, expected) = try journalOnlySession(dir.path, count: 12)
        let state = await InProcess.run(["state", "--store", dir.path, id.rawValue, "--json"])
        #expect(state.status == 0, "\(state)")
        guard case .object(let o)? = try? JSONValue(parsing: state.stdout), case .int(let seq)? = o["seq"] else {
            Issue.record("not a state: \(state.stdout)")
            return
        }
        #expect(seq == 12 && o["digest"] == .string(expected[11].digest.hex))
        let export = await InProcess.run(["export", "--store", dir.path, id.rawValue, "--format", "events-jsonl", "-o", "-"])
        let rows = export.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(export.status == 0 && rows.count == 12, "\(export)")
        #expect(rows.allSatisfy { if case .object(let r) = $0 { r["recovered"] == .bool(true) && r["run_end"] == .string("crashed") } else { false } })
        let page = dir.path("page.html")
        let report = await InProcess.run(["report", "--store", dir.path, id.rawValue, "-o", page])
        #expect(report.status == 0, "\(report)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("\"end\":\"crashed\"") && html.contains("\"lastSeq\":12"))
        // The readers left the journal where it was and wrote nothing to the store.
        #expect(JournalReader.list((dir.path as NSString).appendingPathComponent("journal")).flatMap(\.files) == files)
        let log = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(log.journaled(id) == 1...12)
    }

    /// A damaged entry with entries after it: a reader stops with one line (exit 3); the next
    /// read-write open recovers what comes before it and invents nothing after it.
    @Test func damagedMiddleEntryIsReported() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (id, files, expected) = try journalOnlySession(dir.path, count: 20)
        let offsets = try entryOffsets(files[0])
        try patch(files[0], at: offsets[9] + JournalWriter.entryHeader) { $0 ^= 0x01 }
        let r = await InProcess.run(["log", "--store", dir.path, id.rawValue])
        CLI.expectError(r, status: 3, "is damaged")
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
            #expect(log.journalRecovery.problems.count == 1)
            #expect(!(log.journalRecovery.problems.first ?? "\n").contains("\n"))
            #expect(try log.session(id).eventCount == 9)
            #expect(try log.events(id) == Array(expected.prefix(9)))
        }
        // The damaged journal is kept aside; reading works again and shows the 9 events.
        let after = await InProcess.run(["log", "--store", dir.path, id.rawValue, "--json"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout.split(separator: "\n").count == 9)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("store/journal")).allSatisfy { $0.hasSuffix(".damaged") })
    }

    /// Recovery killed at random points, again and again: afterwards every event is there once.
    @Test func recoveryHappensExactlyOnce() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (id, files, expected) = try journalOnlySession(dir.path, count: 20_000)
        #expect(files.count >= 2, "the journal spans segments")
        var rng = SplitMix64(seed: 99)
        for _ in 0..<8 {
            let child = try CrashApp.start(["recover", dir.path])
            usleep(UInt32(rng.next() % 60_000))
            kill(child.process.processIdentifier, SIGKILL)
            _ = child.rest()
        }
        let out = try CrashApp.run(["recover", dir.path])
        #expect(out.last == "open" && !out.contains { $0.hasPrefix("problem") }, "\(out)")
        let log = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        let info = try log.session(id)
        #expect(info.eventCount == 20_000)
        #expect(info.headDigest == expected.last?.digest)
        #expect(try log.verify(session: id).isValid)
        #expect(try log.runs(of: id).first?.end == .crashed(recovered: 20_000, lastSeq: 20_000))
        #expect(log.journaled(id) == nil)
    }

    /// A full disk while recovering: one line, nothing lost, and a later open completes it.
    @Test func diskFullDuringRecovery() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let mountPoint = dir.path("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try Child(path: "/bin/mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", mountPoint], stdin: .empty, output: .merged).wait()
        try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.output)")
        defer { _ = try? Child(path: "/bin/umount", [mountPoint], stdin: .empty, output: .merged).wait() }
        let store = mountPoint + "/store"
        let (id, _, expected) = try journalOnlySession(store, count: 6_000)
        // Fill the disk.
        let filler = mountPoint + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 1, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        do {
            let log = try LMDBEventLog.open(at: store, options: .init(retention: .none))
            #expect(log.journalRecovery.recovered.isEmpty)
            #expect(log.journalRecovery.problems.count == 1, "\(log.journalRecovery.problems)")
            #expect(log.journalRecovery.problems.allSatisfy { !$0.contains("\n") && $0.contains("not recovered yet") })
            #expect(try log.session(id).eventCount == 0)
        }
        #expect(JournalReader.list(store + "/journal").count == 1, "the journal stays")
        unlink(filler)
        do {
            let log = try LMDBEventLog.open(at: store, options: .init(retention: .none))
            #expect(log.journalRecovery.problems.isEmpty, "\(log.journalRecovery.problems)")
            #expect(try log.events(id) == expected)
        }
    }
}
