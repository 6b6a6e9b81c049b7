@_spi(Tools) import RouteLogCore

/// A route a restore re-recorded in its new form.
public struct MigratedRoute: Hashable, Sendable {
    /// The route as recorded.
    public var from: RouteRef
    /// The route the migration gave, as the restored state stores it.
    public var to: RouteRef

    /// A migrated route.
    @_spi(Tools) public init(from: RouteRef, to: RouteRef) {
        self.from = from
        self.to = to
    }
}

/// A route that a restore left out of the restored state, and why.
public struct DroppedRoute: Hashable, Sendable, CustomStringConvertible {
    /// Why a route was dropped.
    public enum Reason: Hashable, Sendable {
        /// Neither today's type nor a migration reads it; `message` is what the decoder or the
        /// migration said.
        case undecodable(message: String)
        /// A migration returned `nil`: the screen no longer exists.
        case removedByMigration
        /// It went with the route `routeID` below it: a stack is cut at its first route that
        /// cannot be restored, and a presentation goes with everything above it.
        case above(routeID: String)
    }

    /// The route as recorded.
    public var route: RouteRef
    /// The seq of the last applied event that recorded the route (a push, a show or a reset),
    /// when it is known.
    public var seq: UInt64?
    /// Why it was dropped.
    public var reason: Reason

    /// A dropped route.
    @_spi(Tools) public init(route: RouteRef, seq: UInt64? = nil, reason: Reason) {
        self.route = route
        self.seq = seq
        self.reason = reason
    }

    /// Whether the route itself could not be restored (as opposed to going with one below it).
    public var isCause: Bool {
        if case .above = reason { return false }
        return true
    }

    /// `seq 4: route "episode-42" (stored as AppRoute) no longer decodes: missing key "guid" at .episode`.
    public var description: String {
        let at = seq.map { "seq \($0): " } ?? ""
        let type = route.type.map { " (stored as \($0))" } ?? ""
        switch reason {
        case .undecodable(let message): return "\(at)route \"\(route.id)\"\(type) no longer decodes: \(message)"
        case .removedByMigration: return "\(at)route \"\(route.id)\"\(type) was removed by a migration"
        case .above(let below): return "\(at)route \"\(route.id)\"\(type) went with \"\(below)\" below it"
        }
    }
}

/// A state whose routes went through the migrations: what was kept, migrated and dropped.
public struct RouteRestoration: Hashable, Sendable {
    /// The restored state: every route that could be restored, in today's form.
    public var state: NavigationState
    /// The routes re-recorded in a new form, in the order of the state (tabs in order; in each
    /// frame the stack bottom first, then the presentation).
    public var migrated: [MigratedRoute]
    /// The routes left out, in the same order.
    public var dropped: [DroppedRoute]

    /// Whether every route came back.
    public var isComplete: Bool { dropped.isEmpty }

    /// Why a navigator would not resume at ``state``: the invariants of today's rules it breaks
    /// (say, a smaller chain limit), joined by `, `; `nil` when it is valid. Dropping routes cannot
    /// break an invariant of a state the reducer built, so this is `nil` unless the rules changed.
    /// A navigator given an invalid restored state starts empty instead.
    public var invalidity: String? {
        let violations = state.validate()
        return violations.isEmpty ? nil : violations.map(\.description).joined(separator: ", ")
    }

    /// Names the seq that recorded each dropped route: the last applied event among `events`
    /// (in seq order) that carries it.
    @_spi(Tools) public mutating func nameSeqs(from events: some Sequence<StoredEvent>) {
        var finder = RecordingSeqFinder(routes: dropped.map(\.route))
        for e in events { finder.see(e) }
        finder.name(&dropped)
    }
}

/// Finds the last applied event that carries each of a few routes, in one pass.
struct RecordingSeqFinder {
    private var wanted: Set<RouteRef>
    private var found: [RouteRef: UInt64] = [:]

    init(routes: [RouteRef]) { wanted = Set(routes) }

    var isEmpty: Bool { wanted.isEmpty }

    mutating func see(_ e: StoredEvent) {
        guard !wanted.isEmpty, e.outcome.isApplied else { return }
        e.event.forEachRecordedRoute { r in if wanted.contains(r) { found[r] = e.seq } }
    }

    func name(_ dropped: inout [DroppedRoute]) {
        for i in dropped.indices { dropped[i].seq = found[dropped[i].route] ?? dropped[i].seq }
    }
}
