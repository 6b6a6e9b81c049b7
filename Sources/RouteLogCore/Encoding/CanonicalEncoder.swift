import Foundation

extension RawJSON {
    /// The canonical JSON of an `Encodable` value: byte for byte the canonical form of what
    /// `JSONEncoder` (default strategies) writes, built without writing JSON text and parsing it
    /// again.
    ///
    /// It follows `JSONEncoder`'s defaults where they differ from a value's own `Encodable`
    /// conformance: `Data` as a Base64 string, `URL` as its absolute string, `Decimal` as a number,
    /// `Date` as its own `Double` (seconds since 2001). Integers beyond `Int64` and every `Float`
    /// are written as the doubles the canonical parser would read from `JSONEncoder`'s text.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float`, or a top-level
    ///   value that encodes nothing (a nested value that encodes nothing is `{}`); what the value's
    ///   own `encode(to:)` throws.
    public init<T: Encodable>(encoding value: T) throws {
        let root = try CanonicalEncoder.encode(value)
        // Written into a buffer on the stack (moved to the heap only if the text outgrows it),
        // then copied once into the string.
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { stack in
            var out = CanonicalEncoder.Output(stack)
            defer { out.release() }
            root.write(to: &out)
            return String(decoding: out.bytes, as: UTF8.self)
        }
        self.init(uncheckedCanonical: text)
    }
}

