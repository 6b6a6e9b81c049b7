import Foundation
import RouteLogCore

/// A route as a session recorded it, handed to ``Routable/migrate(_:)`` when a session is
/// restored: its id, type name and payload as recorded, and the app version that recorded the
/// session.
public struct RecordedRoute: Hashable, Sendable {
    /// The stored route: id, type name and canonical JSON payload, exactly as recorded.
    public var ref: RouteRef
    /// The version of the app that recorded the session (`SessionInfo.appVersion`), if it said.
    ///
    /// A session that an earlier restore continued holds routes that the restoring version
    /// re-recorded, so treat the version as a hint and recognise a route by its payload's shape
    /// (try today's type first).
    public var appVersion: String?

    /// A recorded route.
    public init(_ ref: RouteRef, appVersion: String? = nil) {
        self.ref = ref
        self.appVersion = appVersion
    }

    /// The route's id as recorded.
    public var id: String { ref.id }
    /// The type name recorded with the route (`String(describing: Route.self)`), if any.
    public var type: String? { ref.type }
    /// The payload as a JSON tree, if the route has one.
    public var payload: JSONValue? { ref.payload?.value }

    /// The case name of an enum route as Swift's synthesized `Codable` writes it: the single key
    /// of the payload object (`{"episode":{"id":42}}` is `"episode"`); `nil` for other payloads.
    public var caseName: String? {
        guard let object = payload?.objectValue, object.count == 1 else { return nil }
        return object.keys.first
    }

    /// Today's route, decoded from the payload as recorded; its id must be the recorded id.
    /// This is what the default ``Routable/migrate(_:)`` returns.
    ///
    /// - Throws: ``RouteDecodingError`` when the payload does not decode as `Route` or decodes to
    ///   a route with another id.
    public func route<Route: Routable>(as type: Route.Type) throws(RouteDecodingError) -> Route {
        try ref.decode(as: Route.self)
    }

    /// Decodes the payload as any `Decodable` type, for example the route enum of an earlier
    /// version that the app keeps for its migrations.
    ///
    /// - Throws: ``RouteDecodingError`` when the payload does not decode as `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws(RouteDecodingError) -> T {
        try ref.decodePayload(as: T.self)
    }
}

extension Routable {
    /// Decodes the route as recorded with today's type (no migration).
    public static func migrate(_ recorded: RecordedRoute) throws -> Self? {
        try recorded.route(as: Self.self)
    }
}

/// A route a restore re-recorded in its new form.
public struct MigratedRoute: Hashable, Sendable {
    /// The route as recorded.
    public var from: RouteRef
    /// The route the migration gave, as the restored state stores it.
    public var to: RouteRef

