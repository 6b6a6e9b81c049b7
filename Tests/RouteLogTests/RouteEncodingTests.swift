import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// The navigator encodes routes straight into canonical JSON. These tests hold it to the bytes of
/// the canonical form of what `JSONEncoder` writes, the form every stored session has.
@Suite struct RouteEncodingTests {
    struct Probe<Value: Codable & Hashable & Sendable>: Routable {
        var id: String { "probe" }
        var value: Value
    }

    struct Nothing: Codable, Hashable, Sendable {
        func encode(to encoder: any Encoder) throws {}
        init() {}
        init(from decoder: any Decoder) throws {}
    }

    struct WithSuper: Codable, Hashable, Sendable {
        var a = 1
        var base = "base"
        enum CodingKeys: String, CodingKey { case a, parent }
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(a, forKey: .a)
            var s = c.superEncoder().singleValueContainer()
            try s.encode(base)
            var p = c.superEncoder(forKey: .parent).unkeyedContainer()
            try p.encode(2.5)
            try p.encodeNil()
            var q = p.superEncoder().container(keyedBy: CodingKeys.self)
            try q.encode(true, forKey: .a)
        }
    }

    enum Kind: Codable, Hashable, Sendable {
        case plain
        case labelled(x: Int, y: String?)
        case unlabelled(Double, [Int8])
    }

    struct Everything: Codable, Hashable, Sendable {
        var int = -42
        var big = UInt64.max
        var bigInt = Int64.min
        var small: Int8 = -8
        var u16: UInt16 = 65_535
        var double = 0.1
        var negativeZero = -0.0
        var integral = 3.0
        var huge = 1e300
        var tiny = Double.leastNonzeroMagnitude
        var float: Float = 0.1
        var floatIntegral: Float = 16_777_216
        var text = "quote \" backslash \\ slash / tab \t newline \n bell \u{7} é 💡 \u{2028}"
        var empty = ""
        var optional: String? = "here"
        var missing: Int? = nil
        var array = [1, 2, 3]
        var nested = [["a"], [], ["b", "c"]]
        var dictionary = ["z": 1.5, "a": -2, "é": 0, "A": 7]
        var intKeys = [10: "ten", 2: "two", -1: "minus one"]
        var data = Data([0, 1, 2, 250, 255])
        var url = URL(string: "https://example.com/a%20b?q=1&r=/x")!
        var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        var decimal = Decimal(string: "12.340")!
        var decimalWhole = Decimal(1_000)
        var kinds: [Kind] = [.plain, .labelled(x: 1, y: nil), .labelled(x: 2, y: "two"), .unlabelled(-1.25, [1, -1])]
        var nothing = Nothing()
        var nothings = [Nothing(), Nothing()]
        var withSuper = WithSuper()
    }

    /// Keys written in order, out of order, and twice (the last value wins, as in `JSONEncoder`).
    struct KeyOrders: Codable, Hashable, Sendable {
        enum CodingKeys: String, CodingKey { case a, b, c, é }
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            var sorted = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
            try sorted.encode(1, forKey: .a)
            try sorted.encode(2, forKey: .b)
            try sorted.encode(3, forKey: .é)
            var twice = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .b)
            try twice.encode(1, forKey: .a)
            try twice.encode(2, forKey: .b)
            try twice.encode(3, forKey: .b)
            var unsorted = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .c)
            try unsorted.encode(1, forKey: .é)
            try unsorted.encode(2, forKey: .c)
            try unsorted.encode(3, forKey: .a)
        }
    }

    static func viaJSONEncoder<R: Routable>(_ route: R) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try RawJSON(parsing: String(decoding: try encoder.encode(route), as: UTF8.self)).text
    }

    static func expectSameBytes<R: Routable>(_ route: R, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try RouteRef(route).payload?.text
        let expected = try viaJSONEncoder(route)
        #expect(direct == expected, sourceLocation: sourceLocation)
    }

    @Test func everyKindOfValueEncodesToTheBytesOfJSONEncodersCanonicalForm() throws {
        try Self.expectSameBytes(Probe(value: Everything()))
        try Self.expectSameBytes(Probe(value: [Everything(), Everything()]))
        try Self.expectSameBytes(Probe(value: Kind.labelled(x: 3, y: "y")))
        try Self.expectSameBytes(Probe(value: Optional<Int>.none))
        try Self.expectSameBytes(Probe(value: WithSuper()))
        try Self.expectSameBytes(Probe(value: KeyOrders()))
        #expect(try RouteRef(Probe(value: KeyOrders())).payload?.text
            == #"{"value":{"a":{"a":1,"b":2,"é":3},"b":{"a":1,"b":3},"c":{"a":3,"c":2,"é":1}}}"#)
        // The app's own route type, every case.
        for route: PodRoute in [.episode(id: 7), .show(name: "Swift \"Talk\""), .player(episode: -1), .upsell(feature: ""),
                                .alert(message: "Offline\n"), .settings, .ratio(0.5), .ratio(-3), .ratio(1e21)] {
            try Self.expectSameBytes(route)
        }
    }

    @Test func seededRandomNumbersAndStringsEncodeAlike() throws {
        var rng = SplitMix64(seed: 0x5EED_2026)
        for _ in 0..<2_000 {
            let bits = rng.next()
            let d = Double(bitPattern: bits)
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
            let scalars = (0..<Int(bits % 9)).compactMap { _ in Unicode.Scalar(UInt32(rng.next() % 0x800)) }
            let s = String(String.UnicodeScalarView(scalars))
            let i = Int64(bitPattern: rng.next())
            if d.isFinite { try Self.expectSameBytes(Probe(value: d)) }
            if f.isFinite { try Self.expectSameBytes(Probe(value: f)) }
            try Self.expectSameBytes(Probe(value: [s: i]))
            try Self.expectSameBytes(Probe(value: UInt64(bitPattern: i)))
        }
    }

    @Test func textLongerThanTheWritersFirstBufferIsWhole() throws {
        // Texts of a few bytes to tens of kilobytes: the writer's buffer is outgrown once, then
        // again and again, with strings that need escaping and strings that do not.
        for n in [1, 60, 61, 62, 200, 1_000, 4_000] {
            let items = (0..<n).map { i in i % 3 == 0 ? "item \(i) \"quoted\"" : String(repeating: "x", count: i % 97) }
            try Self.expectSameBytes(Probe(value: items))
        }
        try Self.expectSameBytes(Probe(value: String(repeating: "é\n", count: 3_000)))
    }

    @Test func aCharacterToEscapeIsFoundAtEveryPlaceInAString() throws {
        // Strings are scanned eight bytes at a time: each character that needs escaping (and a
        // few that do not, next to them in value) at every offset of a word, and in the tail.
        for c in ["\"", "\\", "\n", "\u{0}", "\u{1F}", " ", "!", "#", "[", "]", "\u{7F}", "é", "💡"] {
            for n in 0..<26 {
                let text = String(repeating: "a", count: n) + c + String(repeating: "b", count: 25 - n)
                try Self.expectSameBytes(Probe(value: text))
                try Self.expectSameBytes(Probe(value: [text: n]))
            }
        }
    }

    /// Records the coding path its encoder and containers report at every level, so that the
    /// paths can be compared with `JSONEncoder`'s.
    final class PathLog: @unchecked Sendable { var lines: [String] = [] }

    struct PathProbe: Codable, Hashable, Sendable {
        let log: PathLog
        static func == (a: Self, b: Self) -> Bool { true }
        func hash(into hasher: inout Hasher) {}
        init(log: PathLog) { self.log = log }
        init(from decoder: any Decoder) throws { log = PathLog() }
        enum CodingKeys: String, CodingKey { case a, b }

        func note(_ what: String, _ path: [any CodingKey]) {
            log.lines.append(what + ": " + path.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }.joined(separator: "/"))
        }

        func encode(to encoder: any Encoder) throws {
            note("encoder", encoder.codingPath)
            var c = encoder.container(keyedBy: CodingKeys.self)
            note("keyed", c.codingPath)
            var nested = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
            note("nested keyed", nested.codingPath)
            var list = nested.nestedUnkeyedContainer(forKey: .b)
            note("nested unkeyed", list.codingPath)
            try list.encode(1)
            var inList = list.nestedContainer(keyedBy: CodingKeys.self)
            note("keyed in list", inList.codingPath)
            try inList.encode(2, forKey: .a)
            let listSuper = list.superEncoder()
            note("list's super", listSuper.codingPath)
            var single = listSuper.singleValueContainer()
            note("single", single.codingPath)
            try single.encode("s")
            let keyedSuper = c.superEncoder(forKey: .b)
            note("keyed super", keyedSuper.codingPath)
            var inner = keyedSuper.unkeyedContainer()
            note("unkeyed in super", inner.codingPath)
            try inner.encode(3)
        }
    }

    @Test func codingPathsAtEveryLevel() throws {
        let direct = PathLog(), viaEncoder = PathLog()
        _ = try RouteRef(Probe(value: PathProbe(log: direct)))
        _ = try Self.viaJSONEncoder(Probe(value: PathProbe(log: viaEncoder)))
        #expect(direct.lines == [
            "encoder: value", "keyed: value", "nested keyed: value/a", "nested unkeyed: value/a/b",
            "keyed in list: value/a/b/#1", "list's super: value/a/b/#2", "single: value/a/b/#2",
            "keyed super: value/b", "unkeyed in super: value/b",
        ])
        // JSONEncoder's agree but for an unkeyed container's super encoder, whose path it
        // writes without the container's own (value/#2).
        let unkeyedSuper: (String) -> Bool = { $0.hasPrefix("list's super") || $0.hasPrefix("single") }
        #expect(direct.lines.filter { !unkeyedSuper($0) } == viaEncoder.lines.filter { !unkeyedSuper($0) })
    }

    @Test func whatJSONEncoderRefusesIsRefused() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: RouteEncodingError.self) { try RouteRef(Probe(value: value)) }
        }
        #expect(throws: RouteEncodingError.self) { try RouteRef(Probe(value: [Float.nan])) }
        #expect(throws: RouteEncodingError.self) { try RouteRef(Probe(value: ["x": Double.infinity])) }
    }
}