/// The `Encoder` behind ``RawJSON/init(encoding:)``: containers write into a small tree of
/// nodes, which is then written as canonical text in one pass.
enum CanonicalEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> Value {
        if let special = try specialValue(value, codingPath: []) { return special }
        let node = Node(parentPath: [], key: nil)
        try value.encode(to: NodeEncoder(node: node))
        guard node.kind != .empty else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return .node(node)
    }

    /// The value of a nested `Encodable`; `codingPath` is built only for an error or a container.
    static func nested<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> Value {
        // Compared as types rather than cast: a cast of an unspecialized generic value is a
        // runtime call, and most nested values are none of these.
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return try number(unsafeBitCast(value, to: Double.self), codingPath()) }
        let path = codingPath()
        if let special = try specialValue(value, codingPath: path) { return special }
        let node = Node(parentPath: path, key: nil)
        try value.encode(to: NodeEncoder(node: node))
        return .node(node)
    }

    /// The types `JSONEncoder` writes in its own way rather than through their conformance.
    private static func specialValue<T: Encodable>(_ value: T, codingPath: @autoclosure () -> [any CodingKey]) throws -> Value? {
        guard T.self == Data.self || T.self == URL.self || T.self == Decimal.self else { return nil }
        switch value {
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal:
            // JSONEncoder writes the decimal's text as a number literal.
            if let v = try? JSONValue(parsing: decimal.description) { return .json(v) }
            throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath(), debugDescription: "Unable to encode \(decimal) directly in JSON."))
        default: return nil
        }
    }

    static func number(_ d: Double, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Value {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: codingPath(), debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        return .double(d)
    }

    static func number(_ f: Float, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Value {
        guard f.isFinite else {
            throw EncodingError.invalidValue(f, .init(codingPath: codingPath(), debugDescription: "Unable to encode Float.\(f) directly in JSON."))
        }
        // JSONEncoder writes a Float's shortest text, which the parser reads as a Double.
        return .double(Double(f.description) ?? Double(f))
    }

    static func number<I: FixedWidthInteger>(_ i: I) -> Value {
        if let v = Int64(exactly: i) { return .int(v) }
        return .double(Double(i))
    }

    // MARK: - The text being written

    /// The canonical text's bytes: appended into a buffer the caller provides (on its stack),
    /// and into one on the heap once they outgrow it; no uniqueness or bounds checks of an array
    /// on each byte. ``release()`` frees the heap buffer, if any.
    struct Output {
        private var base: UnsafeMutablePointer<UInt8>
        private var count = 0
        private var capacity: Int
        private var onHeap = false

        init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            base = buffer.baseAddress!
            capacity = buffer.count
        }

        /// The bytes written so far (valid until the next append or ``release()``).
        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

        mutating func release() {
            if onHeap { base.deallocate() }
            onHeap = false
            count = 0
            capacity = 0
        }

        /// Room for `n` more bytes.
        @inline(__always)
        private mutating func reserve(_ n: Int) {
            if capacity - count < n { grow(n) }
        }

        private mutating func grow(_ n: Int) {
            let newCapacity = Swift.max(capacity * 2, count + n)
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.initialize(from: base, count: count)
            if onHeap { base.deallocate() }
            base = newBase
            capacity = newCapacity
            onHeap = true
        }

        mutating func append(_ b: UInt8) {
            reserve(1)
            base[count] = b
            count += 1
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let src = bytes.baseAddress, bytes.count > 0 else { return }
            reserve(bytes.count)
            (base + count).initialize(from: src, count: bytes.count)
            count += bytes.count
        }

        /// Appends an ASCII literal.
        mutating func append(literal s: StaticString) {
            append(UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
        }

        /// Appends a string's UTF-8.
        mutating func append(_ s: String) {
            var s = s
            s.withUTF8 { append($0) }
        }

        /// Appends `b` `n` times and returns the index of the first.
        mutating func appendRepeated(_ b: UInt8, count n: Int) -> Int {
            reserve(n)
            let start = count
            (base + count).initialize(repeating: b, count: n)
            count += n
            return start
        }

        subscript(i: Int) -> UInt8 {
            get { base[i] }
            set { base[i] = newValue }
        }
    }

    // MARK: - The tree being built

    /// A value: a scalar, or a node that containers write into.
    enum Value {
        case null
        case bool(Bool)
        case int(Int64)
        /// Finite.
        case double(Double)
        case string(String)
        case json(JSONValue)
        case node(Node)

        /// Appends the canonical text.
        func write(to out: inout Output) {
            switch self {
            case .null: out.append(literal: "null")
            case .bool(let b): out.append(literal: b ? "true" : "false")
            case .int(let i): Self.writeInt(i, to: &out)
            case .double(let d): out.append(JSONValue.format(d))
            case .string(let s): Self.writeString(s, to: &out)
            case .json(let v): out.append(v.canonicalText)
            case .node(let n): n.write(to: &out)
            }
        }

        static func writeInt(_ v: Int64, to out: inout Output) {
            if v < 0 { out.append(UInt8(ascii: "-")) }
            var m = v.magnitude
            var digits = 1
            while m >= 10 { m /= 10; digits += 1 }
            var i = out.appendRepeated(UInt8(ascii: "0"), count: digits) + digits - 1
            m = v.magnitude
            repeat {
                out[i] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                i -= 1
            } while m > 0
        }

        /// A string without characters to escape is copied as is; others go through the canonical
        /// writer's escaping.
        /// Whether any byte is a control character, a quote or a backslash: eight bytes at a
        /// time, each word tested for a byte below 0x20 or equal to 0x22 or 0x5C (the tests
        /// never miss one; a word they flag is looked at byte by byte, from there on).
        static func needsEscape(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let p = u.baseAddress else { return false }
            let raw = UnsafeRawPointer(p)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            var i = 0
            while i + 8 <= u.count {
                let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C)
                let below = (x &- ones &* 0x20) & ~x
                let quoted = (quote &- ones) & ~quote
                let slashed = (backslash &- ones) & ~backslash
                if (below | quoted | slashed) & highs != 0 { break }
                i += 8
            }
            while i < u.count {
                let b = u[i]
                if b < 0x20 || b == 0x22 || b == 0x5C { return true }
                i += 1
            }
            return false
        }

        static func writeString(_ s: String, to out: inout Output) {
            // Scanned and copied through the string's contiguous UTF-8 (a native string's own
            // buffer): one pass and a memcpy, not the generic UTF8View iteration.
            var s = s
            let copied = s.withUTF8 { u -> Bool in
                if needsEscape(u) { return false }
                out.append(UInt8(ascii: "\""))
                out.append(u)
                out.append(UInt8(ascii: "\""))
                return true
            }
            if !copied {
                var text = ""
                JSONValue.writeString(s, to: &text)
                out.append(text)
            }
        }
    }

    /// One object or array under construction (or a value that has not encoded anything yet),
    /// with its coding path: its parent's path and its own key, if any.
    ///
    /// The encoder and containers that write into a node hold only the node (an encoder of one
    /// reference fits in an existential's inline buffer, so passing it to `encode(to:)` allocates
    /// no box). Its properties are not checked for exclusive access at run time (`@exclusivity(unchecked)`):
    /// a node belongs to one encoding, on one thread, and no access to it overlaps another.
    final class Node {
        enum Kind { case empty, scalar, object, array }
        @exclusivity(unchecked) var kind = Kind.empty
        @exclusivity(unchecked) var scalar = Value.null
        /// Keys in the order they were encoded; a key encoded twice keeps its last value.
        @exclusivity(unchecked) var pairs: [(key: String, value: Value)] = []
        @exclusivity(unchecked) var items: [Value] = []
        let parentPath: [any CodingKey]
        let key: (any CodingKey)?

        init(parentPath: [any CodingKey], key: (any CodingKey)?) {
            self.parentPath = parentPath
            self.key = key
        }

        var codingPath: [any CodingKey] { path(parentPath, key) }

        func write(to out: inout Output) {
            switch kind {
            case .empty:
                out.append(literal: "{}")
            case .scalar:
                scalar.write(to: &out)
            case .array:
                out.append(UInt8(ascii: "["))
                for (n, item) in items.enumerated() {
                    if n > 0 { out.append(UInt8(ascii: ",")) }
                    item.write(to: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .object:
                out.append(UInt8(ascii: "{"))
                // Keys encoded already in order, each once (what a synthesized conformance of a
                // type with sorted property names writes), need no sort.
                if pairs.indices.dropFirst().allSatisfy({ Self.precedes(pairs[$0 - 1].key, pairs[$0].key) }) {
                    writePairs(pairs.indices, to: &out)
                } else {
                    writePairs(canonicalOrder(), to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }

        /// Whether `a`'s UTF-8 bytes precede `b`'s (`a.utf8.lexicographicallyPrecedes(b.utf8)`,
        /// compared with `memcmp` over the strings' contiguous UTF-8).
        static func precedes(_ a: String, _ b: String) -> Bool {
            var a = a, b = b
            return a.withUTF8 { ua in
                b.withUTF8 { ub in
                    let n = min(ua.count, ub.count)
                    let c = n == 0 ? 0 : memcmp(ua.baseAddress!, ub.baseAddress!, n)
                    return c != 0 ? c < 0 : ua.count < ub.count
                }
            }
        }

        /// The pairs' indices in canonical order: keys by their UTF-8 bytes, and of a key encoded
        /// more than once only its last pair.
        private func canonicalOrder() -> [Int] {
            let order = pairs.indices.sorted { a, b in
                let (ka, kb) = (pairs[a].key, pairs[b].key)
                return ka == kb ? a < b : Self.precedes(ka, kb)
            }
            return order.indices.filter { n in n + 1 == order.count || pairs[order[n + 1]].key != pairs[order[n]].key }.map { order[$0] }
        }

        /// Writes the pairs at `indices`, in that order, separated by commas.
        private func writePairs<S: Sequence<Int>>(_ indices: S, to out: inout Output) {
            var first = true
            for i in indices {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                Value.writeString(pairs[i].key, to: &out)
                out.append(UInt8(ascii: ":"))
                pairs[i].value.write(to: &out)
            }
        }
    }

    /// A coding path made only when asked for: the parent's path and this level's key.
    static func path(_ parent: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
        key.map { parent + [$0] } ?? parent
    }

    struct NodeEncoder: Encoder {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.kind != .object {
                node.kind = .object
                node.pairs = []
                // Room for a few keys at once: appending to an empty array allocates room for one
                // pair, and the second key would reallocate it.
                node.pairs.reserveCapacity(4)
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.kind != .array {
                node.kind = .array
                node.items = []
            }
            return UnkeyedContainer(node: node)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleContainer(node: node)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        private func set(_ v: Value, _ key: Key) { node.pairs.append((key.stringValue, v)) }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(try number(value, codingPath + [key]), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(try number(value, codingPath + [key]), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(number(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(number(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try nested(value, codingPath: codingPath + [key]), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(parentPath: codingPath, key: key)
            child.kind = .object
            child.pairs.reserveCapacity(4)
            node.pairs.append((key.stringValue, .node(child)))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node(parentPath: codingPath, key: key)
            child.kind = .array
            node.pairs.append((key.stringValue, .node(child)))
            return UnkeyedContainer(node: child)
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey.super) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

        private func superEncoder(named key: any CodingKey) -> any Encoder {
            let child = Node(parentPath: codingPath, key: key)
            node.pairs.append((key.stringValue, .node(child)))
            return NodeEncoder(node: child)
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var count: Int { node.items.count }

        private var nextKey: any CodingKey { IndexKey(intValue: count) }
        private func add(_ v: Value) { node.items.append(v) }

        mutating func encodeNil() throws { add(.null) }
        mutating func encode(_ value: Bool) throws { add(.bool(value)) }
        mutating func encode(_ value: String) throws { add(.string(value)) }
        mutating func encode(_ value: Double) throws { add(try number(value, codingPath + [nextKey])) }
        mutating func encode(_ value: Float) throws { add(try number(value, codingPath + [nextKey])) }
        mutating func encode(_ value: Int) throws { add(number(value)) }
        mutating func encode(_ value: Int8) throws { add(number(value)) }
        mutating func encode(_ value: Int16) throws { add(number(value)) }
        mutating func encode(_ value: Int32) throws { add(number(value)) }
        mutating func encode(_ value: Int64) throws { add(number(value)) }
        mutating func encode(_ value: UInt) throws { add(number(value)) }
        mutating func encode(_ value: UInt8) throws { add(number(value)) }
        mutating func encode(_ value: UInt16) throws { add(number(value)) }
        mutating func encode(_ value: UInt32) throws { add(number(value)) }
        mutating func encode(_ value: UInt64) throws { add(number(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { add(try nested(value, codingPath: codingPath + [nextKey])) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(parentPath: codingPath, key: nextKey)
            child.kind = .object
            node.items.append(.node(child))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node(parentPath: codingPath, key: nextKey)
            child.kind = .array
            node.items.append(.node(child))
            return UnkeyedContainer(node: child)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node(parentPath: codingPath, key: nextKey)
            node.items.append(.node(child))
            return NodeEncoder(node: child)
        }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        private func set(_ v: Value) {
            node.kind = .scalar
            node.scalar = v
        }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(try number(value, codingPath)) }
        mutating func encode(_ value: Float) throws { set(try number(value, codingPath)) }
        mutating func encode(_ value: Int) throws { set(number(value)) }
        mutating func encode(_ value: Int8) throws { set(number(value)) }
        mutating func encode(_ value: Int16) throws { set(number(value)) }
        mutating func encode(_ value: Int32) throws { set(number(value)) }
        mutating func encode(_ value: Int64) throws { set(number(value)) }
        mutating func encode(_ value: UInt) throws { set(number(value)) }
        mutating func encode(_ value: UInt8) throws { set(number(value)) }
        mutating func encode(_ value: UInt16) throws { set(number(value)) }
        mutating func encode(_ value: UInt32) throws { set(number(value)) }
        mutating func encode(_ value: UInt64) throws { set(number(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws { set(try nested(value, codingPath: codingPath)) }
    }

    private enum SuperKey: String, CodingKey { case `super` }

    private struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
}
