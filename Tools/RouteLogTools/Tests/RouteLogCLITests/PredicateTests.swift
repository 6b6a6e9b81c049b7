import Foundation
@testable import RouteLogCLI
@testable import RouteLogSessions
@_spi(Tools) import RouteLogCore
import Testing

/// The predicate language of `bisect` and `minimize`: parsing, type errors with their columns, and
/// what each field means, checked in-process against the language and through `bisect`.
struct PredicateTests: UpsellSuite {
    let dir: TempDir

    static let syntaxErrors: [(String, Int, String)] = [
        ("", 1, "expected an expression"),
        ("top.id ==", 10, "expected a value after '==', found the end"),
        (#"top.id == "upsell" && outcome =="#, 33, "expected a value after '=='"),
        ("top.name == \"x\"", 1, "unknown field 'top.name'"),
        ("depth == \"two\"", 10, "cannot compare depth (an integer) with \"two\" (a string)"),
        ("top.id < 3", 1, "'<' compares integers, but top.id is a string"),
        ("depth = 2", 7, "unexpected '=' (compare with '==')"),
        ("(depth > 1", 11, "expected ')' to close '(' at column 1"),
        ("depth > 1)", 10, "unmatched ')'"),
        ("top.id == \"abc", 11, "unterminated string"),
        ("depth", 1, "the predicate must be true or false"),
        ("depth > 1 &&", 13, "expected a value after '&&'"),
        ("path.ids == \"a\"", 13, "cannot compare path.ids (a list of strings) with \"a\" (a string)"),
        ("1 < 2 < 3", 7, "comparisons do not chain"),
        ("top.id == 'x'", 11, "strings use double quotes"),
        ("depth & 1", 7, "unexpected '&' (and is '&&')"),
        ("depth contains \"x\"", 1, "contains needs a list or a string on its left"),
    ]

    /// The error parsing `source` gives, or `nil` when it parses.
    static func error(parsing source: String) -> RouteLogCLI.PredicateError? {
        do {
            _ = try RouteLogCLI.Predicate(source)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: syntaxErrors)
    func syntaxErrorsPointAtTheColumn(_ source: String, _ column: Int, _ message: String) throws {
        let error = Self.error(parsing: source)
        #expect(error?.column == column, "\(source): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(source): \(String(describing: error))")
    }

    @Test func aSyntaxErrorIsAOneLineUsageError() async throws {
        for (source, column, message) in Self.syntaxErrors.prefix(4) {
            CLI.expectError(await run(["bisect", "$/upsell.json", "--predicate", source]), status: 2,
                            "routelog: predicate: column \(column): \(message)")
        }
        CLI.expectError(await run(["minimize", "$/upsell.json", "--predicate", "depth", "-o", "$/m.json"]), status: 2,
                        "routelog: predicate: column 1: the predicate must be true or false")
        #expect(!FileManager.default.fileExists(atPath: dir.path("m.json")))
    }

    @Test func pathologicalPredicatesAreErrorsNotCrashes() async throws {
        let deep = String(repeating: "(", count: 2_000) + "depth > 0" + String(repeating: ")", count: 2_000)
        #expect(Self.error(parsing: deep) == RouteLogCLI.PredicateError(column: 201, message: "the predicate nests deeper than 200 levels"))
        let nots = String(repeating: "!", count: 4_000) + "invalid"
        #expect(Self.error(parsing: nots)?.message == "the predicate nests deeper than 200 levels")
        CLI.expectError(await run(["bisect", "$/upsell.json", "--predicate", nots]), status: 2, "nests deeper than 200 levels")
        CLI.expectError(await run(["bisect", "$/upsell.json", "--predicate", "depth > 99999999999999999999"]), status: 2,
                        "integer 99999999999999999999 is too large")
        CLI.expectError(await run(["bisect", "$/upsell.json", "--predicate", "tôp.id == \"x\""]), status: 2, "column 2: unexpected character 'ô'")
        // Within the limit, nesting works.
        let ok = String(repeating: "(", count: 150) + "depth > 1" + String(repeating: ")", count: 150)
        let r = await run(["bisect", "$/upsell.json", "--linear", "--json", "--predicate", ok])
        #expect(try r.stdout.json()["seq"]?.intValue == 5, "\(r)")
    }

    @Test func semanticsThroughBisect() async throws {
        // Each predicate and the seq it first holds at in the upsell session (linear scan).
        let cases: [(String, Int?)] = [
            (#"top.id == "composer""#, 3),
            (#"top.style == "sheet" && !top.dismissible"#, 5),
            ("depth >= 2", 5),
            ("depth > 2", nil),
            ("path.count == 1 && depth == 1", 4),
            (#"path.last.id == "attachments""#, 4),
            (#"path.ids contains "thread-42""#, 2),
            (#"top.id contains "sell""#, 5),
            (#"event == "pop""#, 10),
            (#"outcome == "rejected" && reason != "notDismissible""#, 8),
            (#"reason == "stale""#, 8),
            (#"tab == "home""#, nil),
            (#"tab != "home" && seq >= 9"#, 9),
            ("invalid", nil),
            ("!invalid && (seq == 3 || seq == 2)", 2),
            ("not (depth < 1) and seq > 3", 4),
            (#"top.id != "upsell" && depth == 1 && seq > 5"#, 7),
        ]
        for (p, want) in cases {
            let r = await run(["bisect", "$/upsell.json", "--linear", "--json", "--predicate", p])
            #expect(try r.stdout.json()["seq"]?.intValue == want.map(Int64.init), "\(p): \(r)")
            #expect(r.status == (want == nil ? 0 : 1), "\(p): \(r)")
        }
    }

    @Test func fieldsAtEachSeqOfTheUpsellSession() throws {
        // The fields' values after each event, read straight from the language.
        func value(_ source: String, _ c: PredicateContext) throws -> Bool { try RouteLogCLI.Predicate(source).holds(in: c) }
        var r = Replayer()
        var contexts = [PredicateContext(seq: 0, state: r.state, event: nil, outcome: nil)]
        for e in Sessions.upsell {
            let step = r.apply(e.event)
            contexts.append(PredicateContext(seq: step.seq, state: r.state, event: e.event, outcome: step.outcome))
        }
        // At seq 0 every field about an event or a presentation is absent: == is false, != is true.
        #expect(try !value(#"top.id == """#, contexts[0]) && value(#"top.id != "x""#, contexts[0]))
        #expect(try !value(#"event == "push""#, contexts[0]) && value(#"event != "push""#, contexts[0]))
        #expect(try value("depth == 0 && path.count == 0 && seq == 0 && !invalid", contexts[0]))
        // Seq 5: the upsell sheet over the composer, over a path of two routes.
        #expect(try value(#"top.id == "upsell" && top.style == "sheet" && !top.dismissible && depth == 2"#, contexts[5]))
        #expect(try value(#"path.count == 0 && event == "show" && outcome == "applied""#, contexts[5]))
        // Seq 4: the attachments route pushed inside the composer sheet.
        #expect(try value(#"path.last.id == "attachments" && path.ids contains "attachments" && path.count == 1"#, contexts[4]))
        #expect(try value(#"top.id contains "pos" && depth == 1"#, contexts[4]))
        // Seq 6: the swipe rejected.
        #expect(try value(#"outcome == "rejected" && reason == "notDismissible" && event == "interactiveDismiss""#, contexts[6]))
        #expect(try !value(#"reason == "stale""#, contexts[6]))
        // Integers compare as integers.
        #expect(try value("seq > 9 && seq <= 10 && seq >= 10 && seq < 11 && seq != 3", contexts[10]))
    }
}
