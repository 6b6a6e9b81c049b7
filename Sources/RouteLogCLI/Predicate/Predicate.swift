import Foundation
import RouteLogCore

/// The predicate language of `bisect` and `minimize`: a small, typed boolean expression over the
/// state at a seq, the event at that seq and its outcome.
///
/// ```
/// expr       := or
/// or         := and ("||" and)*
/// and        := unary ("&&" unary)*
/// unary      := "!" unary | primary
/// primary    := "(" expr ")" | operand (compare operand)?
/// compare    := "==" | "!=" | "<" | "<=" | ">" | ">=" | "contains"
/// operand    := field | "string" | integer | true | false
/// ```
///
/// The expression is type-checked when it is parsed, so every mistake is reported with its column
/// before any state is materialized. A field with no value at a seq (`top.id` with nothing presented,
/// `event` at seq 0) is *absent*: `==`, `<`, `contains`… are false on it and `!=` is true.
struct Predicate: CustomStringConvertible {
    let source: String
    let root: Node

    /// Parses and type-checks `source`.
    /// The longest predicate accepted, in characters; longer is an error at the first character past it.
    static let maxLength = 4_096

    init(_ source: String) throws(PredicateError) {
        if source.count > Self.maxLength {
            throw PredicateError(column: Self.maxLength + 1, message: "the predicate is longer than \(Self.maxLength) characters")
        }
        self.source = source
        var parser = PredicateParser(tokens: try PredicateLexer.tokenize(source), length: source.count)
        root = try parser.parseAll()
    }

    var description: String { source }

    /// Evaluates the predicate.
    func holds(in context: PredicateContext) -> Bool { root.evaluate(context).isTrue }

    /// Whether the predicate reads the event or the outcome (and not only the state).
    var readsEvent: Bool { root.fields.contains { $0 == .event || $0 == .outcome || $0 == .reason } }

    // MARK: - Fields

    /// A field of the language, with its type and documentation.
    enum Field: String, CaseIterable {
        case topID = "top.id"
        case topStyle = "top.style"
        case topDismissible = "top.dismissible"
        case depth
        case pathCount = "path.count"
        case pathLastID = "path.last.id"
        case pathIDs = "path.ids"
        case tab
        case event
        case outcome
        case reason
        case invalid
        case seq
        case chainIDs = "chain.ids"
        case pathsIDs = "paths.ids"
        case tabsIDs = "tabs.ids"

        var type: ValueType {
            switch self {
            case .topID, .topStyle, .pathLastID, .tab, .event, .outcome, .reason: .string
            case .topDismissible, .invalid: .bool
            case .depth, .pathCount, .seq: .int
            case .pathIDs, .chainIDs, .pathsIDs, .tabsIDs: .list
            }
        }

        var help: String {
            switch self {
            case .topID: "id of the top-most presentation"
            case .topStyle: "its style (sheet, alert, …)"
            case .topDismissible: "whether the user can dismiss it"
            case .depth: "presentations in the selected chain"
            case .pathCount: "routes on the active frame's path"
            case .pathLastID: "id of the last route on that path"
            case .pathIDs: "the ids on that path (use contains)"
            case .tab: "the selected tab's id"
            case .event: "the event's kind (push, show, dismiss, …)"
            case .outcome: "applied or rejected"
            case .reason: "the rejection reason (stale, …)"
            case .invalid: "the state breaks an invariant"
            case .seq: "the seq being judged"
            case .chainIDs: "the ids of every presentation in the selected chain"
            case .pathsIDs: "the ids of every route on every stack"
            case .tabsIDs: "the ids of every tab"
            }
        }
    }

    enum ValueType: String {
        case string, int, bool, list
        var name: String {
            switch self {
            case .string: "a string"
            case .int: "an integer"
            case .bool: "a boolean"
            case .list: "a list of strings"
            }
        }
    }

    enum Value: Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case list([String])
        case absent

