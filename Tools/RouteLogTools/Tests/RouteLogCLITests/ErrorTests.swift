import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import Testing

/// Every bad input gets one line on stderr naming the thing and the place, and the documented exit
/// code; run in-process (``EndToEndTests`` checks the same through the binary).
struct ErrorTests: InProcessSuite {
    let dir: TempDir

    static func directory() throws -> TempDir { try .withUpsell(adding: "empty.json", [], label: "empty") }

    @Test func seqOutOfRange() async throws {
        CLI.expectError(await run(["state", "$/upsell.json@11"]), status: 2, "seq out of range: 11 (session upsell.json has 10 events)")
        CLI.expectError(await run(["state", "$/upsell.json", "--at", "99"]), status: 2, "--at out of range: 99")
        CLI.expectError(await run(["log", "$/upsell.json", "--from", "12"]), status: 2, "--from out of range: 12")
        CLI.expectError(await run(["diff", "$/upsell.json@1", "$/upsell.json@12"]), status: 2, "seq out of range: 12")
        CLI.expectError(await run(["state", "$/upsell.json@x"]), status: 2, "expected a seq number after '@'")
        CLI.expectError(await run(["state", "$/upsell.json@3", "--at", "4"]), status: 2, "--at 4 contradicts upsell.json@3")
    }

    @Test func emptySession() async throws {
        // An app that has just started has an empty session: log and state show it (exit 0).
        let log = await run(["log", "$/empty.json"])
        #expect(log.status == 0 && log.stdout == "empty.json has no events yet\n" && log.stderr.isEmpty, "\(log)")
        CLI.expectError(await run(["bisect", "$/empty.json", "--predicate", "depth > 0"]), status: 3, "empty session")
        CLI.expectError(await run(["minimize", "$/empty.json", "--predicate", "depth > 0", "-o", "$/x.json"]), status: 3, "empty session")
        CLI.expectError(await run(["export", "$/empty.json", "-o", "$/x.json"]), status: 3, "empty session")
        #expect(await run(["state", "$/empty.json"]).status == 0)
        // The state before any event is still there to look at.
        #expect(await run(["state", "$/empty.json@0", "--json"]).status == 0)
    }

    @Test func missingAndUnreadableFiles() async throws {
        CLI.expectError(await run(["log", "$/nope.json"]), status: 2, "no such file: nope.json")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("dir.json"), withIntermediateDirectories: true)
        CLI.expectError(await run(["log", "$/dir.json"]), status: 3, "cannot read file: dir.json")
        CLI.expectError(await run(["fixtures", "check", "$/nowhere"]), status: 2, "no such file or directory: nowhere")
    }

    @Test func fileRefsNeedNoStore() async throws {
        let r = await run(["state", "$/upsell.json", "--store", "$/missing-store"])
        #expect(r.status == 0, "\(r)")
    }

    @Test func notAStore() async throws {
        CLI.expectError(await run(["sessions", "--store", "$/missing-store"]), status: 3, "not a store: missing-store")
        try dir.write("plain-file", "hello")
        CLI.expectError(await run(["sessions", "--store", "$/plain-file"]), status: 3, "not a store: plain-file")
        #expect(!FileManager.default.fileExists(atPath: dir.path("missing-store")), "reading never creates a store")
    }

    @Test func followNeedsAStoreSession() async throws {
        CLI.expectError(await run(["log", "$/upsell.json", "--follow"]), status: 2, "--follow needs a session in a store")
    }

    @Test func usageErrorsExitTwoOnOneLine() async throws {
        CLI.expectError(await run(["frobnicate"]), status: 2, "usage: Unexpected argument 'frobnicate'")
        CLI.expectError(await run(["log"]), status: 2, "usage: Missing expected argument '<session>'")
        CLI.expectError(await run(["state", "x.json", "--at", "minus"]), status: 2, "usage:")
        CLI.expectError(await run(["verify"]), status: 2, "give SESSION… or --all")
        CLI.expectError(await run(["verify", "--all", "x.json"]), status: 2, "give SESSION… or --all, not both")
        CLI.expectError(await run(["bisect", "x.json"]), status: 2, "give --predicate EXPR or --run CMD")
        CLI.expectError(await run(["bisect", "x.json", "--predicate", "depth > 1", "--run", "true"]), status: 2,
                        "give either --predicate or --run, not both")
        CLI.expectError(await run(["bisect", "x.json", "--run", "  "]), status: 2, "--run: the command is empty")
        CLI.expectError(await run(["fixtures", "check"]), status: 2, "usage: Missing expected argument '<paths> ...'")
    }
}
