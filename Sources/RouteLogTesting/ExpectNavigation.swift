import CustomDump
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import Testing

/// Runs `calls` on `navigator` and checks, exhaustively, how the state changed.
///
/// In the style of an exhaustive test store: `changes` receives the state as it was before the
/// calls and mutates it into what you expect after them. Any difference is reported at the
/// caller's source location as a diff (`-` expected, `+` actual). Unless `outcomes` lists them,
/// every call must be applied: a rejected call is reported too.
///
/// ```swift
/// expectNavigation(navigator) {
///     $0.push(.episode(id: 1))
///     $0.show(.player(episode: 1))
/// } changes: {
///     $0.root.path = [.episode(id: 1)]
///     $0.root.presented = Presented(token: 2, route: .player(episode: 1), style: .sheet)
/// }
/// ```
///
/// - Parameters:
///   - navigator: the navigator under test (usually on an `InMemoryEventLog`).
///   - outcomes: the outcomes the calls must have, in order; `nil` means "all applied".
///   - sourceLocation: where failures are reported.
///   - calls: the calls to make.
///   - changes: turns the state before the calls into the expected state after them.
@MainActor
public func expectNavigation<Route: Routable>(
    _ navigator: Navigator<Route>,
    outcomes: [Outcome]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ calls: (Navigator<Route>) throws -> Void,
    changes: (inout NavigationSnapshot<Route>) throws -> Void
) rethrows {
    let problems = try navigationProblems(navigator, outcomes: outcomes, calls, changes: changes)
    for p in problems { Issue.record(Comment(rawValue: p), sourceLocation: sourceLocation) }
}

/// ``expectNavigation(_:outcomes:sourceLocation:_:changes:)`` for calls that must leave the
/// state unchanged.
@MainActor
public func expectNavigation<Route: Routable>(
    _ navigator: Navigator<Route>,
    outcomes: [Outcome]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ calls: (Navigator<Route>) throws -> Void
) rethrows {
    try expectNavigation(navigator, outcomes: outcomes, sourceLocation: sourceLocation, calls, changes: { _ in })
}

/// The checks of ``expectNavigation(_:outcomes:sourceLocation:_:changes:)`` without reporting:
/// one message per problem, empty when everything matched. Use it from XCTest with
/// `XCTAssertEqual(problems, [])`.
@MainActor
public func navigationProblems<Route: Routable>(
    _ navigator: Navigator<Route>,
    outcomes expected: [Outcome]? = nil,
    _ calls: (Navigator<Route>) throws -> Void,
    changes: (inout NavigationSnapshot<Route>) throws -> Void
) rethrows -> [String] {
    var problems: [String] = []
    let seqBefore = navigator.headSeq
    var expectedState: NavigationSnapshot<Route>
    do { expectedState = try navigator.snapshot() } catch {
        return ["the state before the calls does not decode: \(error)"]
    }
    try calls(navigator)
    try changes(&expectedState)
    let actualOutcomes = navigator.outcomes(after: seqBefore)
    if let expected {
        if let d = diff(expected.map(\.description), actualOutcomes.map(\.description)) {
            problems.append("Outcomes differ: (-expected, +actual)\n\n\(d)")
        }
    } else {
        for (i, o) in actualOutcomes.enumerated() where !o.isApplied {
            problems.append("Event #\(seqBefore + UInt64(i) + 1) was \(o); pass `outcomes:` to expect a rejection")
        }
    }
    let actual: NavigationSnapshot<Route>
    do { actual = try navigator.snapshot() } catch {
        problems.append("the state after the calls does not decode: \(error)")
        return problems
    }
    if let d = diff(expectedState, actual) {
        problems.append("Navigation state differs: (-expected, +actual)\n\n\(d)")
    }
    return problems
}

/// ``navigationProblems(_:outcomes:_:changes:)`` for calls that must leave the state unchanged.
@MainActor
public func navigationProblems<Route: Routable>(
    _ navigator: Navigator<Route>,
    outcomes expected: [Outcome]? = nil,
    _ calls: (Navigator<Route>) throws -> Void
) rethrows -> [String] {
    try navigationProblems(navigator, outcomes: expected, calls, changes: { _ in })
}
