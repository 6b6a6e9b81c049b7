@_spi(Tools) import RouteLogCore

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
        return restore(state, reusing: &cache)
    }

    /// As ``restore(_:)``, resolving each route through `resolutions` first and adding what it
    /// resolves to them: restoring many states recorded by one app version with one migration
    /// runs the migration once per distinct route. Keep one dictionary per ``appVersion`` and
    /// migration, since the resolutions depend on both.
    public func restore(_ state: NavigationState, reusing resolutions: inout [RouteRef: Resolution]) -> RouteRestoration {
        var migrated: [MigratedRoute] = []
        var dropped: [DroppedRoute] = []

        func resolved(_ r: RouteRef) -> Resolution {
            if let known = resolutions[r] { return known }
            let res = resolve(r)
            resolutions[r] = res
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
