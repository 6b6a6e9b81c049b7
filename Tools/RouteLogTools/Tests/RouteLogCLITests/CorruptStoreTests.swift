import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// A store damaged below RouteLog's checksums: bits flipped in LMDB's pages. `routelog` must answer
/// with a documented exit code and at most one line of error, never die of a signal or hang.
@Suite(.tags(.appleLocks)) struct CorruptStoreTests {
    /// A new directory with a store `st` into which `routelog import` put the fixture
    /// router-navigation-push.json.
    static func importedStore(sourceLocation: SourceLocation = #_sourceLocation) async throws -> TempDir {
        let dir = try TempDir()
        let imported = try await CLI.run(["import", "--store", "st", CLI.packageRoot.appendingPathComponent("Fixtures/router-navigation-push.json").path], cwd: dir.url)
        #expect(imported.status == 0, "\(imported)", sourceLocation: sourceLocation)
        return dir
    }

    /// A child that crashes or hangs while reading becomes the damaged-store data error.
    @Test func aCrashOrAHangWhileReadingIsADataError() async throws {
        let dir = try await Self.importedStore()
        let crash = try await CLI.run(["sessions", "--store", "st"], cwd: dir.url, env: ["ROUTELOG_TEST_STORE_FAULT": "crash"])
        CLI.expectError(crash, status: 3, "damaged store: st: its LMDB pages are damaged (reading it crashed with SIGSEGV)")
        #expect(crash.stderr.contains("routelog export"), "\(crash)")
        let hang = try await CLI.run(["log", "latest", "--store", "st"], cwd: dir.url,
                               env: ["ROUTELOG_TEST_STORE_FAULT": "hang", "ROUTELOG_STORE_TIMEOUT": "1"])
        CLI.expectError(hang, status: 3, "damaged store: st: its LMDB pages are damaged (a read of its pages made no progress for 1 s")
        // The same commands without a fault pass their output and status through.
        let ok = try await CLI.run(["log", "latest", "--store", "st"], cwd: dir.url)
        #expect(ok.status == 0 && !ok.stdout.isEmpty && ok.stderr.isEmpty, "\(ok)")
        let usage = try await CLI.run(["log", "latest~5", "--store", "st"], cwd: dir.url)
        CLI.expectError(usage, status: 2, "unknown session: latest~5")
    }

    /// The watchdog stops only a child stuck inside LMDB: healthy work longer than the bound
    /// (3 s outside LMDB against a 1 s bound) finishes with its own output and status.
    @Test func slowHealthyWorkIsNotCalledDamage() async throws {
        let dir = try await Self.importedStore()
        let slow = try await CLI.run(["log", "latest", "--store", "st"], cwd: dir.url,
                                     env: ["ROUTELOG_TEST_STORE_FAULT": "slow", "ROUTELOG_STORE_TIMEOUT": "1"])
        let plain = try await CLI.run(["log", "latest", "--store", "st"], cwd: dir.url)
        #expect(slow.status == 0 && slow.stderr.isEmpty && slow.stdout == plain.stdout, "\(slow)")
    }

    /// A crash of routelog's own code (a trap: SIGILL) is reported as a crash of routelog with its
    /// signal and `routelog verify` suggested, never as damage to the store.
    @Test func aCrashOfRoutelogIsNotCalledDamage() async throws {
        let dir = try await Self.importedStore()
        let trap = try await CLI.run(["sessions", "--store", "st"], cwd: dir.url, env: ["ROUTELOG_TEST_STORE_FAULT": "trap"])
        CLI.expectError(trap, status: 3, "routelog crashed (SIGILL) running 'sessions': a bug in routelog, not damage to the store")
        #expect(trap.stderr.contains("routelog verify") && !trap.stderr.contains("damaged"), "\(trap)")
    }

    /// Seeded bit flips in `data.mdb`: a few hundred copies with 1, 2 or 8 flipped bits, each read
    /// by `verify --all` and `log latest`.
    @Test func bitFlippedStoresNeverCrashOrHang() async throws {
        let dir = try TempDir()
        let fixture = CLI.packageRoot.appendingPathComponent("Fixtures/exported-session-podcast-bug-report.json").path
        let imported = try await CLI.run(["import", "--store", "base", fixture], cwd: dir.url)
        #expect(imported.status == 0, "\(imported)")
        let original = try [UInt8](Data(contentsOf: dir.url.appendingPathComponent("base/data.mdb")))
        let copies = 200
        var rng = SplitMix64(seed: 0x5EED_F11B)
        var jobs: [(copy: Int, args: [String])] = []
        for k in 0..<copies {
            var bytes = original
            let flips = [1, 2, 8][k % 3]
            for _ in 0..<flips {
                let bit = Int(rng.next() % UInt64(bytes.count * 8))
                bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            }
            let store = dir.url.appendingPathComponent("c\(k)")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try Data(bytes).write(to: store.appendingPathComponent("data.mdb"))
            jobs.append((k, ["verify", "--all", "--store", "c\(k)"]))
            jobs.append((k, ["log", "latest", "--store", "c\(k)"]))
        }
        let results = try CLI.runAll(jobs.map(\.args), cwd: dir.url, env: ["ROUTELOG_STORE_TIMEOUT": "10"], parallel: 4, deadline: 600)
        var damaged = 0, byStatus: [Int32: Int] = [:]
        for (job, r) in zip(jobs, results) {
            let what = "copy \(job.copy): routelog \(job.args.joined(separator: " "))"
            guard let r else { Issue.record("\(what) did not finish within 600 s"); continue }
            #expect(r.signal == nil, "\(what) died of signal \(r.signal ?? 0): \(r.result)")
            let allowed: Set<Int32> = job.args[0] == "verify" ? [0, 1, 3] : [0, 2, 3]
            #expect(allowed.contains(r.result.status), "\(what): undocumented status: \(r.result)")
            #expect(!r.result.stderr.contains("Fatal error") && !r.result.stderr.contains("Program crashed"), "\(what): \(r.result)")
            if r.result.status >= 2 {
                let lines = r.result.stderr.split(separator: "\n")
                #expect(lines.count == 1 && r.result.stderr.hasPrefix("routelog: "), "\(what): not one error line: \(r.result)")
            }
            if r.result.stderr.contains("damaged store:") { damaged += 1 }
            byStatus[r.result.status, default: 0] += 1
        }
        print("bit flips: \(copies) copies, \(jobs.count) runs, statuses \(byStatus.sorted { $0.key < $1.key }), \(damaged) contained crashes or hangs")
    }
}

