import Foundation
import RouteLogCore

/// Encodes an `Encodable` value straight into a ``JSONValue`` tree: the value whose canonical text
/// is what `JSONEncoder` (default strategies) writes, parsed back as canonical JSON. No JSON text
/// is written and parsed again on the way.
///
/// It follows `JSONEncoder`'s defaults where they differ from a value's own `Encodable`
/// conformance: `Data` as a Base64 string, `URL` as its absolute string, `Decimal` as a number,
/// `Date` as its own `Double` (seconds since 2001). A non-finite `Double` or `Float` is an error,
/// as is a top-level value that encodes nothing; a nested value that encodes nothing is `{}`.
/// Integers beyond `Int64` become doubles, as the canonical parser reads them.
enum CanonicalEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let special = try specialValue(value, codingPath: []) { return special }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: []))
        guard node.kind != .empty else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return node.value
    }

    /// The JSON of a nested value.
    static func nested<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue {
        switch value {
        case let s as String: return .string(s)
        case let i as Int: return .int(Int64(i))
        case let b as Bool: return .bool(b)
        case let d as Double: return try number(d, codingPath)
        default: break
        }
        if let special = try specialValue(value, codingPath: codingPath) { return special }
        let node = Node()
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        return node.value
    }

    /// The types `JSONEncoder` writes in its own way rather than through their conformance.
    private static func specialValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> JSONValue? {
        switch value {
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        case let decimal as Decimal:
            // JSONEncoder writes the decimal's text as a number literal.
            if let v = try? JSONValue(parsing: decimal.description) { return v }
            throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath, debugDescription: "Unable to encode \(decimal) directly in JSON."))
        default: return nil
        }
    }

    static func number(_ d: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(codingPath: codingPath, debugDescription: "Unable to encode Double.\(d) directly in JSON."))
        }
        return .double(d)
    }

    static func number(_ f: Float, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard f.isFinite else {
            throw EncodingError.invalidValue(f, .init(codingPath: codingPath, debugDescription: "Unable to encode Float.\(f) directly in JSON."))
        }
        // JSONEncoder writes a Float's shortest text, which the parser reads as a Double.
        return .double(Double(f.description) ?? Double(f))
    }

    static func number<I: FixedWidthInteger>(_ i: I) -> JSONValue {
        if let v = Int64(exactly: i) { return .int(v) }
        return .double(Double(i))
    }

    // MARK: - The tree being built

    /// One value under construction: containers write into it; nested containers and super
    /// encoders hold on to their own node.
    final class Node {
        enum Kind { case empty, scalar, object, array }
        var kind = Kind.empty
        var scalar = JSONValue.null
        var object: [String: Child] = [:]
        var array: [Child] = []

        var value: JSONValue {
            switch kind {
            case .empty: .object([:])
            case .scalar: scalar
            case .object: .object(object.mapValues(\.value))
            case .array: .array(array.map(\.value))
            }
        }
    }

    enum Child {
        case value(JSONValue)
        case node(Node)

        var value: JSONValue {
            switch self {
            case .value(let v): v
            case .node(let n): n.value
            }
        }
    }

    struct NodeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.kind != .object {
                node.kind = .object
                node.object = [:]
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.kind != .array {
                node.kind = .array
                node.array = []
            }
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleContainer(node: node, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func set(_ v: JSONValue, _ key: Key) { node.object[key.stringValue] = .value(v) }

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
            let child = Node()
            child.kind = .object
            node.object[key.stringValue] = .node(child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node()
            child.kind = .array
            node.object[key.stringValue] = .node(child)
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: SuperKey.super) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

        private func superEncoder(named key: any CodingKey) -> any Encoder {
            let child = Node()
            node.object[key.stringValue] = .node(child)
            return NodeEncoder(node: child, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.array.count }

        private var nextKey: any CodingKey { IndexKey(intValue: count) }
        private func add(_ v: JSONValue) { node.array.append(.value(v)) }

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
            let child = Node()
            child.kind = .object
            let path = codingPath + [nextKey]
            node.array.append(.node(child))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node()
            child.kind = .array
            let path = codingPath + [nextKey]
            node.array.append(.node(child))
            return UnkeyedContainer(node: child, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node()
            let path = codingPath + [nextKey]
            node.array.append(.node(child))
            return NodeEncoder(node: child, codingPath: path)
        }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        private func set(_ v: JSONValue) {
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
