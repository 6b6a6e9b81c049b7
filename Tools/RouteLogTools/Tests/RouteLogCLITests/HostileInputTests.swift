import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// Limits and one-line errors for what a user types: predicates and session references
/// (the inputs the fuzzers found are in `Tools/Fuzz/Regressions/predicate` and `ref`).
@Suite struct HostileInputTests {
    let dir: TempDir

    init() throws { dir = try .withUpsell() }

    func run(_ args: [String]) async throws -> CLIResult { try await CLI.run(args, cwd: dir.url) }

    @Test func predicateLengthIsLimited() async throws {
        let long = (0..<820).map { _ in "depth > 0" }.joined(separator: " && ")
        #expect(long.count > 4_096)
        CLI.expectError(try await run(["bisect", "upsell.json", "--predicate", long]), status: 2,
                        "predicate: column 4097: the predicate is longer than 4096 characters")
        let fits = (0..<200).map { _ in "depth > 1" }.joined(separator: " && ")
        let r = try await run(["bisect", "upsell.json", "--linear", "--json", "--predicate", fits])
        #expect(try r.stdout.json()["seq"]?.intValue == 5, "\(r)")
    }

    @Test func controlCharactersInPredicatesAreEscaped() async throws {
        CLI.expectError(try await run(["bisect", "upsell.json", "--predicate", "(path.count < 3\"\r\n\u{1}|| )h\""]), status: 2,
                        #"expected ')' to close '(' at column 1, found '"\r\n\u0001|| )h"'"#)
        CLI.expectError(try await run(["bisect", "upsell.json", "--predicate", "depth\u{7} > 1"]), status: 2, #"unexpected character '\u0007'"#)
    }

    @Test func controlCharactersInSessionReferencesAreEscaped() async throws {
        CLI.expectError(try await run(["log", "b:ug@2.jso\r5"]), status: 2, #"bad session reference 'b:ug@2.jso\r5': expected a seq number after '@'"#)
        CLI.expectError(try await run(["log", "latest~\n1"]), status: 2, #"bad session reference 'latest~\n1'"#)
    }
}
