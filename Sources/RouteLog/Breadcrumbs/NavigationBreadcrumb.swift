@_spi(Tools) import RouteLogCore

/// What a crash reporter's navigation breadcrumb needs to know about one navigator call.
///
/// A navigator hands one to its observers (``Navigator/onNavigation(_:)``) after every call it
/// records, applied or rejected. ``from`` and ``to`` are the route ids of the top screen before
/// and after the call; ``session`` and ``run`` lead from a crash report to the whole session
/// (`routelog log SESSION` prints the run's line before its first event). Routes' payloads are
/// never part of it: only their ids.
///
/// ```
/// push episode-42: home → episode-42 (applied, #17, run 3)
/// ```
public struct NavigationBreadcrumb: Hashable, Sendable, CustomStringConvertible {
    /// The route id of the top screen before the call, `nil` for an empty root.
    ///
    /// The top screen is what the user sees: the top-most presentation (an alert or dialog
    /// itself; a sheet, cover or popover the top of its own stack, or the presentation when its
    /// stack is empty), or the top of the root stack (of the selected tab) when nothing is
    /// presented.
    public var from: String?
    /// The route id of the top screen after the call (``from`` when the call was rejected).
    public var to: String?
    /// The recorded event.
    public var event: Event
    /// Whether it applied, or why it was rejected.
    public var outcome: Outcome
    /// The event's seq in the session.
    public var seq: UInt64
    /// The number of this launch's run of the session in the store's journal, `nil` when the log
    /// keeps no journal (an `InMemoryEventLog`).
    public var run: Int?
    /// The session the event is recorded in.
    public var session: SessionID
    /// Who caused the call.
    public var origin: Origin
    /// Where the call was made, when known.
    public var callSite: CallSite?
    /// Milliseconds since 1970, as recorded in the event's metadata.
    public var timestamp: Int64
    /// The last divergence between the screen and the state the navigator found before this
    /// breadcrumb (see ``Navigator/screenAppeared(_:)``), `nil` when none was: a crash report whose
    /// breadcrumbs carry one shows that the screen and the state disagreed, and since when.
    public var lastDivergence: Divergence?

    @_spi(Tools) public init(from: String?, to: String?, event: Event, outcome: Outcome, seq: UInt64, run: Int?, session: SessionID,
                origin: Origin, callSite: CallSite?, timestamp: Int64, lastDivergence: Divergence? = nil) {
        self.from = from
        self.to = to
        self.event = event
        self.outcome = outcome
        self.seq = seq
        self.run = run
        self.session = session
        self.origin = origin
        self.callSite = callSite
        self.timestamp = timestamp
        self.lastDivergence = lastDivergence
    }

    /// The event's kind (`push`, `show`, `interactiveDismiss`…).
    public var kind: Event.Kind { event.kind }

    /// Whether the call changed the state.
    public var isApplied: Bool { outcome.isApplied }

    /// The event in a few words: its kind and what it names (`push episode-42`, `pop 2`,
    /// `show sheet player`, `dismiss #12`, `selectTab library`).
    public var action: String {
        switch event {
        case .push(let route, _): "push \(route.id)"
        case .pop(let count, _): "pop \(count)"
        case .popToRoot: "popToRoot"
        case .show(let route, let style, _, _): "show \(style.rawValue) \(route.id)"
        case .dismiss(.top): "dismiss"
        case .dismiss(.token(let token)): "dismiss #\(token)"
        case .dismiss(.all): "dismissAll"
        case .interactiveDismiss(let token): "interactiveDismiss" + (token.map { " #\($0)" } ?? "")
        case .setTabs(let ids, _): "setTabs \(ids.joined(separator: ","))"
        case .selectTab(let id): "selectTab \(id)"
        case .reset: "reset"
        }
    }

    /// One line: `push episode-42: home → episode-42 (applied, #17, run 3)`; an empty root reads
    /// `none`, and the run is left out without a journal.
    public var description: String {
        "\(action): \(from ?? "none") → \(to ?? "none") (\(outcome), #\(seq)" + (run.map { ", run \($0)" } ?? "") + ")"
    }

    /// The breadcrumb as string fields, for a crash reporter's breadcrumb data or metadata:
    /// `from`, `to` (absent when `nil`), `action`, `kind`, `outcome`, `seq`, `run` (absent without a
    /// journal), `session`, `origin`, `callSite` (`File.swift:12`) when known, and `divergence` (the
    /// ``lastDivergence``'s one line) when there was one.
    public var data: [String: String] {
        var d = ["action": action, "kind": kind.rawValue, "outcome": outcome.description, "seq": String(seq),
                 "session": session.description, "origin": origin.rawValue]
        if let from { d["from"] = from }
        if let to { d["to"] = to }
        if let run { d["run"] = String(run) }
        if let callSite { d["callSite"] = "\(callSite.file):\(callSite.line)" }
        if let lastDivergence { d["divergence"] = lastDivergence.description }
        return d
    }
}

extension NavigationState {
    /// The route id of the top screen, as ``NavigationBreadcrumb/from`` defines it: the top-most
    /// presentation's (an alert or dialog itself, another style the top of its own stack), else
    /// the top of the root stack; `nil` for an empty root. Walks the chain; copies nothing.
    var topScreenRouteID: String? {
        guard let top = topPresentation else { return root.path.last?.id }
        return top.content?.path.last?.id ?? top.route.id
    }
}