        var isTrue: Bool { self == .bool(true) }
    }

    enum CompareOp: String {
        case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=", contains
    }

    indirect enum Node {
        case field(Field)
        case literal(Value)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Node, CompareOp, Node)
        /// `count(collection, condition)`: see CollectionPredicates.swift.
        case count(Collection, Node)
        case elementField(ElementField)

        var fields: [Field] {
            switch self {
            case .field(let f): [f]
            case .literal, .elementField: []
            case .count(_, let n): n.fields
            case .not(let n): n.fields
            case .and(let a, let b), .or(let a, let b), .compare(let a, _, let b): a.fields + b.fields
            }
        }

        func evaluate(_ c: PredicateContext) -> Value {
            switch self {
            case .field(let f): return c.memo.value(of: f, in: c)
            case .literal(let v): return v
            case .elementField(let f): return c.element?.value(of: f) ?? .absent
            case .count(let collection, let condition): return Predicate.count(collection, condition, in: c)
            case .not(let n): return .bool(!n.evaluate(c).isTrue)
            case .and(let a, let b): return .bool(a.evaluate(c).isTrue && b.evaluate(c).isTrue)
            case .or(let a, let b): return .bool(a.evaluate(c).isTrue || b.evaluate(c).isTrue)
            case .compare(let a, let op, let b):
                let x = a.evaluate(c), y = b.evaluate(c)
                if x == .absent || y == .absent { return .bool(op == .ne && x != y) }
                switch op {
                case .eq: return .bool(x == y)
                case .ne: return .bool(x != y)
                case .contains:
                    switch (x, y) {
                    case (.list, .string(let s)):
                        // A set of the list, made once a seq, so a chain of `contains` stays linear.
                        if case .field(let f) = a { return .bool(c.memo.set(of: f, x).contains(s)) }
                        guard case .list(let l) = x else { return .bool(false) }
                        return .bool(l.contains(s))
                    case (.string(let l), .string(let s)): return .bool(Substring.find(s, in: l))
                    default: return .bool(false)
                    }
                case .lt, .le, .gt, .ge:
                    guard case .int(let i) = x, case .int(let j) = y else { return .bool(false) }
                    switch op {
                    case .lt: return .bool(i < j)
                    case .le: return .bool(i <= j)
                    case .gt: return .bool(i > j)
                    default: return .bool(i >= j)
                    }
                }
            }
        }
    }

    /// The language reference shown in `--help`.
    static var helpText: String {
        let width = Field.allCases.map(\.rawValue.count).max()!
        let fields = Field.allCases.map { f in
            "  \(f.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \(f.type.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(f.help)"
        }.joined(separator: "\n")
        return """
        PREDICATES
        A predicate judges the state after an event, with that event and its outcome.
        Fields:
        \(fields)
        Operators: == != < <= > >= (integers), contains (list, or substring by UTF-8 bytes), \
        && || ! and parentheses. Literals: "strings", integers, true, false. \
        A field with no value (top.id with nothing presented) is absent: every \
        comparison with it is false except !=.
        Example: top.id == "upsell" && outcome == "rejected"

        \(collectionHelpText)
        """
    }
}

/// What a predicate is evaluated against.
struct PredicateContext {
    var seq: UInt64
    var state: NavigationState
    /// The event at `seq` and its outcome (`nil` at seq 0).
    var event: Event?
    var outcome: Outcome?
    /// The fields' values at this seq, each computed once however often the predicate names it.
    let memo = Memo()

    final class Memo {
        private var values: [Predicate.Field: Predicate.Value] = [:]
        private var sets: [Predicate.Field: Set<String>] = [:]

        func value(of field: Predicate.Field, in c: PredicateContext) -> Predicate.Value {
            if let v = values[field] { return v }
            let v = c.value(of: field)
            values[field] = v
            return v
        }

        func set(of field: Predicate.Field, _ value: Predicate.Value) -> Set<String> {
            if let s = sets[field] { return s }
            guard case .list(let l) = value else { return [] }
            let s = Set(l)
            sets[field] = s
            return s
        }
    }
    /// The element a `count(…)` condition is reading.
    var element: PredicateElement? = nil

    func value(of field: Predicate.Field) -> Predicate.Value {
        switch field {
        case .topID: return state.topPresentation.map { .string($0.route.id) } ?? .absent
        case .topStyle: return state.topPresentation.map { .string($0.style.rawValue) } ?? .absent
        case .topDismissible: return state.topPresentation.map { .bool($0.dismissible) } ?? .absent
        case .depth: return .int(state.presentationChain.count)
        case .pathCount: return .int(state.activeFrame.path.count)
        case .pathLastID: return state.activeFrame.path.last.map { .string($0.id) } ?? .absent
        case .pathIDs: return .list(state.activeFrame.path.map(\.id))
        case .tab: return state.selectedTab.map { .string($0) } ?? .absent
        case .event: return event.map { .string($0.kind.rawValue) } ?? .absent
        case .outcome: return outcome.map { .string($0.isApplied ? "applied" : "rejected") } ?? .absent
        case .reason: return outcome?.reason.map { .string($0.rawValue) } ?? .absent
        case .invalid: return .bool(!state.validate().isEmpty)
        case .seq: return .int(Int(clamping: seq))
        case .chainIDs, .pathsIDs, .tabsIDs: return Predicate.collectionList(field, state) ?? .absent
        }
    }
}

