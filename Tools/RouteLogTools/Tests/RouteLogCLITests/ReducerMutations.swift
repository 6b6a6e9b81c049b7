@_spi(Tools) import RouteLogCore

/// Deliberately changed reducer rules, handed to `verify` in-process, so that the tests can prove
/// `routelog verify` catches a reducer change and names the right seq.
enum ReducerMutation: String, CaseIterable {
    /// A swipe on a `dismissible: false` presentation dismisses it instead of being rejected as `notDismissible`.
    case interactiveDismissIgnoresDismissible
    /// `pop(count:)` always pops one route.
    case popIgnoresCount

    /// Applies `event` with this rule changed.
    func apply(_ state: inout NavigationState, _ event: Event, _ seq: UInt64) -> Outcome {
        switch (self, event) {
        case (.interactiveDismissIgnoresDismissible, .interactiveDismiss):
            var copy = state
            let outcome = copy.apply(event, seq: seq)
            if outcome == .rejected(.notDismissible) { return state.apply(.dismiss(.top), seq: seq) }
            state = copy
            return outcome
        case (.popIgnoresCount, .pop(let count, let frame)) where count > 1:
            return state.apply(.pop(count: 1, frame: frame), seq: seq)
        default:
            return state.apply(event, seq: seq)
        }
    }
}
