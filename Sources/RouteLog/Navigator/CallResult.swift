@_spi(Tools) import RouteLogCore

/// What a navigator call did.
public enum CallResult: Hashable, Sendable, CustomStringConvertible {
    /// The call was recorded as event `seq`; the reducer applied or rejected it.
    case recorded(seq: UInt64, outcome: Outcome)
    /// The call was not recorded at all: the log and the state are untouched.
    case refused(Refusal)

    /// The reducer's outcome, or `nil` when the call was refused.
    public var outcome: Outcome? { if case .recorded(_, let o) = self { o } else { nil } }
    /// The seq of the recorded event, or `nil` when the call was refused.
    public var seq: UInt64? { if case .recorded(let s, _) = self { s } else { nil } }
    /// Whether the reducer applied the event.
    public var isApplied: Bool { outcome?.isApplied ?? false }

    /// `#12 applied`, `#13 rejected:stale`, `refused: …`.
    /// One line for logs and the demo.
    public var description: String {
        switch self {
        case .recorded(let seq, let outcome): "#\(seq) \(outcome)"
        case .refused(let r): "refused: \(r)"
        }
    }
}

/// Why a navigator call was not recorded.
public enum Refusal: Hashable, Sendable, CustomStringConvertible {
    /// The navigator shows a past state (in-app time travel): ``Navigator/returnToPresent()`` first.
    case timeTravelling(at: UInt64)
    /// The route has no JSON form, so it cannot be logged.
    case unencodableRoute(RouteEncodingError)
    /// A `reset` state holds a route that does not decode as the navigator's route type.
    case undecodableRoute(RouteDecodingError)

    /// One line for logs and the demo.
    public var description: String {
        switch self {
        case .timeTravelling(let seq): "the navigator is showing seq \(seq) (time travel); returnToPresent() before navigating"
        case .unencodableRoute(let e): e.description
        case .undecodableRoute(let e): e.description
        }
    }
}
