/// A JSON value tree with one canonical text form.
///
/// Canonical text: object keys sorted by their UTF-8 bytes, no whitespace, integers written
/// without a fraction, strings escaped minimally (`\"`, `\\`, and control characters). Equal
/// values always give byte-identical text, on every run and platform.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The canonical text of this value.
    public var canonicalText: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Canonical content (sorted keys), indented by two spaces per level, for people to read.
    public var prettyText: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var intValue: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: Int64(d)
        default: nil
        }
    }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// A short name of the value's kind for error messages.
    @_spi(Tools) public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Object keys in canonical order (by UTF-8 bytes).
    @_spi(Tools) public static func sortedKeys<S: Sequence<String>>(_ keys: S) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
