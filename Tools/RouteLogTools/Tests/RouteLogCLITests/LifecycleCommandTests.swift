import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Synchronization
import Testing

/// `routelog rm`, `prune`, `compact` and `stats` on stores the tests write with `LMDBEventLog`.
struct LifecycleCommandTests {
    let dir: TempDir
    var store: String { dir.path("st") }

    init() throws {
        dir = try TempDir()
    }

    /// Writes `count` sessions of `events` generated events each (entered at a fixed old time),
    /// closes the log and returns their ids in entry order.
    @discardableResult
    func populate(_ count: Int, events: Int = 40, at path: String? = nil, format: UInt32 = LMDBEventLog.newStoreFormat) throws -> [SessionID] {
        var options = LMDBEventLog.Options(durability: .none, clock: { Sessions.t0 }, retention: .none)
        options.storeFormat = format
        let log = try LMDBEventLog.open(at: path ?? store, options: options)
        var ids: [SessionID] = []
        for i in 0..<count {
            let id = try log.createSession(NewSession(label: "s\(i)")).id
            if events > 0 { try log.append(Sessions.generated(seed: UInt64(i), count: events), to: id, expectedSeq: 0) }
            ids.append(id)
        }
        return ids
    }

    func run(_ args: [String]) async -> CLIResult { await InProcess.run(args + ["--store", store], in: dir) }

    func storedIDs() throws -> [SessionID] {
        try LMDBEventLog.open(at: store, options: .init(readOnly: true)).sessions().map(\.id)
    }

    // MARK: rm

