import Foundation
import RouteLogCore

/// Test-only: a deliberately changed reducer rule, so that tests can prove `routelog verify`
/// catches a reducer change and names the right seq.
///
/// It is read from the environment variable `ROUTELOG_TEST_REDUCER_MUTATION` by `verify` only,
/// and only changes how `verify` replays; nothing is ever written with it. Never set it outside
/// tests. Values:
/// - `interactiveDismissIgnoresDismissible`: a swipe on a `dismissible: false` presentation
///   dismisses it instead of being rejected as `notDismissible`.
/// - `popIgnoresCount`: `pop(count:)` always pops one route.
enum ReducerMutation: String, CaseIterable {
    case interactiveDismissIgnoresDismissible
    case popIgnoresCount

    static let environmentKey = "ROUTELOG_TEST_REDUCER_MUTATION"

    /// The mutation named in the environment, if any. An unknown name is a usage error.
    static func fromEnvironment() throws(CLIError) -> ReducerMutation? {
        guard let name = ProcessInfo.processInfo.environment[environmentKey], !name.isEmpty else { return nil }
        guard let m = ReducerMutation(rawValue: name) else {
            throw .usage("\(environmentKey): unknown mutation '\(name)' (known: \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return m
    }

    /// Applies `event` with this rule changed.
    func apply(_ event: Event, to state: inout NavigationState, seq: UInt64) -> Outcome {
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

/// The reducer `verify` replays with: the real one, or the real one with a test-only mutation.
struct VerifyReplayer {
    var state = NavigationState()
    var seq: UInt64 = 0
    let mutation: ReducerMutation?

    mutating func apply(_ event: Event) -> Outcome {
        seq += 1
        if let mutation { return mutation.apply(event, to: &state, seq: seq) }
        return state.apply(event, seq: seq)
    }
}
