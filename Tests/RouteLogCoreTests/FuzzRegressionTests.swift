import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// Inputs the fuzzers found (their files are in `Tools/Fuzz/Regressions/`), as unit tests.
@Suite struct FuzzRegressionTests {
    /// `Regressions/fixture/time-with-five-fraction-digits`: a time with more than three fraction
    /// digits trapped (a range with its bounds reversed); they are now truncated to milliseconds.
    @Test func timesWithMoreThanThreeFractionDigits() throws {
        let base = try #require(ISO8601.parse("2026-11-18T11:08:15Z"))
        #expect(ISO8601.parse("2026-11-18T11:08:15.9Z") == base + 900)
        #expect(ISO8601.parse("2026-11-18T11:08:15.902Z") == base + 902)
        #expect(ISO8601.parse("2026-11-18T11:08:15.90270Z") == base + 902)
        #expect(ISO8601.parse("2026-11-18T11:08:15.999999999Z") == base + 999)
        #expect(ISO8601.parse("2026-11-18T11:08:15.9999999999Z") == nil)
        let text = """
        {"format":"routelog-fixture/1","name":"t","events":[{"push":{"route":"a"},"meta":{"time":"2026-11-18T11:08:15.90270Z"}}]}
        """
        let fixture = try Fixture(text: text, file: "t.json")
        #expect(fixture.events[0].meta.timestamp == base + 902)
    }

    /// `Regressions/reducer/frame-token-above-int64-max`: a token above Int64.max was written to
    /// JSON as a negative number that did not read back; it now reads back exactly.
    @Test func tokensAboveInt64MaxRoundTripThroughJSON() throws {
        for token in [UInt64(Int64.max) + 1, UInt64.max, 0, 7] {
            let events: [Event] = [.push(RouteRef(id: "a"), frame: .presentation(token)), .dismiss(.token(token)),
                                   .interactiveDismiss(token: token), .pop(count: 1, frame: .presentation(token))]
            for e in events {
                #expect(try Event(jsonText: e.canonicalJSON) == e, "\(e.canonicalJSON)")
            }
        }
        #expect(try Event(jsonText: #"{"dismiss":{"token":-1}}"#) == .dismiss(.token(.max)))
    }

    /// `Regressions/json/*`: errors quoting the input (an escape of a line break, a duplicate key
    /// holding one) were several lines; they are one line now.
    @Test func errorsQuotingTheInputStayOnOneLine() {
        for text in ["[\"\\\n\"]", "{\"a\\nb\":1,\"a\\nb\":2}"] {
            do {
                let v = try JSONValue(parsing: text)
                Issue.record("accepted \(v.canonicalText)")
            } catch {
                #expect(!error.description.contains("\n"), "\(error)")
            }
        }
        do {
            _ = try Event(jsonText: "{\"push\\n\\u2028x\":{}}")
            Issue.record("accepted an unknown event kind")
        } catch {
            #expect(!error.description.contains("\n") && error.description.contains("push\\n\\u2028x"), "\(error)")
        }
    }

    /// `Regressions/fixture/unsupported-format-with-a-line-break`: the format named in an
    /// "unsupported format" error was quoted raw, line breaks and all.
    @Test func anUnsupportedFormatIsQuotedOnOneLine() {
        do {
            _ = try Fixture(text: #"{"format":"routelog-fixture/2\n\r\u2028x","name":"x","events":[]}"#, file: "x.json")
            Issue.record("accepted an unknown format")
        } catch {
            #expect(error.description == #"x.json: unsupported format "routelog-fixture/2\n\r\u2028x" (this build reads routelog-fixture/1)"#)
        }
    }
}