extension CLI {
    /// One run of `runAll`: the result, and the signal that ended the process, if one did.
    struct Outcome {
        var result: CLIResult
        var signal: Int32?
    }

    /// Runs many `routelog` commands, `parallel` at a time; a run still going after `deadline`
    /// seconds is killed and reported as `nil`.
    static func runAll(_ commands: [[String]], cwd: URL, env: [String: String], parallel: Int, deadline: Double) throws -> [Outcome?] {
        var results = [Outcome?](repeating: nil, count: commands.count)
        var running: [(index: Int, child: Child, started: Date)] = []
        var next = 0
        let unsetting = ["NO_COLOR", "ROUTELOG_STORE", "ROUTELOG_TEST_REDUCER_MUTATION", "ROUTELOG_RECORD", "ROUTELOG_TEST_STORE_FAULT"]
        while next < commands.count || !running.isEmpty {
            while running.count < parallel && next < commands.count {
                let child = try Child(path: binary.path, commands[next], environment: env, unsetting: unsetting, directory: cwd,
                                      stdin: .empty, output: .separate)
                running.append((next, child, Date()))
                next += 1
            }
            Thread.sleep(forTimeInterval: 0.005)
            running.removeAll { job in
                let p = job.child.process
                if p.isRunning {
                    guard Date().timeIntervalSince(job.started) > deadline else { return false }
                    p.terminate()
                    job.child.kill()
                    p.waitUntilExit()
                    return true
                }
                let ended = try? job.child.wait()
                let r = CLIResult(stdout: ended?.stdout ?? "", stderr: ended?.stderr ?? "", status: p.terminationStatus)
                results[job.index] = Outcome(result: r, signal: p.terminationReason == .uncaughtSignal ? p.terminationStatus : nil)
                return true
            }
        }
        return results
    }
}
