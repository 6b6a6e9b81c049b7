import Foundation

/// One way a replay differs from a fixture's expectations.
public enum FixtureMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The fixture expects a different number of outcomes than it has events.
    case outcomeCount(expected: Int, actual: Int)
    /// The outcome at `index` (0-based; its seq is `index + 1`) differs. `differing` counts every
    /// differing outcome; only the first is named.
    case outcome(index: Int, expected: Outcome, actual: Outcome, differing: Int)
    /// The final state differs.
    case state(expected: NavigationState, actual: NavigationState)
    /// The final state's digest differs.
    case digest(expected: Digest, actual: Digest)

    public var description: String {
        switch self {
        case .outcomeCount(let e, let a):
            "expected \(e) outcomes, the replay has \(a) (one per event)"
        case .outcome(let i, let e, let a, let n):
            "events[\(i)] (seq \(i + 1)): expected \(e), got \(a)" + (n > 1 ? " (\(n) outcomes differ; this is the first)" : "")
        case .state(let e, let a):
            "final state differs (expected → actual):\n"
                + StateDiff.between(e, a).changes.map { "    \($0)" }.joined(separator: "\n")
                + "\n  expected: \(e.canonicalJSON)\n  actual:   \(a.canonicalJSON)"
        case .digest(let e, let a):
            "digest differs: expected \(e.hex), got \(a.hex)"
        }
    }
}

/// The result of ``Fixture/check()``: the replay and every mismatch with the expectations.
public struct FixtureCheckResult: Hashable, Sendable, CustomStringConvertible {
    /// The fixture's name.
    public var name: String
    /// The replay of the fixture's events from the empty state.
    public var replay: ReplayResult
    /// The state the fixture's events replay to from the empty state (the state its `expect`
    /// block is checked against): for example `ScreenLayout(result.state)`, the screens it shows.
    public var state: NavigationState { replay.state }
    /// Whether the fixture has an `expect` block at all.
    public var hasExpectation: Bool
    /// Every difference, outcomes first, then state, then digest. Empty when the fixture passes.
    public var mismatches: [FixtureMismatch]

    /// No mismatch. A fixture without expectations passes trivially; see ``hasExpectation``.
    public var passed: Bool { mismatches.isEmpty }

    /// The index of the first event whose outcome differs, if one does.
    public var firstDifferingOutcome: Int? {
        for m in mismatches { if case .outcome(let i, _, _, _) = m { return i } }
        return nil
    }

    /// A one-line summary followed by one line per mismatch.
    public var description: String {
        if !hasExpectation { return "\(name): no expectations recorded (\(replay.steps.count) events replayed)" }
        if passed { return "\(name): ok (\(replay.steps.count) events, digest \(replay.state.digest.short))" }
        return "\(name): \(mismatches.count) mismatch\(mismatches.count == 1 ? "" : "es")\n"
            + mismatches.map { "  " + $0.description }.joined(separator: "\n")
    }
}

extension Fixture {
    /// Replays the events from the empty state with `replay(_:)` and compares the result with
    /// ``expect``: each outcome, the final state and the digest.
    public func check() -> FixtureCheckResult {
        let result = replay(events.map(\.event))
        var mismatches: [FixtureMismatch] = []
        if let expect {
            if let outcomes = expect.outcomes {
                let actual = result.steps.map(\.outcome)
                if outcomes.count != actual.count {
                    mismatches.append(.outcomeCount(expected: outcomes.count, actual: actual.count))
                }
                let differing = zip(outcomes, actual).enumerated().filter { $0.element.0 != $0.element.1 }
                if let first = differing.first {
                    mismatches.append(.outcome(index: first.offset, expected: first.element.0, actual: first.element.1, differing: differing.count))
                }
            }
            if let state = expect.state, state != result.state {
                mismatches.append(.state(expected: state, actual: result.state))
            }
            if let digest = expect.digest, digest != result.state.digest {
                mismatches.append(.digest(expected: digest, actual: result.state.digest))
            }
        }
        return FixtureCheckResult(name: name, replay: result, hasExpectation: expect != nil, mismatches: mismatches)
    }

    /// The same fixture with its `expect` block rewritten from a replay: every outcome, the final
    /// state and its digest.
    @_spi(Tools) public func recorded() -> Fixture {
        var copy = self
        copy.expect = Expectation(replay(events.map(\.event)))
        return copy
    }

    /// Whether record mode is on: the environment variable `ROUTELOG_RECORD` is `1` (or `true`/`yes`).
    ///
    /// In record mode, fixture tests rewrite each file with `recorded()` instead of failing.
    public static var isRecordModeEnabled: Bool {
        guard let value = ProcessInfo.processInfo.environment["ROUTELOG_RECORD"] else { return false }
        return ["1", "true", "yes"].contains(value.lowercased())
    }
}