    @Test func rmDeletesTheNamedSessions() async throws {
        let ids = try populate(4)
        let prefix = String(ids[1].rawValue.prefix(30))
        let r = await run(["rm", ids[0].rawValue, prefix, "latest"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == """
            deleted \(ids[0].rawValue) s0 (40 events)
            deleted \(ids[1].rawValue) s1 (40 events)
            deleted \(ids[3].rawValue) s3 (40 events)

            """, "\(r)")
        #expect(try storedIDs() == [ids[2]])
        let json = try #require(try await run(["rm", "latest", "--json"]).stdout.json().objectValue)
        #expect(json["sessions"]?.arrayValue?.map { $0["id"]?.stringValue } == [ids[2].rawValue])
        #expect(json["events"]?.intValue == 40)
        #expect(try storedIDs().isEmpty)
    }

    @Test func rmOfAnUnknownSessionDeletesNothing() async throws {
        let ids = try populate(2)
        CLI.expectError(await run(["rm", ids[0].rawValue, "0190dead-0000-7000-8000-000000000000"]), status: 2, "unknown session: 0190dead")
        CLI.expectError(await run(["rm", ids[0].rawValue, "latest~5"]), status: 2, "unknown session: latest~5")
        CLI.expectError(await run(["rm", "$/x.json"]), status: 2, "not files")
        CLI.expectError(await run(["rm", "latest@3"]), status: 2, "whole sessions")
        CLI.expectError(await run(["rm"]), status: 2, "give at least one SESSION")
        #expect(try storedIDs() == ids)
    }

    @Test func rmNeedsAStoreAndCreatesNone() async throws {
        CLI.expectError(await run(["rm", "latest"]), status: 3, "not a store")
        #expect(!FileManager.default.fileExists(atPath: store))
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        CLI.expectError(await run(["prune", "--keep", "1"]), status: 3, "not a store")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store).isEmpty)
    }

    @Test func rmRefusesASessionAnAppIsWriting() async throws {
        let ids = try populate(2)
        let app = try LMDBEventLog.open(at: store, options: .init(durability: .none, retention: .none))
        try app.append(Sessions.generated(seed: 9, count: 1), to: ids[1], expectedSeq: 40)
        CLI.expectError(await run(["rm", ids[0].rawValue, ids[1].rawValue]), status: 3, "session in use: \(ids[1].rawValue)")
        #expect(try app.sessions().map(\.id) == ids)
        app.finishWriting(ids[1])
        #expect(await run(["rm", ids[1].rawValue]).status == 0)
        #expect(try app.sessions().map(\.id) == [ids[0]])
    }

    // MARK: prune

    @Test func pruneKeepsTheNewestAndDryRunDeletesNothing() async throws {
        let ids = try populate(5)
        let dry = await run(["prune", "--keep", "2", "--dry-run"])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout == ids.prefix(3).enumerated().map { "would delete \($1.rawValue) s\($0) (40 events)\n" }.joined(), "\(dry)")
        #expect(try storedIDs() == ids)
        let real = await run(["prune", "--keep", "2"])
        #expect(real.stdout == ids.prefix(3).enumerated().map { "deleted \($1.rawValue) s\($0) (40 events)\n" }.joined(), "\(real)")
        #expect(try storedIDs() == Array(ids.suffix(2)))
        let none = await run(["prune", "--keep", "2"])
        #expect(none.status == 0 && none.stdout == "nothing to delete\n", "\(none)")
    }

    @Test func pruneByAgeAndBySize() async throws {
        // Sessions entered at a fixed time in the past (2026-11-18) are older than a day now.
        let ids = try populate(3, events: 400)
        let json = try #require(try await run(["prune", "--older-than", "36500d", "--dry-run", "--json"]).stdout.json().objectValue)
        #expect(json["sessions"]?.arrayValue?.isEmpty == true && json["dryRun"]?.boolValue == true)
        let live = try LMDBEventLog.open(at: store, options: .init(readOnly: true)).statistics().liveBytes
        // A budget a little under the live data drops the oldest session only.
        let bySize = await run(["prune", "--max-size", "\(live - 4096)"])
        #expect(bySize.stdout == "deleted \(ids[0].rawValue) s0 (400 events)\n", "\(bySize)")
        let byAge = await run(["prune", "--older-than", "1d"])
        #expect(byAge.stdout.split(separator: "\n").count == 2, "\(byAge)")
        #expect(try storedIDs().isEmpty)
    }

    @Test func pruneRejectsBadValues() async throws {
        try populate(1)
        CLI.expectError(await run(["prune"]), status: 2, "prune needs --keep, --older-than or --max-size")
        CLI.expectError(await run(["prune", "--older-than", "30x"]), status: 2, "bad duration '30x'")
        CLI.expectError(await run(["prune", "--older-than", "d"]), status: 2, "bad duration")
        CLI.expectError(await run(["prune", "--max-size", "lots"]), status: 2, "bad size 'lots'")
        CLI.expectError(await run(["prune", "--keep", "-1"]), status: 2, "--keep")
        CLI.expectError(await run(["prune", "--keep", "many"]), status: 2, "keep")
        #expect(try storedIDs().count == 1)
    }

    @Test func sizesAndDurationsParse() throws {
        #expect(try PruneCommand.parseSize("64MB") == 64 << 20)
        #expect(try PruneCommand.parseSize("512kb") == 512 << 10)
        #expect(try PruneCommand.parseSize("1G") == 1 << 30)
        #expect(try PruneCommand.parseSize("4096") == 4096)
        #expect(try PruneCommand.parseDuration("30d") == .seconds(30 * 86_400))
        #expect(try PruneCommand.parseDuration("2w") == .seconds(14 * 86_400))
        #expect(try PruneCommand.parseDuration("90m") == .seconds(5400))
        #expect(throws: RouteLogError.self) { try PruneCommand.parseSize("-1MB") }
        #expect(throws: RouteLogError.self) { try PruneCommand.parseDuration("99999999999999999d") }
    }

    /// The CLI keeps every session: importing into a store with more sessions than an app's
    /// default policy keeps deletes none.
    @Test func importKeepsEverySession() async throws {
        try populate(55, events: 0)
        try dir.writeSession("upsell.json", Sessions.upsell, label: "upsell")
        let r = try await CLI.run(["import", "--store", store, "upsell.json"], cwd: dir.url)
        #expect(r.status == 0, "\(r)")
        #expect(try storedIDs().count == 56)
    }

    // MARK: compact

    @Test func compactWritesASmallerCopyThatReadsTheSame() async throws {
        let ids = try populate(6, events: 2000)
        #expect(await run(["rm", ids[0].rawValue, ids[1].rawValue, ids[2].rawValue]).status == 0)
        let out = dir.path("copy")
        let r = await run(["compact", "-o", out, "--json"])
        #expect(r.status == 0, "\(r)")
        let json = try #require(try r.stdout.json().objectValue)
        let before = try #require(json["bytesBefore"]?.intValue), after = try #require(json["bytesAfter"]?.intValue)
        #expect(after < before, "\(r)")
        let copy = try LMDBEventLog.open(at: out, options: .init(readOnly: true))
        #expect(try copy.sessions().map(\.id) == Array(ids.suffix(3)))
        for id in ids.suffix(3) { #expect(try copy.verify(session: id).isValid) }
        let text = await run(["compact", "-o", dir.path("copy2")])
        #expect(text.stdout.hasPrefix("compacted ") && text.stdout.contains(" to "), "\(text)")
    }

    /// `compact --format 4` converts a format-3 store into a copy that reads the same, about half
    /// its size; another format is a usage error.
    @Test func compactConvertsAFormat3Store() async throws {
        let ids = try populate(3, events: 3000, format: 3)
        let out = dir.path("v4")
        let r = await run(["compact", "-o", out, "--format", "4", "--json"])
        #expect(r.status == 0, "\(r)")
        let json = try #require(try r.stdout.json().objectValue)
        #expect(json["formatBefore"]?.intValue == 3 && json["formatAfter"]?.intValue == 4, "\(r)")
        let before = try #require(json["bytesBefore"]?.intValue), after = try #require(json["bytesAfter"]?.intValue)
        #expect(after * 10 < before * 7, "\(r)")
        let old = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let copy = try LMDBEventLog.open(at: out, options: .init(readOnly: true))
        #expect(copy.storeFormat == 4)
        for id in ids {
            #expect(try copy.events(id) == (try old.events(id)))
            #expect(try copy.verify(session: id).isValid)
        }
        let text = await run(["compact", "-o", dir.path("v4b"), "--format", "4"])
        #expect(text.stdout.contains("converted from format 3 to 4"), "\(text)")
        CLI.expectError(await run(["compact", "-o", dir.path("v3"), "--format", "3"]), status: 2, "--format 3")
    }

    @Test func compactWhileAnAppWrites() async throws {
        let ids = try populate(1, events: 10)
        let app = try LMDBEventLog.open(at: store, options: .init(durability: .none, retention: .none))
        let stop = Mutex(false)
        let writer = Thread {
            var seq: UInt64 = 10
            let events = Sessions.generated(seed: 3, count: 50_000)
            var i = 0
            while !stop.withLock({ $0 }) && i + 50 <= events.count {
                _ = try? app.append(Array(events[i..<i + 50]), to: ids[0], expectedSeq: seq)
                seq += 50
                i += 50
            }
        }
        writer.start()
        for round in 0..<3 {
            let out = dir.path("copy\(round)")
            let r = await run(["compact", "-o", out])
            #expect(r.status == 0, "\(r)")
            let copy = try LMDBEventLog.open(at: out, options: .init(readOnly: true))
            let report = try copy.verify(session: ids[0])
            #expect(report.isValid, "\(report)")
        }
        stop.withLock { $0 = true }
        while !writer.isFinished { usleep(1000) }
    }

    @Test func compactErrors() async throws {
        CLI.expectError(await run(["compact", "-o", dir.path("c")]), status: 3, "not a store")
        try populate(1)
        try dir.write("full/x", "x")
        CLI.expectError(await run(["compact", "-o", dir.path("full")]), status: 2, "not empty")
        CLI.expectError(await run(["compact", "-o", dir.path("full/x")]), status: 2, "not a directory")
        CLI.expectError(await run(["compact"]), status: 2, "-o")
    }

    // MARK: stats

    @Test func statsCountsAndSizes() async throws {
        let ids = try populate(3, events: 1000)
        #expect(await run(["rm", ids[0].rawValue]).status == 0)
        let r = await run(["stats", "--json"])
        #expect(r.status == 0, "\(r)")
        let json = try #require(try r.stdout.json().objectValue)
        #expect(json["sessions"]?.intValue == 2)
        #expect(json["events"]?.intValue == 2000)
        let size = (try FileManager.default.attributesOfItem(atPath: store + "/data.mdb")[.size] as! NSNumber).intValue
        #expect(json["bytesOnDisk"]?.intValue == Int64(size))
        let live = try #require(json["liveBytes"]?.intValue)
        #expect(live > 0 && live < Int64(size))
        #expect((json["freePages"]?.intValue ?? 0) > 0, "a deleted session leaves free pages: \(r)")
        #expect(json["oldest"]?["id"]?.stringValue == ids[1].rawValue)
        #expect(json["newest"]?["id"]?.stringValue == ids[2].rawValue)
        // A whole number of bytes per event is written without a fraction.
        let perEvent: Double
        switch json["bytesPerEvent"] {
        case .double(let d)?: perEvent = d
        case .int(let i)?: perEvent = Double(i)
        default: Issue.record("bytesPerEvent: \(r)"); return
        }
        #expect(abs(perEvent - Double(size) / 2000) < 0.1)

        let text = await run(["stats"])
        let labels = text.stdout.split(separator: "\n").map { $0.split(separator: "  ").first.map(String.init) ?? "" }
        #expect(labels == ["sessions", "events", "bytes on disk", "live bytes", "bytes per event", "free pages", "map size",
                           "oldest session", "newest session"], "\(text)")
        #expect(text.stdout.contains("\(ids[1].rawValue) s1"))
    }

    @Test func statsOfAMissingStoreIsADataError() async throws {
        CLI.expectError(await run(["stats"]), status: 3, "not a store")
    }

    @Test func helpNamesTheWritingCommands() async throws {
        // Help text is wrapped to the terminal: compare with the line breaks folded.
        func folded(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let r = await InProcess.run(["--help"])
        #expect(folded(r.stdout).contains("Only import, rm and prune write to the store"), "\(r)")
        for command in ["rm", "prune"] {
            let h = await InProcess.run([command, "--help"])
            #expect(folded(h.stdout).contains("rm, prune and import are the only commands that write to the store"), "\(h)")
        }
    }
}

