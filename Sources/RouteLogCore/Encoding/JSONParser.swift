/// A JSON syntax error, with the 1-based line and column where it was found.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// Maximum nesting depth accepted by the parser; deeper input is an error, not a stack overflow.
    /// A presentation takes two levels (its frame and itself), so this admits any valid state
    /// (``NavigationState/maxChainDepth``) with room to spare.
    @_spi(Tools) public static let maxDepth = 1_000

    /// Maximum length of one string, in UTF-8 bytes (1 MiB): longer is an error
    /// ("string longer than 1048576 bytes"), so one value cannot claim the whole memory.
    @_spi(Tools) public static let maxStringBytes = 1 << 20

    /// Parses JSON text (RFC 8259). Duplicate object keys are an error.
    public init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses UTF-8 JSON bytes.
    public init(parsing bytes: [UInt8]) throws(JSONError) {
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
            var parser = JSONParser(bytes: buffer)
            return try parser.parseDocument()
        }
    }
}

/// The parser, over bytes the caller keeps alive (an array's storage).
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String, at offset: Int? = nil) -> JSONError {
        let end = min(offset ?? i, bytes.count)
        var line = 1, col = 1
        var k = 0
        while k < end {
            if bytes[k] == 0x0A { line += 1; col = 1 } else if bytes[k] & 0xC0 != 0x80 { col += 1 }
            k += 1
        }
        return JSONError(message: message, line: line, column: col)
    }

    /// A byte for an error message, on one line: `character 'x'` for printable ASCII, else its hex.
    static func describe(byte b: UInt8) -> String {
        b > 0x20 && b < 0x7F ? "character '\(Character(Unicode.Scalar(b)))'" : "byte 0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }

    mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipWhitespace()
        let v = try parseValue()
        skipWhitespace()
        if i != bytes.count { throw error("unexpected text after the JSON value") }
        return v
    }

    /// Parses a document as ``parseDocument()`` does, with the same errors at the same places,
    /// except that the arrays found at `paths` (each a list of object keys from the top level, e.g.
    /// `["events"]` or `["expect", "outcomes"]`) have their items read by `item` one by one
    /// (with the path's index and the item's index) instead of being kept: the returned tree holds
    /// an empty array there, and `streamed[k]` is the number of items of `paths[k]` (`nil` when the
    /// document has no array there). A large file is then read without building its whole tree.
    /// `item` gets the parser on the item's first byte and must leave it just past the item (or
    /// throw the error ``parseValue()`` throws there); the parser never reads the bytes before it
    /// again (but to place an error).
    mutating func parseDocument(streaming paths: [[String]], item: (_ path: Int, _ index: Int, inout JSONParser) throws(JSONError) -> Void) throws(JSONError) -> (value: JSONValue, streamed: [Int?]) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        skipWhitespace()
        var streamed = [Int?](repeating: nil, count: paths.count)
        let v: JSONValue
        if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
            v = try parseObject(streaming: paths.indices.map { ($0, paths[$0][...]) }, &streamed, item)
        } else {
            v = try parseValue()
        }
        skipWhitespace()
        if i != bytes.count { throw error("unexpected text after the JSON value") }
        return (v, streamed)
    }

    /// An object (at `{`) whose arrays at `paths` (the rest of each path, with its index) are streamed.
    private mutating func parseObject(streaming paths: [(Int, ArraySlice<String>)], _ streamed: inout [Int?],
                                      _ item: (Int, Int, inout JSONParser) throws(JSONError) -> Void) throws(JSONError) -> JSONValue {
        var o: [String: JSONValue] = [:]
        try parseItems(close: UInt8(ascii: "}"), in: "object") { (p) throws(JSONError) in
            let (keyStart, name) = try p.parseKey()
            let here = o[name] == nil && p.i < p.bytes.count ? paths.filter { $0.1.first == name } : []
            let v: JSONValue
            if let leaf = here.first(where: { $0.1.count == 1 }), p.bytes[p.i] == UInt8(ascii: "[") {
                var n = 0
                try p.parseItems(close: UInt8(ascii: "]"), in: "array") { (p) throws(JSONError) in
                    try item(leaf.0, n, &p)
                    n += 1
                }
                streamed[leaf.0] = n
                v = .array([])
            } else if case let deeper = here.filter({ $0.1.count > 1 }).map({ ($0.0, $0.1.dropFirst()) }), !deeper.isEmpty,
                      p.bytes[p.i] == UInt8(ascii: "{") {
                v = try p.parseObject(streaming: deeper, &streamed, item)
            } else {
                v = try p.parseValue()
            }
            if o.updateValue(v, forKey: name) != nil { throw p.error("duplicate key \"\(JSONValue.escapingControlCharacters(name))\"", at: keyStart) }
        }
        return .object(o)
    }

    /// An object's key and the `:` after it; returns where the key started. Leaves `i` on the value.
    mutating func parseKey() throws(JSONError) -> (start: Int, key: String) {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key in object") }
        let keyStart = i
        let key = try parseString()
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
        i += 1
        skipWhitespace()
        return (keyStart, key)
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(JSONParser.describe(byte: bytes[i])), expected a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let n = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: n)
        guard i + n <= bytes.count, bytes[i..<(i + n)].elementsEqual(expected) else {
            throw error("invalid literal, expected '\(word)'")
        }
        i += n
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > JSONValue.maxDepth { throw error("nesting deeper than \(JSONValue.maxDepth) levels") }
    }

    /// Parses the items of an object or array after its opening bracket: `item` reads one, the
    /// items are separated by commas and end at `close`. Counts one level of nesting.
    mutating func parseItems(close: UInt8, in what: String, _ item: (inout Self) throws(JSONError) -> Void) throws(JSONError) {
        try enter()
        i += 1
        skipWhitespace()
        if i < bytes.count, bytes[i] == close { i += 1; depth -= 1; return }
        while true {
            skipWhitespace()
            try item(&self)
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input in \(what)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == close { i += 1; break }
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(what)")
        }
        depth -= 1
    }

    mutating func parseObject() throws(JSONError) -> JSONValue {
        var o: [String: JSONValue] = [:]
        try parseItems(close: UInt8(ascii: "}"), in: "object") { (p) throws(JSONError) in
            let (keyStart, key) = try p.parseKey()
            let v = try p.parseValue()
            if o.updateValue(v, forKey: key) != nil { throw p.error("duplicate key \"\(JSONValue.escapingControlCharacters(key))\"", at: keyStart) }
        }
        return .object(o)
    }

    mutating func parseArray() throws(JSONError) -> JSONValue {
        var a: [JSONValue] = []
        try parseItems(close: UInt8(ascii: "]"), in: "array") { (p) throws(JSONError) in a.append(try p.parseValue()) }
        return .array(a)
    }

    mutating func parseString() throws(JSONError) -> String {
        let start = i
        i += 1
        // The decoded bytes, once an escape has been met; until then the string is the run of
        // (validated) input bytes from `runStart`, copied once at the end.
        var decoded: [UInt8] = []
        var escaped = false
        var runStart = i
        func flush(_ p: inout JSONParser, _ scalars: inout [UInt8], to end: Int) {
            if runStart < end { scalars.append(contentsOf: p.bytes[runStart..<end]) }
        }
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[i]
            if i - start > JSONValue.maxStringBytes + 1 {
                throw error("string longer than \(JSONValue.maxStringBytes) bytes", at: start)
            }
            if b == UInt8(ascii: "\"") {
                defer { i += 1 }
                if !escaped { return String(decoding: bytes[runStart..<i], as: UTF8.self) }
                flush(&self, &decoded, to: i)
                return String(decoding: decoded, as: UTF8.self)
            }
            if b < 0x20 { throw error("control character in string") }
            if b == UInt8(ascii: "\\") {
                escaped = true
                flush(&self, &decoded, to: i)
                i += 1
                guard i < bytes.count else { throw error("unterminated escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): decoded.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): decoded.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): decoded.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    decoded.append(contentsOf: UTF8.encode(scalar)!)
                default: throw error(e > 0x20 && e < 0x7F ? "invalid escape '\\\(Character(Unicode.Scalar(e)))'" : "invalid escape: '\\' followed by \(JSONParser.describe(byte: e))")
                }
                runStart = i
                continue
            }
            if b >= 0x80 {
                // Validate the UTF-8 sequence.
                let len = UTF8Validation.scalarLength(bytes, at: i)
                guard len > 0 else { throw error("invalid UTF-8 in string") }
                i += len
                continue
            }
            i += 1
        }
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        let intStart = i
        let n = digits(&self)
        if n == 0 { throw error("invalid number") }
        if n > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("leading zero in number", at: intStart) }
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            isInteger = false
            if digits(&self) == 0 { throw error("expected digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            isInteger = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits(&self) == 0 { throw error("expected digits in exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        if isInteger, let v = Int64(text) { return .int(v) }
        guard let d = Double(text), d.isFinite else { throw error("number out of range", at: start) }
        if d.rounded() == d && abs(d) < 9.0e15 { return .int(Int64(d)) }
        return .double(d)
    }
}
