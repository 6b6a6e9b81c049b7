@_spi(Tools) import RouteLogCore
import RouteLogSessions

/// A tool call's arguments, checked against the tool's input schema's properties.
struct Arguments {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue], spec: AgentTools.Spec) throws(RouteLogError) {
        guard case .object(let schema) = spec.input, case .object(let props)? = schema["properties"] else { self.values = values; return }
        for key in JSONValue.sortedKeys(values.keys) where props[key] == nil {
            throw .usage("unknown argument \(printable(key)) for \(spec.name) (arguments: \(JSONValue.sortedKeys(props.keys).joined(separator: ", ")))")
        }
        if case .array(let required)? = schema["required"] {
            for case .string(let r) in required where values[r] == nil || values[r] == .null { throw .usage("\(spec.name) needs \(r)") }
        }
        self.values = values
    }

    func string(_ key: String) throws(RouteLogError) -> String {
        guard let v = try optionalString(key) else { throw .usage("missing argument: \(key)") }
        return v
    }

    /// The longest string argument, in bytes: a session reference, a predicate or a name is far shorter.
    static let maxStringBytes = 10_000

    func optionalString(_ key: String) throws(RouteLogError) -> String? {
        switch values[key] {
        case nil, .null?: return nil
        case .string(let s)?:
            guard s.utf8.count <= Self.maxStringBytes else {
                throw .usage("\(key) is too long: \(s.utf8.count) bytes (at most \(Self.maxStringBytes))")
            }
            return s
        default: throw .usage("\(key) must be a string")
        }
    }

    func int(_ key: String) throws(RouteLogError) -> Int? {
        switch values[key] {
        case nil, .null?: return nil
        case .int(let i)?:
            guard i >= 0, i <= Int64(Int.max) else { throw .usage("\(key) out of range: \(i)") }
            return Int(i)
        case .double(let d)? where d >= 0 && d < 9e18 && d.rounded() == d: return Int(d)
        default: throw .usage("\(key) must be a non-negative integer")
        }
    }

    func bool(_ key: String) throws(RouteLogError) -> Bool? {
        switch values[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        default: throw .usage("\(key) must be true or false")
        }
    }

    /// The `cursor` argument: an offset (or seq) from an earlier answer's `next`.
    func cursor(default value: Int = 0) throws(RouteLogError) -> Int {
        guard let c = try optionalString("cursor") else { return value }
        guard let n = Int(c), n >= 0 else { throw .usage("bad cursor: \(printable(c)) (pass an answer's next as is)") }
        return n
    }
}