    /// A migrated route.
    public init(from: RouteRef, to: RouteRef) {
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
    public init(route: RouteRef, seq: UInt64? = nil, reason: Reason) {
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

    /// Names the seq that recorded each dropped route: the last applied event among `events`
    /// (in seq order) that carries it.
    public mutating func nameSeqs(from events: some Sequence<StoredEvent>) {
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
        switch e.event {
        case .push(let r, _), .show(let r, _, _, _):
            if wanted.contains(r) { found[r] = e.seq }
        case .reset(let s):
            s.forEachRecordedRoute { r in if wanted.contains(r) { found[r] = e.seq } }
        default:
            break
        }
    }

    func name(_ dropped: inout [DroppedRoute]) {
        for i in dropped.indices { dropped[i].seq = found[dropped[i].route] ?? dropped[i].seq }
    }
}

/// Runs the routes of a recorded state through the migrations and drops the least that must go.
///
/// A stack is cut at its first route that cannot be restored (SwiftUI cannot show a stack with
/// a hole); a presentation whose route cannot be restored goes with everything above it; a tab
/// always keeps its root frame. Presentation tokens are kept.
///
/// ```swift
/// let restorer = RouteRestorer<AppRoute>(appVersion: "3.1")
/// let restoration = restorer.restore(recordedState)
/// restoration.dropped   // what could not come back, and why
/// ```
public struct RouteRestorer<Route: Routable> {
    /// What one recorded route becomes.
    public enum Resolution: Hashable, Sendable {
        /// Restored as recorded (today's route has the recorded id and payload).
        case kept
        /// Restored in a new form.
        case migrated(RouteRef)
        /// A migration said the screen no longer exists.
        case removed
        /// Neither today's type nor a migration reads it.
        case undecodable(message: String)
    }

    /// The app version that recorded the session, passed to the migration.
    public var appVersion: String?
    /// The migration: ``Routable/migrate(_:)`` unless another one was given.
    public var migrate: (RecordedRoute) throws -> Route?

    /// - Parameters:
    ///   - appVersion: the app version that recorded the session.
    ///   - migrate: maps a recorded route to today's route, `nil` when it is gone; by default
    ///     `Route.migrate`.
    public init(appVersion: String? = nil, migrate: ((RecordedRoute) throws -> Route?)? = nil) {
        self.appVersion = appVersion
        self.migrate = migrate ?? Route.migrate
    }

    /// What one recorded route becomes.
    public func resolve(_ ref: RouteRef) -> Resolution {
        let route: Route?
        do {
            route = try migrate(RecordedRoute(ref, appVersion: appVersion))
        } catch let e as RouteDecodingError {
            return .undecodable(message: e.message)
        } catch {
            return .undecodable(message: "\(error)")
        }
        guard let route else { return .removed }
        let new: RouteRef
        do { new = try RouteRef(route) } catch {
            return .undecodable(message: "the migrated route cannot be encoded: \(error.message)")
        }
        if new.id.isEmpty { return .undecodable(message: "the migrated route has an empty id") }
        // The same id and payload is the same route, whatever type name was recorded with it.
        return new.id == ref.id && new.payload == ref.payload ? .kept : .migrated(new)
    }

    /// Restores every route of `state` that can be restored (see the type's rules).
    public func restore(_ state: NavigationState) -> RouteRestoration {
        var cache: [RouteRef: Resolution] = [:]
        var migrated: [MigratedRoute] = []
        var dropped: [DroppedRoute] = []

        func resolved(_ r: RouteRef) -> Resolution {
            if let known = cache[r] { return known }
            let res = resolve(r)
            cache[r] = res
            return res
        }
        /// The restored form of `r`, or `nil` after recording why it was dropped.
        func restored(_ r: RouteRef) -> RouteRef? {
            switch resolved(r) {
            case .kept:
                return r
            case .migrated(let new):
                migrated.append(MigratedRoute(from: r, to: new))
                return new
            case .removed:
                dropped.append(DroppedRoute(route: r, reason: .removedByMigration))
                return nil
            case .undecodable(let message):
                dropped.append(DroppedRoute(route: r, reason: .undecodable(message: message)))
                return nil
            }
        }
        func dropAll(_ f: Frame, below: String) {
            for r in f.path { dropped.append(DroppedRoute(route: r, reason: .above(routeID: below))) }
            if let p = f.presented {
                dropped.append(DroppedRoute(route: p.route, reason: .above(routeID: below)))
                if let c = p.content { dropAll(c, below: below) }
            }
        }
        func frame(_ f: Frame) -> Frame {
            var out = Frame()
            var cutAt: String? = nil
            for r in f.path {
                if let cutAt {
                    dropped.append(DroppedRoute(route: r, reason: .above(routeID: cutAt)))
                } else if let new = restored(r) {
                    out.path.append(new)
                } else {
                    cutAt = r.id
                }
            }
            if let p = f.presented {
                if let new = restored(p.route) {
                    var kept = p
                    kept.route = new
                    kept.content = p.content.map(frame)
                    out.presented = kept
                } else if let c = p.content {
                    dropAll(c, below: p.route.id)
                }
            }
            return out
        }

        let result: NavigationState
        if let tabs = state.tabs {
            result = NavigationState(tabs: tabs.map { Tab(id: $0.id, root: frame($0.root)) }, selectedTab: state.selectedTab ?? "")
        } else {
            result = NavigationState(root: frame(state.root))
        }
        return RouteRestoration(state: result, migrated: migrated, dropped: dropped)
    }
}
