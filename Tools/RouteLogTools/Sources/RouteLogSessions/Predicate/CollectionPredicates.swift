@_spi(Tools) import RouteLogCore

/// Predicates over every element of a collection of the state, not only its top:
/// `count(chain, id == "checkout") >= 2`, `count(paths, id == "cart" && level > 0) == 0`,
/// `count(tabs, path.count > 3) >= 1`, and the lists `chain.ids`, `paths.ids`, `tabs.ids`.
extension Predicate {
    /// What `count(…)` ranges over.
    package enum Collection: String, CaseIterable {
        /// Every presentation of the selected tab's chain, bottom first.
        case chain
        /// Every route on every stack: each tab's root stack and every presentation's stack, in every tab.
        case paths
        /// Every tab (none without tabs).
        case tabs

        package var help: String {
            switch self {
            case .chain: "every presentation in the selected chain, bottom first"
            case .paths: "every route on every stack, in every tab and presentation"
            case .tabs: "every tab"
            }
        }

        /// The fields its elements have.
        package var fields: [ElementField] {
            switch self {
            case .chain: [.id, .style, .dismissible, .level, .token]
            case .paths: [.id, .tab, .level, .index]
            case .tabs: [.id, .selected, .pathCount, .depth]
            }
        }
    }

    /// A field of one element, inside `count(COLLECTION, …)`.
    package enum ElementField: String, CaseIterable {
        case id, style, dismissible, level, token, tab, index, selected
        case pathCount = "path.count"
        case depth

        package var type: ValueType {
            switch self {
            case .id, .style, .tab: .string
            case .dismissible, .selected: .bool
            case .level, .token, .index, .pathCount, .depth: .int
            }
        }

        package var help: String {
            switch self {
            case .id: "the route's (or tab's) id"
            case .style: "a presentation's style"
            case .dismissible: "whether the user can dismiss it"
            case .level: "chain: 1 for the bottom presentation; paths: presentations above the stack's root (0 = a root stack)"
            case .token: "a presentation's token"
            case .tab: "the tab the route is in (absent without tabs)"
            case .index: "the route's position on its stack (0 at the bottom)"
            case .selected: "whether the tab is selected"
            case .pathCount: "routes on the tab's root stack"
            case .depth: "presentations in the tab's chain"
            }
        }
    }

    /// The lists of every element's id, spelled `chain.ids`, `paths.ids` and `tabs.ids`.
    package static func collectionList(_ field: Field, _ state: NavigationState) -> Value? {
        let collection: Collection
        switch field {
        case .chainIDs: collection = .chain
        case .pathsIDs: collection = .paths
        case .tabsIDs: collection = .tabs
        default: return nil
        }
        var ids: [String] = []
        forEachElement(of: collection, in: state) { ids.append($0.id) }
        return .list(ids)
    }

    /// Calls `body` with each element of `collection` in `state`.
    package static func forEachElement(of collection: Collection, in state: NavigationState, _ body: (PredicateElement) -> Void) {
        switch collection {
        case .chain:
            for (i, p) in state.presentationChain.enumerated() {
                body(PredicateElement(id: p.route.id, style: p.style.rawValue, dismissible: p.dismissible, level: i + 1, token: Int(clamping: p.token)))
            }
        case .paths:
            let roots = state.tabs ?? [Tab(id: "", root: state.root)]
            for t in roots {
                let tab: String? = state.hasTabs ? t.id : nil
                var frame: Frame? = t.root
                var level = 0
                while let f = frame {
                    for (i, r) in f.path.enumerated() { body(PredicateElement(id: r.id, level: level, tab: tab, index: i)) }
                    frame = f.presented?.content
                    level += 1
                }
            }
        case .tabs:
            for t in state.tabs ?? [] {
                var depth = 0
                var frame = t.root
                while let p = frame.presented {
                    depth += 1
                    guard let c = p.content else { break }
                    frame = c
                }
                body(PredicateElement(id: t.id, selected: t.id == state.selectedTab, pathCount: t.root.path.count, depth: depth))
            }
        }
    }

    /// `count(COLLECTION, CONDITION)` evaluated: how many elements the condition holds for.
    package static func count(_ collection: Collection, _ condition: Node, in context: PredicateContext) -> Value {
        var n = 0
        var inner = context
        forEachElement(of: collection, in: context.state) { element in
            inner.element = element
            if condition.evaluate(inner).isTrue { n += 1 }
        }
        return .int(n)
    }

