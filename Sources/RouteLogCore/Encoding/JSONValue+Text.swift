// The text forms of a JSON value: canonical (one line, sorted keys), pretty (indented), and the
// escaping of strings, in values and in error messages.

extension JSONValue {
    func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.format(d)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "]"
        case .object(let o):
            if o.isEmpty { out += "{}"; return }
            out += "{"
            for (n, key) in JSONValue.sortedKeys(o.keys).enumerated() {
                if n > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                o[key]!.write(to: &out, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "}"
        }
    }

    static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n"
        for _ in 0..<level { out += indent }
    }

    /// Doubles: integral values in the exact-integer range print without a fraction (so `1.0`
    /// and `1` are one value); others use Swift's shortest round-trip form.
    static func format(_ d: Double) -> String {
        if d.isNaN || d.isInfinite { return "null" }
        if d.rounded() == d && abs(d) < 9.0e15 { return String(Int64(d)) }
        return "\(d)"
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C { needsEscape = true; break }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                default:
                    if scalar.value < 0x20 {
                        appendUnicodeEscape(scalar, to: &out)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// `text` on one line: control characters and line separators written as JSON escapes
    /// (`\n`, `\u0001`, `\u2028`), everything else as is. For error messages that quote input.
    @_spi(Tools) public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): appendUnicodeEscape(scalar, to: &out)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `\u` and the scalar's value in four (or more) lowercase hex digits: `\u0001`, `\u2028`.
    private static func appendUnicodeEscape(_ scalar: Unicode.Scalar, to out: inout String) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s.value == 0x2028 || s.value == 0x2029
    }
}