/// A predicate that does not parse or type-check, with the 1-based column where it went wrong.
struct PredicateError: Error, Equatable, CustomStringConvertible {
    var column: Int
    var message: String
    var description: String { "predicate: column \(column): \(message)" }
}

// MARK: - Lexer

struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case string(String)
        case integer(Int)
        case bool(Bool)
        case op(String)
        case lparen, rparen
        case end
    }

    var kind: Kind
    /// 1-based column of the first character.
    var column: Int
    /// The token as written.
    var text: String
}

enum PredicateLexer {
    static func tokenize(_ source: String) throws(PredicateError) -> [PredicateToken] {
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

// MARK: - Parser

struct PredicateParser {
    typealias Node = Predicate.Node
    typealias ValueType = Predicate.ValueType

    let tokens: [PredicateToken]
    let length: Int
    var index = 0
    /// Nesting of parentheses and `!`, bounded so a pathological predicate cannot overflow the stack.
    var depth = 0
    static let maxDepth = 200
    /// Inside `count(COLLECTION, …)`: the collection whose element fields identifiers may name.
    var collection: Predicate.Collection?

    init(tokens: [PredicateToken], length: Int) {
        self.tokens = tokens
        self.length = length
    }

    var current: PredicateToken { tokens[index] }

    mutating func advance() -> PredicateToken {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    func describe(_ t: PredicateToken) -> String { t.kind == .end ? "the end" : "'\(printable(t.text))'" }

    mutating func parseAll() throws(PredicateError) -> Node {
        if current.kind == .end { throw PredicateError(column: 1, message: "expected an expression (the predicate is empty)") }
        let (node, type, column) = try parseOr()
        if current.kind != .end {
            if case .rparen = current.kind {
                throw PredicateError(column: current.column, message: "unmatched ')'")
            }
            throw PredicateError(column: current.column, message: "expected '&&', '||' or the end, found \(describe(current))")
        }
        try requireBool(type, column: column, what: "the predicate")
        return node
    }

    func requireBool(_ type: ValueType, column: Int, what: String) throws(PredicateError) {
        guard type == .bool else {
            throw PredicateError(column: column, message: "\(what) must be true or false, but this is \(type.name) (compare it with ==, <, contains…)")
        }
    }

    mutating func parseOr(after op: PredicateToken? = nil) throws(PredicateError) -> (Node, ValueType, Int) {
        try parseChain("||", after: op, operand: { p, op throws(PredicateError) in try p.parseAnd(after: op) }, combine: Node.or)
    }

    mutating func parseAnd(after op: PredicateToken? = nil) throws(PredicateError) -> (Node, ValueType, Int) {
        try parseChain("&&", after: op, operand: { p, op throws(PredicateError) in try p.parseUnary(after: op) }, combine: Node.and)
    }

    /// `operand (symbol operand)*` with boolean operands on both sides, folded from the left with `combine`.
    mutating func parseChain(
        _ symbol: String, after op: PredicateToken?,
        operand: (inout Self, PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int),
        combine: (Node, Node) -> Node
    ) throws(PredicateError) -> (Node, ValueType, Int) {
        var (left, type, column) = try operand(&self, op)
        while current.kind == .op(symbol) {
            let op = advance()
            try requireBool(type, column: column, what: "the left side of '\(symbol)'")
            let (right, rtype, rcol) = try operand(&self, op)
            try requireBool(rtype, column: rcol, what: "the right side of '\(symbol)'")
            left = combine(left, right)
            type = .bool
        }
        return (left, type, column)
    }

    mutating func parseUnary(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth {
            throw PredicateError(column: current.column, message: "the predicate nests deeper than \(Self.maxDepth) levels")
        }
        if current.kind == .op("!") {
            let bang = advance()
            let (inner, type, column) = try parseUnary(after: bang)
            try requireBool(type, column: column, what: "the operand of '!'")
            return (.not(inner), .bool, bang.column)
        }
        return try parsePrimary(after: op)
    }

    mutating func parsePrimary(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
        if current.kind == .lparen {
            let open = advance()
            if current.kind == .rparen { throw PredicateError(column: current.column, message: "expected an expression inside '(' … ')'") }
            let (inner, type, _) = try parseOr()
            guard current.kind == .rparen else {
                throw PredicateError(column: current.column, message: "expected ')' to close '(' at column \(open.column), found \(describe(current))")
            }
            _ = advance()
            return (inner, type, open.column)
        }
        let (left, ltype, lcol) = try parseOperand(after: op)
        guard case .op(let text) = current.kind, let cmp = Predicate.CompareOp(rawValue: text) else { return (left, ltype, lcol) }
        let opToken = advance()
        let (right, rtype, rcol) = try parseOperand(after: opToken)
        try check(cmp, ltype, rtype, leftColumn: lcol, rightColumn: rcol, left: left, right: right)
        if case .op(let next) = current.kind, Predicate.CompareOp(rawValue: next) != nil {
            throw PredicateError(column: current.column, message: "comparisons do not chain; join them with '&&'")
        }
        return (.compare(left, cmp, right), .bool, lcol)
    }

    func name(_ node: Node) -> String {
        switch node {
        case .field(let f): f.rawValue
        case .literal(.string(let s)): JSONValue.string(s).canonicalText
        case .literal(.int(let i)): String(i)
        case .literal(.bool(let b)): String(b)
        default: "the expression"
        }
    }

    func check(_ op: Predicate.CompareOp, _ l: ValueType, _ r: ValueType, leftColumn: Int, rightColumn: Int, left: Node, right: Node) throws(PredicateError) {
        switch op {
        case .eq, .ne:
            guard l == r else {
                throw PredicateError(column: rightColumn, message: "cannot compare \(name(left)) (\(l.name)) with \(name(right)) (\(r.name))")
            }
            if l == .list { throw PredicateError(column: leftColumn, message: "\(name(left)) is a list: use contains") }
        case .lt, .le, .gt, .ge:
            guard l == .int else { throw PredicateError(column: leftColumn, message: "'\(op.rawValue)' compares integers, but \(name(left)) is \(l.name)") }
            guard r == .int else { throw PredicateError(column: rightColumn, message: "'\(op.rawValue)' compares integers, but \(name(right)) is \(r.name)") }
        case .contains:
            guard l == .list || l == .string else {
                throw PredicateError(column: leftColumn, message: "contains needs a list or a string on its left, but \(name(left)) is \(l.name)")
            }
            guard r == .string else { throw PredicateError(column: rightColumn, message: "contains needs a string on its right, but \(name(right)) is \(r.name)") }
        }
    }

    mutating func parseOperand(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
        let t = current
        switch t.kind {
        case .identifier(let word):
            _ = advance()
            if word == "count", current.kind == .lparen { return try parseCount(at: t.column) }
            if let c = collection, Predicate.ElementField(rawValue: word).map(c.fields.contains) ?? false || Predicate.Field(rawValue: word) == nil {
                return try elementField(word, column: t.column, in: c)
            }
            guard let field = Predicate.Field(rawValue: word) else {
                let names = Predicate.Field.allCases.map(\.rawValue).joined(separator: ", ")
                throw PredicateError(column: t.column, message: "unknown field '\(word)' (fields: \(names))")
            }
            return (.field(field), field.type, t.column)
        case .string(let s):
            _ = advance()
            return (.literal(.string(s)), .string, t.column)
        case .integer(let n):
            _ = advance()
            return (.literal(.int(n)), .int, t.column)
        case .bool(let b):
            _ = advance()
            return (.literal(.bool(b)), .bool, t.column)
        default:
            if let op {
                throw PredicateError(column: t.column, message: "expected a value after '\(op.text)', found \(describe(t))")
            }
            throw PredicateError(column: t.column, message: "expected a field or a value, found \(describe(t))")
        }
    }
}

extension Substring {
    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s, in time linear in their lengths
    /// (Knuth-Morris-Pratt: a naive search costs needle × haystack on near-misses).
    static func find(_ needle: String, in haystack: String) -> Bool {
        if needle.isEmpty { return true }
        var n = needle, h = haystack
        return h.withUTF8 { hb in
            n.withUTF8 { nb in
                let m = nb.count
                guard m <= hb.count else { return false }
                // failure[i]: the length of the longest proper border of nb[0...i].
                var failure = [Int](repeating: 0, count: m)
                var k = 0
                for i in 1..<Swift.max(m, 1) {
                    while k > 0 && nb[i] != nb[k] { k = failure[k - 1] }
                    if nb[i] == nb[k] { k += 1 }
                    failure[i] = k
                }
                k = 0
                for b in hb {
                    while k > 0 && b != nb[k] { k = failure[k - 1] }
                    if b == nb[k] {
                        k += 1
                        if k == m { return true }
                    }
                }
                return false
            }
        }
    }
}
