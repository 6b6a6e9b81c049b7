import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// Issue 39, third round: a failed export leaves the file it was to replace as it was (item 8),
/// and an empty path is a usage error, never the working directory (item 9).
struct UntrustedFilesTests: InProcessSuite {
    let dir: TempDir

    @Test func aFailedExportKeepsTheFileItWasToReplace() async throws {
        let path = dir.path("st")
        do {
            let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
            let id = try log.createSession(NewSession(label: "a", appName: "Pods", appVersion: "1.0")).id
            try log.append(Sessions.generated(seed: 7, count: 40), to: id, expectedSeq: 0)
        }
        let out = dir.path("last.jsonl")
        let good = await run(["export", "--format", "last-states", "--all", "-o", out, "--store", path])
        try #require(good.status == 0, "\(good)")
        let before = try Data(contentsOf: URL(fileURLWithPath: out))
        try #require(before.count > 100)
        // One record's checksum fails (a flipped payload bit), as `withEachRecordDamaged` damages it.
        do {
            let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, retention: .none))
            let info = try #require(try log.sessions().first)
            let eventsDB = try log.environment.database(named: "events")
            // Format 4: the 40 events are one block, keyed by seq 1.
            let key = StoreKey.event(StoreKey.eventPrefix(info), log.storeFormat >= 4 ? 1 : 40)
            var record = try #require(try log.environment.withReadTransaction { try $0.value(forKey: key, in: eventsDB) })
            record[log.storeFormat >= 4 ? BlockCodec.headerSize + 1 : RecordCodec.headerSize] ^= 0x40
            try log.environment.withWriteTransaction { try $0.put(record, forKey: key, in: eventsDB) }
        }
        for format in ["last-states", "events-jsonl"] {
            let failed = await run(["export", "--format", format, "--all", "-o", out, "--store", path])
            #expect(failed.status == 3 && failed.stderr.split(separator: "\n").count == 1, "\(format): \(failed)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == before, "\(format): the file changed")
            // Nothing else is left beside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.parent).sorted() == ["last.jsonl", "st"])
        }
    }

    /// Every path option and argument, empty or blank, run as a process in a directory of its own
    /// (empty, then not) whose parent is watched too.
    @Test(.timeLimit(.minutes(10))) func emptyPathsAreUsageErrors() async throws {
        let store = dir.path("st")
        do {
            let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, clock: { Sessions.t0 }, retention: .none))
            let id = try log.createSession(NewSession(label: "a")).id
            try log.append(Sessions.generated(seed: 3, count: 10), to: id, expectedSeq: 0)
        }
        let parent = dir.url.appendingPathComponent("parent")
        let cwd = parent.appendingPathComponent("cwd")
        try FileManager.default.createDirectory(at: cwd, withIntermediateDirectories: true)
        for blank in ["", " ", "\t"] {
            let cases: [(String, [String])] = [
                ("-o", ["compact", "--store", store, "-o", blank]),
                ("-o", ["repro", "latest", "--store", store, "-o", blank]),
                ("-o", ["export", "latest", "--store", store, "-o", blank]),
                ("-o", ["export", "--format", "last-states", "--all", "--store", store, "-o", blank]),
                ("-o", ["report", "latest", "--store", store, "-o", blank]),
                ("-o", ["minimize", "latest", "--store", store, "--predicate", "path.count > 0", "-o", blank]),
                ("--store", ["sessions", "--store", blank]),
                ("--store", ["compact", "--store", blank, "-o", cwd.appendingPathComponent("copy").path]),
                ("--report", ["fixtures", "check", "--report", blank, store]),
                ("PATH", ["fixtures", "check", blank]),
                ("PATH", ["fixtures", "record", blank]),
                ("FILE", ["import", blank, "--store", store]),
                ("--fixtures", ["mcp", "--store", store, "--fixtures", blank]),
            ]
            for filled in [false, true] {
                if filled { try Data("x".utf8).write(to: cwd.appendingPathComponent("keep.txt")) }
                for (option, args) in cases {
                    let r = try await CLI.run(args, cwd: cwd)
                    CLI.expectError(r, status: 2, option)
                    #expect(r.stderr.contains("empty path") || r.stderr.contains("white space"), "\(args): \(r)")
                    #expect(FileManager.default.fileExists(atPath: cwd.path), "\(args) removed the working directory")
                    let here = try FileManager.default.contentsOfDirectory(atPath: cwd.path)
                    #expect(here == (filled ? ["keep.txt"] : []), "\(args) wrote \(here) into the working directory")
                    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == ["cwd"], "\(args) wrote into the parent")
                }
                try? FileManager.default.removeItem(at: cwd.appendingPathComponent("keep.txt"))
            }
        }
    }
}

