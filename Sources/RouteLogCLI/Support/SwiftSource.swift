/// Swift source text the CLI writes for an app's test suite (the tests `repro` and the MCP
/// server's `minimize` and `reproduce_crash` hand out).
enum SwiftSource {
    /// `crashed-run-3-01a2f3b4` as a function name, `crashedRun301a2f3b4`: the words camel-cased,
    /// `prefix` in front when the first is not a letter.
    static func identifier(_ name: String, prefix: String) -> String {
        let words = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        let joined = words.enumerated()
            .map { i, w in i == 0 ? w.lowercased() : w.prefix(1).uppercased() + w.dropFirst().lowercased() }.joined()
        return joined.first?.isLetter == true ? joined : prefix + joined
    }

    /// `text` as a Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