/// The built binary against a session another process is writing.
@Suite(.tags(.appleLocks))
struct LifecycleEndToEndTests {
    @Test(.timeLimit(.minutes(8))) func rmAndPruneLeaveASessionAnotherProcessWrites() async throws {
        let dir = try TempDir()
        let store = dir.path("st")
        let writer = try Child(["write", store, "7", "0", "hold"])
        defer { if writer.process.isRunning { writer.kill() } }
        // "session ID", then "holding": the writer has its session and appends on.
        for _ in 0..<200 where !(writer.lines.last ?? "").hasPrefix("holding") {
            if writer.nextLine() == nil { break }
        }
        let id = try #require(writer.lines.first { $0.hasPrefix("session ") }.map { String($0.dropFirst(8)) }, "writer said \(writer.lines)")

        CLI.expectError(try await CLI.run(["rm", id, "--store", store]), status: 3, "session in use: \(id)")
        let dry = try await CLI.run(["prune", "--keep", "0", "--dry-run", "--store", store])
        #expect(dry.status == 0 && dry.stdout == "nothing would be deleted\n", "\(dry)")
        let prune = try await CLI.run(["prune", "--keep", "0", "--store", store])
        #expect(prune.status == 0 && prune.stdout == "nothing to delete\n", "\(prune)")

        writer.kill()
        writer.process.waitUntilExit()
        let rm = try await CLI.run(["rm", id, "--store", store])
        #expect(rm.status == 0 && rm.stdout.hasPrefix("deleted \(id) writer 7 ("), "\(rm)")
        let sessions = try await CLI.run(["sessions", "--json", "--store", store])
        #expect(sessions.stdout == "[]\n", "\(sessions)")
    }
}
