import Foundation
@_spi(Tools) import RouteLogCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import RouteLogCLI

/// Inputs an attacker or a heavy user gives: files that are not files, long ids against long
/// needles, a clock in the future.
@Suite struct AdversarialInputTests {
    /// A FIFO, a device, a socket-like path or a symlink to one is refused in one line with exit 3,
    /// without blocking (a FIFO with no writer would block an `open`), also inside a folder given
    /// to `fixtures check`.
    @Test func nonRegularFilesAreRefused() async throws {
        let dir = try TempDir()
        let fifo = dir.path("events.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.json"), withDestinationPath: fifo)
        try FileManager.default.createSymbolicLink(atPath: dir.path("zero.json"), withDestinationPath: "/dev/zero")
        for path in [fifo, dir.path("link.json"), "/dev/zero", dir.path("zero.json")] {
            for args in [["state", path], ["log", path], ["report", path, "-o", dir.path("r.html")], ["import", path, "--store", dir.path("st")],
                         ["fixtures", "check", path]] {
                let r = try await CLI.run(args, cwd: dir.url)
                CLI.expectError(r, status: 3, "not a regular file")
            }
        }
        // The same FIFO inside a folder given to `fixtures check`.
        let folder = dir.path("fixtures")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("Fixtures/router-navigation-push.json").path,
                                         toPath: folder + "/a.json")
        #expect(mkfifo(folder + "/b.json", 0o600) == 0)
        CLI.expectError(try await CLI.run(["fixtures", "check", folder], cwd: dir.url), status: 3, "\(folder)/b.json: not a regular file")
        // The refused imports left no session behind.
        if FileManager.default.fileExists(atPath: dir.path("st/data.mdb")) {
            let listed = try await CLI.run(["sessions", "--store", dir.path("st"), "--json"], cwd: dir.url)
            #expect(listed.stdout == "[]\n", "\(listed)")
        }
    }

    /// `contains` on strings is a byte-substring search: a 1,001-character needle
    /// that almost matches everywhere in a 1,000,000-character id (the naive search's worst case,
    /// seconds per judged seq) and the same needle that does match at the end.
    @Test func containsOnALongIDIsLinear() async throws {
        let dir = try TempDir()
        let long = String(repeating: "a", count: 1_000_000)
        let needle = String(repeating: "a", count: 1_000) + "b"
        var events: [String] = []
        for i in 0..<6 { events.append(#"{"push":{"route":{"id":"\#(long)\#(i == 5 ? "b" : "")"}}}"#) }
        try #"{"format":"routelog-fixture/1","name":"long","events":[\#(events.joined(separator: ","))]}"#
            .write(toFile: dir.path("long.json"), atomically: true, encoding: .utf8)
        let r = try await CLI.run(["bisect", dir.path("long.json"), "--predicate", "path.last.id contains \"\(needle)\""], cwd: dir.url)
        // Seven judged seqs (0...6; found bad is exit 1); the naive search took 7.3 s each, which
        // only a benchmark measures (no wall-clock bound here: a busy machine is not a failure).
        #expect(r.status == 1 && r.stdout.contains("first bad seq: 6 of 6"), "\(r)")
        // The search agrees with the standard library's on short ASCII strings, every pair.
        let alphabet = ["", "a", "b", "ab", "ba", "aab", "abab", "bbb", "abba"]
        for h in alphabet { for n in alphabet { #expect(Substring.find(n, in: h) == (n.isEmpty || h.contains(n)), "\(n) in \(h)") } }
        #expect(Substring.find("é", in: "café") && !Substring.find("e", in: "café") && Substring.find("🙂", in: "a🙂b"))
    }

    /// A chain of `path.ids contains` terms over a deep path builds the path's set once a seq.
    @Test func containsChainsOnADeepPath() async throws {
        let dir = try TempDir()
        let events = (0..<3_000).map { #"{"push":{"route":{"id":"r\#($0)"}}}"# }
        try #"{"format":"routelog-fixture/1","name":"deep","events":[\#(events.joined(separator: ","))]}"#
            .write(toFile: dir.path("deep.json"), atomically: true, encoding: .utf8)
        let chain = (0..<120).map { "path.ids contains \"r\($0 * 10 + 800)\"" }.joined(separator: " && ")
        let r = try await CLI.run(["bisect", dir.path("deep.json"), "--predicate", chain], cwd: dir.url)
        #expect(r.status == 1 && r.stdout.contains("first bad seq: 1991 of 3000"), "\(r)")
    }

    /// `prune --older-than` ages a session by its last event, as its help says: a session imported
    /// under a clock 100 years ahead (its entry time in 2126) is still pruned by its events' times.
    @Test func pruneByLastEventUnderAFutureClock() async throws {
        let dir = try TempDir()
        let fixture = CLI.packageRoot.appendingPathComponent("Fixtures/router-navigation-push.json").path
        let faketime = "/usr/bin/faketime"
        try #require(FileManager.default.isExecutableFile(atPath: faketime), "faketime is missing: run 'make setup'")
        let imported = try await Child.run(faketime, ["-f", "+100y", CLI.binary.path, "import", "--store", dir.path("st"), fixture],
                                           directory: dir.url)
        #expect(imported.status == 0, "\(imported)")
        let listed = try await CLI.run(["sessions", "--store", dir.path("st"), "--json"], cwd: dir.url)
        #expect(listed.stdout.contains("\"added\":\"21"), "entered under the future clock: \(listed)")
        let pruned = try await CLI.run(["prune", "--older-than", "1d", "--store", dir.path("st")], cwd: dir.url)
        #expect(pruned.status == 0 && pruned.stdout.hasPrefix("deleted "), "\(pruned)")
        let after = try await CLI.run(["sessions", "--store", dir.path("st"), "--json"], cwd: dir.url)
        #expect(after.stdout == "[]\n", "\(after)")
    }
}
