import Testing
@_spi(Tools) @testable import RouteLogCore

/// The fixture reader streams the `events` array (no tree of the whole file is built): on any
/// text, it must give the fixture, or the error, that parsing the whole tree first gives.
struct FixtureStreamingTests {
    func whole(_ text: String) -> String {
        let value: JSONValue
        do { value = try JSONValue(parsing: text) } catch { return FixtureError(file: "f.json", problem: .syntax(error)).description }
        do { return try Fixture(json: value).rendered() } catch {
            switch error {
            case .shape(let f): return FixtureError(file: "f.json", problem: .shape(f)).description
            case .unsupported(let f): return FixtureError(file: "f.json", problem: .unsupportedFormat(f)).description
            }
        }
    }

    func streamed(_ text: String) -> String {
        do { return try Fixture(text: text, file: "f.json").rendered() } catch { return error.description }
    }

    /// The format after the events, duplicate keys, an events value that is not an array, a bad
    /// event before a syntax error, a byte-order mark, text after the value.
    @Test func handPickedCases() {
        let good = #"{"format": "routelog-fixture/1", "name": "x", "events": [{"push":{"route":{"id":"a"}}}, {"pop":{}}]}"#
        let cases = [
            good,
            #"{"events": [{"push":{"route":{"id":"a"}}}], "name": "x", "format": "routelog-fixture/1"}"#,
            #"{"events": [{"push":{"route":{"id":"a"}}}], "name": "x", "format": "routelog-fixture/9"}"#,
            #"{"events": [{"shove":{}}], "name": "x"}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": [], "events": []}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": 3, "events": [{"pop":{}}]}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": {"push":{}}}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": null}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": [{"push":{}}, {"pop":{}}, ]}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": [{"pop":{}}, {"shove":{}}], "extra": 1}"#,
            #"{"format": "routelog-fixture/1", "name": 4, "events": [{"pop":{}}, {"shove":{}}]}"#,
            #"{"format": "routelog-fixture/1", "events": [{"pop":{}}, {"shove":{}}] "name": "x"}"#,
            #"{"format": "routelog-fixture/1", "name": "x", "events": [[[[[[]]]]]]}"#,
            #"[{"format": "routelog-fixture/1"}]"#,
            "\u{FEFF}" + good,
            good + " x",
            "",
            "{",
        ]
        for text in cases { #expect(streamed(text) == whole(text), "\(text)") }
    }

    /// Thousands of random mutations of a recorded fixture (with an expect block).
    @Test func mutationsOfARecordedFixture() {
        var g = SessionGenerator(seed: 17)
        let base = Fixture(name: "mutated", events: g.events(12)).recorded().rendered()
        let bytes = Array(base.utf8)
        let alphabet = Array("{}[],:\"0a-1 \n".utf8)
        var rng = SplitMix64(seed: 23)
        for round in 0..<3_000 {
            let text = String(decoding: Self.mutated(bytes, edits: 3, alphabet: alphabet, rng: &rng), as: UTF8.self)
            #expect(streamed(text) == whole(text), "round \(round): \(text)")
        }
    }

    /// `bytes` with one to `edits` random removals, insertions and replacements (of bytes from `alphabet`).
    static func mutated(_ bytes: [UInt8], edits: UInt64, alphabet: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var m = bytes
        for _ in 0..<(1 + Int(rng.next() % edits)) {
            let at = Int(rng.next() % UInt64(m.count))
            switch rng.next() % 3 {
            case 0: m.remove(at: at)
            case 1: m.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
            default: m[at] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
        }
        return m
    }

    /// Files: read as bytes, checked as UTF-8 in slices.
    @Test func utf8Check() {
        #expect(Fixture.isUTF8(Array("plain ascii".utf8)))
        #expect(Fixture.isUTF8(Array(String(repeating: "é→😀a", count: 400_000).utf8)))
        #expect(!Fixture.isUTF8([0x61, 0xC3]))
        #expect(!Fixture.isUTF8([0x61, 0xFF, 0x61]))
        var long = Array(String(repeating: "é", count: 700_000).utf8)
        long[1_048_577] = 0x41
        #expect(!Fixture.isUTF8(long), "a lone continuation byte at a slice boundary")
    }
}
