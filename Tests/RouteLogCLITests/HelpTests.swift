import Foundation
import Testing

@Suite(.serialized) struct HelpTests {
    static let commands: [[String]] = [
        [], ["sessions"], ["log"], ["state"], ["diff"], ["bisect"], ["verify"], ["minimize"], ["export"], ["import"],
        ["fixtures"], ["fixtures", "check"], ["fixtures", "record"], ["report"], ["serve"],
    ]

    @Test(arguments: commands)
    func helpMatchesGolden(_ command: [String]) throws {
        let r = try CLI.run(command + ["--help"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.isEmpty, "\(r)")
        try Golden.check(r.stdout, "help-\(command.isEmpty ? "routelog" : command.joined(separator: "-")).txt")
    }

    @Test func rootHelpDocumentsExitCodesSessionsAndStore() throws {
        let r = try CLI.run(["--help"])
        for fragment in ["0  ok, or equal", "1  different, failed, or found bad", "2  usage error", "3  data error",
                         "latest~N", "REF@N", "FILE.json", "$ROUTELOG_STORE", "./.routelog", "NO_COLOR"] {
            #expect(r.stdout.contains(fragment), "missing \(fragment)")
        }
    }

    @Test func bisectHelpDocumentsThePredicateLanguage() throws {
        let r = try CLI.run(["bisect", "--help"])
        for field in ["top.id", "top.style", "top.dismissible", "depth", "path.count", "path.last.id", "path.ids", "tab", "event",
                      "outcome", "reason", "invalid", "contains", "&&", "||", "ROUTELOG_SEQ", "125"] {
            #expect(r.stdout.contains(field), "missing \(field)")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        let r = try CLI.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("routelog"))
        #expect(r.stdout.contains("bisect") && r.stdout.contains("fixtures"))
    }

    @Test func usageErrorsExitTwoOnOneLine() throws {
        CLI.expectError(try CLI.run(["frobnicate"]), status: 2, "usage: Unexpected argument 'frobnicate'")
        CLI.expectError(try CLI.run(["log"]), status: 2, "usage: Missing expected argument '<session>'")
        CLI.expectError(try CLI.run(["state", "x.json", "--at", "minus"]), status: 2, "usage:")
        CLI.expectError(try CLI.run(["verify"]), status: 2, "give SESSION… or --all")
        CLI.expectError(try CLI.run(["bisect", "x.json"]), status: 2, "give --predicate EXPR or --run CMD")
    }
}
