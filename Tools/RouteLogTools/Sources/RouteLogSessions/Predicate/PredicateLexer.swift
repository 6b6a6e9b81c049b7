// The predicate's tokens, and the lexer that cuts the text into them (columns 1-based).

package struct PredicateToken: Equatable {
    package enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case integer(Int)
        case bool(Bool)
        case op(String)
        case lparen, rparen
        case end
    }

    package var kind: Kind
    /// 1-based column of the first character.
    package var column: Int
    /// The token as written.
    package var text: String
}

package enum PredicateLexer {
    package static func tokenize(_ source: String) throws(PredicateError) -> [PredicateToken] {
        let chars = Array(source)
        var tokens: [PredicateToken] = []
        var i = 0
        func isIdentStart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c == "_") }
        func isIdent(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == ".") }
        while i < chars.count {
            let c = chars[i]
            let column = i + 1
            if c.isWhitespace { i += 1; continue }
            if isIdentStart(c) {
                var j = i
                while j < chars.count, isIdent(chars[j]) { j += 1 }
                let word = String(chars[i..<j])
                let kind: PredicateToken.Kind = switch word {
                case "true": .bool(true)
                case "false": .bool(false)
                case "contains": .op("contains")
                case "and": .op("&&")
                case "or": .op("||")
                case "not": .op("!")
                default: .identifier(word)
                }
                tokens.append(PredicateToken(kind: kind, column: column, text: word))
                i = j
                continue
            }
            if c.isASCII && c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isASCII && chars[i + 1].isNumber) {
                var j = i + 1
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                if j < chars.count, isIdent(chars[j]) {
                    throw PredicateError(column: j + 1, message: "unexpected '\(printable(chars[j]))' in a number")
                }
                let text = String(chars[i..<j])
                guard let n = Int(text) else { throw PredicateError(column: column, message: "integer \(text) is too large") }
                tokens.append(PredicateToken(kind: .integer(n), column: column, text: text))
                i = j
                continue
            }
            if c == "\"" {
                var j = i + 1
                var value = ""
                var closed = false
                while j < chars.count {
                    let d = chars[j]
                    if d == "\"" { closed = true; j += 1; break }
                    if d == "\\" {
                        guard j + 1 < chars.count else { break }
                        switch chars[j + 1] {
                        case "\"": value.append("\"")
                        case "\\": value.append("\\")
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        default: throw PredicateError(column: j + 1, message: "unknown escape '\\\(printable(chars[j + 1]))' in a string (use \\\" \\\\ \\n \\t)")
                        }
                        j += 2
                        continue
                    }
                    value.append(d)
                    j += 1
                }
                guard closed else { throw PredicateError(column: column, message: "unterminated string (a '\"' is missing)") }
                tokens.append(PredicateToken(kind: .string(value), column: column, text: String(chars[i..<j])))
                i = j
                continue
            }
            if c == "'" {
                throw PredicateError(column: column, message: "strings use double quotes: \"…\"")
            }
            let two = i + 1 < chars.count ? String(chars[i...i + 1]) : ""
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                tokens.append(PredicateToken(kind: .op(two), column: column, text: two))
                i += 2
                continue
            }
            switch c {
            case "<", ">", "!": tokens.append(PredicateToken(kind: .op(String(c)), column: column, text: String(c)))
            case ",": tokens.append(PredicateToken(kind: .op(","), column: column, text: ","))
            case "(": tokens.append(PredicateToken(kind: .lparen, column: column, text: "("))
            case ")": tokens.append(PredicateToken(kind: .rparen, column: column, text: ")"))
            case "=": throw PredicateError(column: column, message: "unexpected '=' (compare with '==')")
            case "&": throw PredicateError(column: column, message: "unexpected '&' (and is '&&')")
            case "|": throw PredicateError(column: column, message: "unexpected '|' (or is '||')")
            default: throw PredicateError(column: column, message: "unexpected character '\(printable(c))'")
            }
            i += 1
        }
        tokens.append(PredicateToken(kind: .end, column: chars.count + 1, text: ""))
        return tokens
    }
}
