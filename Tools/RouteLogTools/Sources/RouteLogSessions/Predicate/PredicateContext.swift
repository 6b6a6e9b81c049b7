@_spi(Tools) import RouteLogCore

/// What a predicate is evaluated against.
package struct PredicateContext {
    package var seq: UInt64
    package var state: NavigationState
    /// The event at `seq` and its outcome (`nil` at seq 0).
    package var event: Event?
    package var outcome: Outcome?
    /// The fields' values at this seq, each computed once however often the predicate names it.
    package let memo = Memo()

    package final class Memo {
        private var values: [Predicate.Field: Predicate.Value] = [:]
        private var sets: [Predicate.Field: Set<String>] = [:]

        package func value(of field: Predicate.Field, in c: PredicateContext) -> Predicate.Value {
            if let v = values[field] { return v }
            let v = c.value(of: field)
            values[field] = v
            return v
        }

        package func set(of field: Predicate.Field, _ value: Predicate.Value) -> Set<String> {
            if let s = sets[field] { return s }
            guard case .list(let l) = value else { return [] }
            let s = Set(l)
            sets[field] = s
            return s
        }
    }
    /// The element a `count(…)` condition is reading.
    package var element: PredicateElement? = nil

    package func value(of field: Predicate.Field) -> Predicate.Value {
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
