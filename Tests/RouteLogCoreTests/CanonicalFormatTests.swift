import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// The canonical text of numbers and times: both feed digests and exports, so their exact form is
/// pinned (ReducerRules.md, "Canonical JSON").
@Suite struct CanonicalFormatTests {
    /// One example on each side of every boundary of the double format.
    @Test(arguments: [
        (1.0, "1"), (-0.0, "0"), (8_999_999_999_999_998.0, "8999999999999998"),
        (9.5e15, "9.5e+15"), (2_000_000_000_000_000.5, "2000000000000000.5"),
        (0.1, "0.1"), (-2.25, "-2.25"), (0.30000000000000004, "0.30000000000000004"),
        (1e-4, "0.0001"), (1.2e-4, "0.00012"), (1e-5, "1e-05"), (1e16, "1e+16"), (1.5e16, "1.5e+16"),
        (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"),
    ])
    func doubles(value: Double, text: String) throws {
        #expect(JSONValue.double(value).canonicalText == text)
        // The text reads back as the same number.
        let back = try JSONValue(parsing: text)
        #expect(back.canonicalText == text)
    }

    @Test func nonFiniteDoublesPrintNull() {
        #expect(JSONValue.double(.nan).canonicalText == "null")
        #expect(JSONValue.double(-.infinity).canonicalText == "null")
    }

    /// Foundation's `ISO8601FormatStyle` is not used for metadata times: it truncates fractional
    /// seconds through a `Double` (…54.123 prints as …54.122) and switches to the Julian calendar
    /// before 1582. Where it is exact (whole seconds, Gregorian years), the hand-written
    /// formatter agrees with it, and parses its output back.
    @Test func iso8601AgreesWithFoundationOnWholeSeconds() throws {
        let style = Date.ISO8601FormatStyle(timeZone: try #require(TimeZone(identifier: "UTC")))
        var rng = SplitMix64(seed: 0x1508_8601)
        let lower: Int64 = -12_219_292_800 // 1582-10-15T00:00:00Z, the first Gregorian day
        let upper: Int64 = 253_402_300_799 // 9999-12-31T23:59:59Z
        for _ in 0..<2_000 {
            let seconds = lower + Int64(rng.next() % UInt64(upper - lower + 1))
            let ours = ISO8601.format(milliseconds: seconds * 1000)
            let theirs = style.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(ours == String(theirs.dropLast()) + ".000Z", "\(seconds) s")
            #expect(ISO8601.parse(theirs) == seconds * 1000, "\(theirs)")
        }
    }

    @Test func iso8601FractionalSeconds() {
        #expect(ISO8601.format(milliseconds: 1_763_847_834_123) == "2025-11-22T21:43:54.123Z")
        #expect(ISO8601.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601.format(milliseconds: ISO8601.range.lowerBound) == "0001-01-01T00:00:00.000Z")
        #expect(ISO8601.format(milliseconds: ISO8601.range.upperBound) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601.parse("2025-11-22T21:43:54Z") == 1_763_847_834_000)
        #expect(ISO8601.parse("2025-11-22T21:43:54.1Z") == 1_763_847_834_100)
        #expect(ISO8601.parse("2025-11-22T21:43:54.123456789Z") == 1_763_847_834_123)
        #expect(ISO8601.parse("2025-11-22T21:43:54.Z") == nil)
        #expect(ISO8601.parse("2025-13-22T21:43:54Z") == nil)
    }
}
