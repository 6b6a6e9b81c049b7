// The pieces of the direct event reader (JSONParser+Events.swift): values read straight from the
// bytes when they are plain (a string without escapes, an integer without fraction or exponent),
// and `nil` otherwise. None of them throws: what they do not take, the general parser reads again.

extension JSONParser {
    /// How deep a route's payload may nest for the direct reader; deeper ones go to the general
    /// parser, which applies ``JSONValue/maxDepth``.
    static let maxDirectDepth = 32

    /// Whether the byte at `i` is `b`.
    @inline(__always)
    func at(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    /// Whether the bytes in `range` are those of `word`.
    func matches(_ range: Range<Int>, _ word: StaticString) -> Bool {
        Self.equal(UnsafeBufferPointer(rebasing: bytes[range]), UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }

    /// Byte-wise equality, as a plain loop: the generic `elementsEqual` goes through iterators.
    @inline(__always)
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for k in 0..<a.count where a[k] != b[k] { return false }
        return true
    }

    /// The bytes in `range` (valid UTF-8 without escapes) as a string.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Reads a value into `slot` unless it is already filled (a repeated key, which the general
    /// parser rejects). Whether `slot` now holds a value.
    mutating func fill<T>(_ slot: inout T?, _ read: (inout Self) -> T?) -> Bool {
        guard slot == nil else { return false }
        slot = read(&self)
        return slot != nil
    }

    /// Reads the items of an array or object, from its opening bracket: `item` reads one (and
    /// returns false to give up), commas separate them, `close` ends them. With `spaced`,
    /// whitespace is allowed around them (canonical text has none).
    mutating func readItems(close: UInt8, spaced: Bool, _ item: (inout Self) -> Bool) -> Bool {
        i += 1
        if spaced { skipWhitespace() }
        if at(close) { i += 1; return true }
        while true {
            if spaced { skipWhitespace() }
            guard item(&self) else { return false }
            if spaced { skipWhitespace() }
            if at(UInt8(ascii: ",")) { i += 1; continue }
            guard at(close) else { return false }
            i += 1
            return true
        }
    }

    /// Reads an object whose keys are plain strings: `field` is handed each key (the range of its
    /// bytes) with `i` on the value, reads the value, and returns false to give up.
    mutating func readObject(_ field: (inout Self, Range<Int>) -> Bool) -> Bool {
        guard at(UInt8(ascii: "{")) else { return false }
        return readItems(close: UInt8(ascii: "}"), spaced: true) { p in
            guard let key = p.readPlainString() else { return false }
            p.skipWhitespace()
            guard p.at(UInt8(ascii: ":")) else { return false }
            p.i += 1
            p.skipWhitespace()
            return field(&p, key)
        }
    }

    /// A string without escapes at `i` (checked as ``parseString()`` checks it): the range of its
    /// bytes between the quotes.
    mutating func readPlainString() -> Range<Int>? {
        guard at(UInt8(ascii: "\"")) else { return nil }
        let start = i + 1
        var k = start
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") {
                guard k - start <= JSONValue.maxStringBytes else { return nil }
                i = k + 1
                return start..<k
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            if b < 0x80 {
                k += 1
            } else {
                let n = UTF8Validation.scalarLength(bytes, at: k)
                guard n > 0 else { return nil }
                k += n
            }
        }
        return nil
    }

    mutating func readString() -> String? { readPlainString().map(string) }

    /// The case of `T` whose raw value is the bytes in `range`.
    func lookup<T: KeyedByRawValue>(_ range: Range<Int>, in _: T.Type) -> T? {
        T.keys.value(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// A string naming one of `T`'s cases.
    mutating func readEnum<T: KeyedByRawValue>(_: T.Type) -> T? {
        readPlainString().flatMap { lookup($0, in: T.self) }
    }

    mutating func readBool() -> Bool? {
        if matchesLiteral("true") { return true }
        if matchesLiteral("false") { return false }
        return nil
    }

    /// Moves past `word` when the bytes at `i` are it.
    private mutating func matchesLiteral(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count, matches(i..<(i + n), word) else { return false }
        i += n
        return true
    }

    /// An integer written without fraction or exponent that fits in `Int64`: the value the general
    /// parser gives it.
    mutating func readInteger() -> Int64? {
        var k = i
        let negative = k < bytes.count && bytes[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        let digitsStart = k
        var v: Int64 = 0
        while k < bytes.count, bytes[k] >= UInt8(ascii: "0"), bytes[k] <= UInt8(ascii: "9") {
            let d = Int64(bytes[k] - UInt8(ascii: "0"))
            // Accumulated negative, so Int64.min is read too.
            let (times10, o1) = v.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.subtractingReportingOverflow(d)
            guard !o1, !o2 else { return nil }
            v = next
            k += 1
        }
        let n = k - digitsStart
        guard n > 0, n == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        if k < bytes.count, bytes[k] == UInt8(ascii: ".") || bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "E") { return nil }
        if !negative {
            guard v != .min else { return nil }
            v = -v
        }
        i = k
        return v
    }

    /// A value whose bytes are already its canonical text (``JSONValue/canonicalText``): no
    /// whitespace, object keys in strictly increasing byte order, strings without escapes, plain
    /// integers (not `-0`). The range of its bytes.
    mutating func readCanonicalValue(depth: Int = 0) -> Range<Int>? {
        let start = i
        guard i < bytes.count, depth < Self.maxDirectDepth else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            var previous: Range<Int>?
            let read = readItems(close: UInt8(ascii: "}"), spaced: false) { p in
                guard let key = p.readPlainString() else { return false }
                if let previous, !p.bytes[previous].lexicographicallyPrecedes(p.bytes[key]) { return false }
                previous = key
                guard p.at(UInt8(ascii: ":")) else { return false }
                p.i += 1
                return p.readCanonicalValue(depth: depth + 1) != nil
            }
            return read ? start..<i : nil
        case UInt8(ascii: "["):
            let read = readItems(close: UInt8(ascii: "]"), spaced: false) { p in p.readCanonicalValue(depth: depth + 1) != nil }
            return read ? start..<i : nil
        case UInt8(ascii: "\""):
            return readPlainString() != nil ? start..<i : nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return readBool() != nil ? start..<i : nil
        case UInt8(ascii: "n"):
            return matchesLiteral("null") ? start..<i : nil
        default:
            guard let v = readInteger(), v != 0 || bytes[start] != UInt8(ascii: "-") else { return nil }
            return start..<i
        }
    }
}

/// Short names (object keys, enum raw values) found by their UTF-8 bytes, without making a string
/// of the bytes first: the direct reader meets a few of them in every event.
struct KeyTable<Value: Sendable>: Sendable {
    private let entries: [([UInt8], Value)]

    init(_ pairs: [(String, Value)]) { entries = pairs.map { (Array($0.0.utf8), $0.1) } }

    func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        for (name, value) in entries where name.count == bytes.count && name.withUnsafeBufferPointer({ JSONParser.equal($0, bytes) }) {
            return value
        }
        return nil
    }
}

/// An enumeration the direct reader reads by its cases' raw values.
protocol KeyedByRawValue: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    static var keys: KeyTable<Self> { get }
}

extension KeyedByRawValue {
    /// Every case by its raw value.
    static func makeKeys() -> KeyTable<Self> { KeyTable(allCases.map { ($0.rawValue, $0) }) }
}

extension Event.Kind: KeyedByRawValue { static let keys = makeKeys() }
extension Origin: KeyedByRawValue { static let keys = makeKeys() }
extension PresentationStyle: KeyedByRawValue { static let keys = makeKeys() }
