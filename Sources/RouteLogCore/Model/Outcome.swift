/// Why the reducer rejected an event. A rejected event leaves the state unchanged.
///
/// When several reasons apply, the reducer reports the first in this order: a malformed event
/// (``emptyRouteID``, ``invalidCount``, ``invalidTabs``, ``invalidState``); a target that cannot
/// be resolved (``unknownTab``, ``unknownFrame``, ``unknownToken``, ``stale``); ``blockedByAlert``;
/// then what does not apply to the state (``stackTooShort``, ``alreadyAtRoot``,
/// ``nothingToDismiss``, ``notInteractive``, ``notDismissible``).
public enum RejectionReason: String, Hashable, Sendable, CaseIterable, Codable {
    /// A route with an empty id.
    case emptyRouteID
    /// `pop` with a count below 1.
    case invalidCount
    /// `setTabs` with no ids, an empty id or a duplicate; `selectTab` of an empty id.
    case invalidTabs
    /// `reset` to a state that breaks an invariant (see `NavigationState.validate()`), or
    /// that holds a token larger than the reset's own seq.
    case invalidState
    /// `selectTab` or `setTabs(selected:)` naming a tab that does not exist.
    case unknownTab
    /// An event names a frame (a token) that is not presented, or is an alert or dialog.
    case unknownFrame
    /// `dismiss(token)` naming a presentation that is not in any chain.
    case unknownToken
    /// `interactiveDismiss` for a presentation that is not the top-most (already gone or replaced).
    case stale
    /// The target frame presents an alert or dialog, which blocks it.
    case blockedByAlert
    /// `pop(count)` with a count larger than the path.
    case stackTooShort
    /// `popToRoot` on an empty path.
    case alreadyAtRoot
    /// `dismiss` with nothing presented.
    case nothingToDismiss
    /// `interactiveDismiss` of a full-screen cover, which has no dismiss gesture.
    case notInteractive
    /// `interactiveDismiss` of a presentation shown with `dismissible: false`.
    case notDismissible
    /// A `show` that would nest presentations deeper than `NavigationState.maxChainDepth`.
    /// Checked after every other reason; an in-place update never adds depth.
    case chainTooDeep
}

/// The result of applying one event.
public enum Outcome: Hashable, Sendable, CustomStringConvertible {
    case applied(AppliedDetail = .changed)
    case rejected(RejectionReason)

    public enum AppliedDetail: String, Hashable, Sendable {
        /// The event changed the state as its rule says.
        case changed
        /// A `show` updated the presentation with the same id and style, keeping its token and content.
        case updatedInPlace
    }

    public var isApplied: Bool { if case .applied = self { true } else { false } }
    public var reason: RejectionReason? { if case .rejected(let r) = self { r } else { nil } }

    /// `applied`, `applied:updatedInPlace` or `rejected:<reason>`.
    public var description: String {
        switch self {
        case .applied(.changed): "applied"
        case .applied(let d): "applied:\(d.rawValue)"
        case .rejected(let r): "rejected:\(r.rawValue)"
        }
    }

    /// Parses the ``description`` form.
    public init?(_ text: String) {
        if text == "applied" { self = .applied(.changed); return }
        if text.hasPrefix("applied:"), let d = AppliedDetail(rawValue: String(text.dropFirst(8))) { self = .applied(d); return }
        if text.hasPrefix("rejected:"), let r = RejectionReason(rawValue: String(text.dropFirst(9))) { self = .rejected(r); return }
        return nil
    }
}

