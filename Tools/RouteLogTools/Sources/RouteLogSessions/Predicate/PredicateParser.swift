@_spi(Tools) import RouteLogCore

package struct PredicateParser {
    package typealias Node = Predicate.Node
    package typealias ValueType = Predicate.ValueType

    package let tokens: [PredicateToken]
    package let length: Int
    package var index = 0
    /// Nesting of parentheses and `!`, bounded so a pathological predicate cannot overflow the stack.
    package var depth = 0
    package static let maxDepth = 200
    /// Inside `count(COLLECTION, …)`: the collection whose element fields identifiers may name.
    package var collection: Predicate.Collection?

    package init(tokens: [PredicateToken], length: Int) {
        self.tokens = tokens
        self.length = length
    }

    package var current: PredicateToken { tokens[index] }

    package mutating func advance() -> PredicateToken {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    package func describe(_ t: PredicateToken) -> String { t.kind == .end ? "the end" : "'\(printable(t.text))'" }

    package mutating func parseAll() throws(PredicateError) -> Node {
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

    package func requireBool(_ type: ValueType, column: Int, what: String) throws(PredicateError) {
        guard type == .bool else {
            throw PredicateError(column: column, message: "\(what) must be true or false, but this is \(type.name) (compare it with ==, <, contains…)")
        }
    }

    package mutating func parseOr(after op: PredicateToken? = nil) throws(PredicateError) -> (Node, ValueType, Int) {
        try parseChain("||", after: op, operand: { p, op throws(PredicateError) in try p.parseAnd(after: op) }, combine: Node.or)
    }

    package mutating func parseAnd(after op: PredicateToken? = nil) throws(PredicateError) -> (Node, ValueType, Int) {
        try parseChain("&&", after: op, operand: { p, op throws(PredicateError) in try p.parseUnary(after: op) }, combine: Node.and)
    }

    /// `operand (symbol operand)*` with boolean operands on both sides, folded from the left with `combine`.
    package mutating func parseChain(
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

    package mutating func parseUnary(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
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

    package mutating func parsePrimary(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
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

    package func name(_ node: Node) -> String {
        switch node {
        case .field(let f): f.rawValue
        case .literal(.string(let s)): JSONValue.string(s).canonicalText
        case .literal(.int(let i)): String(i)
        case .literal(.bool(let b)): String(b)
        default: "the expression"
        }
    }

    package func check(_ op: Predicate.CompareOp, _ l: ValueType, _ r: ValueType, leftColumn: Int, rightColumn: Int, left: Node, right: Node) throws(PredicateError) {
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

    package mutating func parseOperand(after op: PredicateToken?) throws(PredicateError) -> (Node, ValueType, Int) {
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
