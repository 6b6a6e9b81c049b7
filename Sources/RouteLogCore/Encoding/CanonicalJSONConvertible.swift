/// A value in a JSON document that does not have the shape RouteLog expects.
///
/// `path` names the place, e.g. `events[3].show.style`; `message` says what is wrong there.
public struct FormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        // Both may quote the input; an error is one line, so line breaks and controls are escaped.
        self.path = JSONValue.escapingControlCharacters(path)
        self.message = JSONValue.escapingControlCharacters(message)
    }
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// The same error, addressed inside `outer` (`outer.path`).
    @_spi(Tools) public func within(_ outer: String) -> FormatError {
        FormatError(path: path.isEmpty ? outer : (path.hasPrefix("[") ? outer + path : "\(outer).\(path)"), message: message)
    }
}

/// Types with a canonical JSON form (sorted keys; defaults omitted; byte-identical on every run).
@_spi(Tools) public protocol CanonicalJSONConvertible {
    /// The canonical JSON value.
    var json: JSONValue { get }
    /// Reads the canonical form, and also the lenient hand-written forms documented per type.
    init(json: JSONValue) throws(FormatError)
}

@_spi(Tools) extension CanonicalJSONConvertible {
    /// The canonical JSON text.
    public var canonicalJSON: String { json.canonicalText }

    /// Parses JSON text.
    public init(jsonText: String) throws(FormatError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: jsonText) } catch { throw FormatError(path: "", message: "invalid JSON at \(error)") }
        try self.init(json: value)
    }
}

/// Helpers for reading objects with precise errors.
struct JSONReader {
    let object: [String: JSONValue]

    init(_ value: JSONValue, _ what: String) throws(FormatError) {
        guard case .object(let o) = value else { throw FormatError(path: "", message: "expected \(what) (an object), found \(value.kindName)") }
        object = o
    }

    /// Fails on the first key (in canonical order) not in `keys`. An array, not a set: the lists
    /// are short, and a set literal would be built anew on every call.
    func only(_ keys: [String]) throws(FormatError) {
        // Usually every key is known: check that first, without sorting.
        guard object.keys.contains(where: { !keys.contains($0) }) else { return }
        for key in JSONValue.sortedKeys(object.keys) where !keys.contains(key) {
            let expected = JSONValue.sortedKeys(keys).map { "\"\($0)\"" }.joined(separator: ", ")
            throw FormatError(path: key, message: "unknown key \"\(key)\" (expected one of \(expected))")
        }
    }

    func has(_ key: String) -> Bool { object[key].map { !$0.isNull } ?? false }

    func value(_ key: String) throws(FormatError) -> JSONValue {
        guard let v = object[key], !v.isNull else { throw FormatError(path: key, message: "missing required key \"\(key)\"") }
        return v
    }

    func string(_ key: String) throws(FormatError) -> String {
        let v = try value(key)
        guard let s = v.stringValue else { throw FormatError(path: key, message: "expected a string, found \(v.kindName)") }
        return s
    }

    func optionalString(_ key: String) throws(FormatError) -> String? { has(key) ? try string(key) : nil }

    func bool(_ key: String, default d: Bool) throws(FormatError) -> Bool {
        guard has(key) else { return d }
        let v = try value(key)
        guard let b = v.boolValue else { throw FormatError(path: key, message: "expected true or false, found \(v.kindName)") }
        return b
    }

    func int(_ key: String) throws(FormatError) -> Int64 {
        let v = try value(key)
        guard let i = v.intValue else { throw FormatError(path: key, message: "expected an integer, found \(v.kindName)") }
        return i
    }

    /// A presentation token. Tokens are written as JSON integers in their 64-bit two's complement
    /// (`Int64(bitPattern:)`), so one above `Int64.max` (never issued by the reducer, whose tokens
    /// are seqs, but an event may name any token) is written negative and reads back exactly.
    func token(_ key: String) throws(FormatError) -> UInt64 {
        UInt64(bitPattern: try int(key))
    }

    func array(_ key: String) throws(FormatError) -> [JSONValue] {
        let v = try value(key)
        guard let a = v.arrayValue else { throw FormatError(path: key, message: "expected an array, found \(v.kindName)") }
        return a
    }

    func decode<T: CanonicalJSONConvertible>(_ key: String, as: T.Type) throws(FormatError) -> T {
        do { return try T(json: try value(key)) } catch { throw error.within(key) }
    }

    func decodeIfPresent<T: CanonicalJSONConvertible>(_ key: String, as: T.Type) throws(FormatError) -> T? {
        has(key) ? try decode(key, as: T.self) : nil
    }

    func enumValue<T: RawRepresentable & CaseIterable>(_ key: String, as: T.Type) throws(FormatError) -> T where T.RawValue == String {
        let s = try string(key)
        guard let v = T(rawValue: s) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw FormatError(path: key, message: "unknown value \"\(s)\" (expected one of \(names))")
        }
        return v
    }
}

func objectValue(_ pairs: [(String, JSONValue?)]) -> JSONValue {
    var o: [String: JSONValue] = [:]
    for (k, v) in pairs { if let v { o[k] = v } }
    return .object(o)
}