    package static var collectionHelpText: String {
        let collections = Collection.allCases.map { c in
            "  \(c.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(c.help); fields: \(c.fields.map(\.rawValue).joined(separator: ", "))"
        }.joined(separator: "\n")
        let width = ElementField.allCases.map(\.rawValue.count).max()!
        let fields = ElementField.allCases.map { f in
            "  \(f.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \(f.type.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(f.help)"
        }.joined(separator: "\n")
        return """
        WHOLE STATE
        count(COLLECTION, CONDITION) is the number of elements of COLLECTION for which CONDITION \
        holds (an integer); CONDITION reads the element's fields. Collections:
        \(collections)
        Element fields:
        \(fields)
        Examples: count(chain, id == "checkout") >= 2   (the checkout cover presented twice)
                  chain.ids contains "checkout"   count(paths, id == "cart" && level > 0) == 0
        """
    }
}

/// One element of a collection, as `count(…)` conditions read it; a field it lacks is absent.
package struct PredicateElement {
    package var id: String
    package var style: String?
    package var dismissible: Bool?
    package var level: Int?
    package var token: Int?
    package var tab: String?
    package var index: Int?
    package var selected: Bool?
    package var pathCount: Int?
    package var depth: Int?

    package init(id: String, style: String? = nil, dismissible: Bool? = nil, level: Int? = nil, token: Int? = nil, tab: String? = nil,
         index: Int? = nil, selected: Bool? = nil, pathCount: Int? = nil, depth: Int? = nil) {
        self.id = id
        self.style = style
        self.dismissible = dismissible
        self.level = level
        self.token = token
        self.tab = tab
        self.index = index
        self.selected = selected
        self.pathCount = pathCount
        self.depth = depth
    }

    package func value(of field: Predicate.ElementField) -> Predicate.Value {
        func v(_ s: String?) -> Predicate.Value { s.map { .string($0) } ?? .absent }
        func v(_ i: Int?) -> Predicate.Value { i.map { .int($0) } ?? .absent }
        func v(_ b: Bool?) -> Predicate.Value { b.map { .bool($0) } ?? .absent }
        switch field {
        case .id: return .string(id)
        case .style: return v(style)
        case .dismissible: return v(dismissible)
        case .level: return v(level)
        case .token: return v(token)
        case .tab: return v(tab)
        case .index: return v(index)
        case .selected: return v(selected)
        case .pathCount: return v(pathCount)
        case .depth: return v(depth)
        }
    }
}

extension PredicateParser {
    /// Parses `count(COLLECTION, CONDITION)` after its `count` (the current token is `(`).
    package mutating func parseCount(at column: Int) throws(PredicateError) -> (Node, ValueType, Int) {
        guard collection == nil else {
            throw PredicateError(column: column, message: "count(…) cannot be nested inside another count(…)")
        }
        let open = advance()
        let t = current
        let names = Predicate.Collection.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .identifier(let word) = t.kind, let c = Predicate.Collection(rawValue: word) else {
            throw PredicateError(column: t.column, message: "count( needs a collection (\(names)), found \(describe(t))")
        }
        _ = advance()
        guard current.kind == .op(",") else {
            throw PredicateError(column: current.column, message: "expected ',' and a condition after count(\(word), found \(describe(current))")
        }
        let comma = advance()
        collection = c
        defer { collection = nil }
        let (condition, type, ccol) = try parseOr(after: comma)
        try requireBool(type, column: ccol, what: "the condition of count(…)")
        guard current.kind == .rparen else {
            throw PredicateError(column: current.column, message: "expected ')' to close 'count(' at column \(open.column), found \(describe(current))")
        }
        _ = advance()
        return (.count(c, condition), .int, column)
    }

    /// An identifier inside `count(COLLECTION, …)`: one of the element's fields.
    package func elementField(_ word: String, column: Int, in c: Predicate.Collection) throws(PredicateError) -> (Node, ValueType, Int) {
        guard let f = Predicate.ElementField(rawValue: word), c.fields.contains(f) else {
            throw PredicateError(column: column, message: "unknown field '\(word)' of \(c.rawValue) (fields: \(c.fields.map(\.rawValue).joined(separator: ", ")))")
        }
        return (.elementField(f), f.type, column)
    }
}
