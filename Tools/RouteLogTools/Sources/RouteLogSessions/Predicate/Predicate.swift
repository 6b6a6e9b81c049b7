import Foundation
@_spi(Tools) import RouteLogCore

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
package struct Predicate: CustomStringConvertible {
    package let source: String
    package let root: Node

    /// Parses and type-checks `source`.
    /// The longest predicate accepted, in characters; longer is an error at the first character past it.
    package static let maxLength = 4_096

    package init(_ source: String) throws(PredicateError) {
        if source.count > Self.maxLength {
            throw PredicateError(column: Self.maxLength + 1, message: "the predicate is longer than \(Self.maxLength) characters")
        }
        self.source = source
        var parser = PredicateParser(tokens: try PredicateLexer.tokenize(source), length: source.count)
        root = try parser.parseAll()
    }

    package var description: String { source }

    /// Evaluates the predicate.
    package func holds(in context: PredicateContext) -> Bool { root.evaluate(context).isTrue }

    /// Whether the predicate reads the event or the outcome (and not only the state).
    package var readsEvent: Bool { root.fields.contains { $0 == .event || $0 == .outcome || $0 == .reason } }

    // MARK: - Fields

    /// A field of the language, with its type and documentation.
    package enum Field: String, CaseIterable {
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

        package var type: ValueType {
            switch self {
            case .topID, .topStyle, .pathLastID, .tab, .event, .outcome, .reason: .string
            case .topDismissible, .invalid: .bool
            case .depth, .pathCount, .seq: .int
            case .pathIDs, .chainIDs, .pathsIDs, .tabsIDs: .list
            }
        }

        package var help: String {
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

    package enum ValueType: String {
        case string, int, bool, list
        package var name: String {
            switch self {
            case .string: "a string"
            case .int: "an integer"
            case .bool: "a boolean"
            case .list: "a list of strings"
            }
        }
    }

    package enum Value: Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case list([String])
        case absent

        package var isTrue: Bool { self == .bool(true) }
    }

    package enum CompareOp: String {
        case eq = "==", ne = "!=", lt = "<", le = "<=", gt = ">", ge = ">=", contains
    }

    package indirect enum Node {
        case field(Field)
        case literal(Value)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Node, CompareOp, Node)
        /// `count(collection, condition)`: see CollectionPredicates.swift.
        case count(Collection, Node)
        case elementField(ElementField)

        package var fields: [Field] {
            switch self {
            case .field(let f): [f]
            case .literal, .elementField: []
            case .count(_, let n): n.fields
            case .not(let n): n.fields
            case .and(let a, let b), .or(let a, let b), .compare(let a, _, let b): a.fields + b.fields
            }
        }

        package func evaluate(_ c: PredicateContext) -> Value {
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
    package static var helpText: String {
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
