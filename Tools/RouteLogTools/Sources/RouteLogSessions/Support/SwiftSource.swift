/// Swift source text the CLI writes for an app's test suite (the tests `repro` and the MCP
/// server's `minimize` and `reproduce_crash` hand out).
///
/// Everything in that text that came from a store, a file or an agent (an app version, a build, a
/// label, a predicate, a path) goes through one of two helpers, for where it lands: ``comment(_:)``
/// for text inside a `//` comment and ``literal(_:)`` for a string literal. Names that become
/// declarations or types are checked with ``isIdentifier(_:)`` and ``isTypePath(_:)``.
package enum SwiftSource {
    /// `crashed-run-3-01a2f3b4` as a function name, `crashedRun301a2f3b4`: the words camel-cased,
    /// `prefix` in front when the first is not a letter, or when the result would be a keyword.
    package static func identifier(_ name: String, prefix: String) -> String {
        let words = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        let joined = words.enumerated()
            .map { i, w in i == 0 ? w.lowercased() : w.prefix(1).uppercased() + w.dropFirst().lowercased() }.joined()
        guard joined.first?.isLetter == true, !keywords.contains(joined) else {
            return prefix + (joined.first.map { $0.uppercased() + joined.dropFirst() } ?? "")
        }
        return joined
    }

    /// `text` as a Swift string literal: `\` and `"` escaped, and every control character, line or
    /// paragraph separator and bidirectional control as `\u{…}`, so the literal stays on its line,
    /// ends where it should and reads as what it holds (`"""` and `\(` are inert inside it).
    package static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `text` for the inside of a `//` comment: on one line whatever it holds. Control characters
    /// (a `\n` or `\r` would end the comment and start code), line and paragraph separators and
    /// bidirectional controls are written as `\u{…}` (a backslash as `\\`, so the notation is
    /// unambiguous); `/*` and `*/` are broken up (`/\u{2A}`, `\u{2A}/`) so no block comment opens
    /// or closes in a `///` documentation comment's rendering either.
    package static func comment(_ text: String) -> String {
        var out = ""
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "*" where previous == "/", "/" where previous == "*": out += "\\u{\(String(scalar.value, radix: 16))}"
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
            previous = scalar
        }
        return out
    }

    /// C0 and C1 controls, DEL, U+2028 and U+2029, and the bidirectional embeddings, overrides
    /// and isolates (U+202A–U+202E, U+2066–U+2069), which make code read other than it runs.
    package static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0xFEFF: true
        default: false
        }
    }

    /// Swift's reserved words: none can name a function, a module or a type without backticks
    /// (and `@testable import` takes none in backticks).
    package static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup", "protocol",
        "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
        "Type", "Protocol",
    ]

    /// Why `name` cannot be a plain Swift identifier (an ASCII letter or `_` first, then letters,
    /// digits and `_`, and not a keyword), or `nil` when it can.
    package static func identifierProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if keywords.contains(name) { return "is a Swift keyword" }
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return "does not start with a letter or _"
        }
        if !name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }) {
            return "is not a Swift identifier (letters, digits and _)"
        }
        return nil
    }

    /// Why `path` cannot name a type (`Screen`, `App.Screen`: identifiers joined by `.`), or `nil`.
    package static func typePathProblem(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            if part.isEmpty { return "is not a type name (an empty part between dots)" }
            if let problem = identifierProblem(String(part)) {
                return part == path ? problem : "has a part '\(printable(part))' that \(problem)"
            }
        }
        return nil
    }
}
