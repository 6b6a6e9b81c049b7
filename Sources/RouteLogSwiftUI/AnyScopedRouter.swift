#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

/// A scoped router whose route type is erased, so it can live in the environment.
public struct AnyScopedRouter: Sendable {
    private let base: any Sendable
    /// The frame the router is bound to.
    public let frame: FrameRef

    /// Wraps a scoped router.
    public init<Route: Routable>(_ router: ScopedRouter<Route>) {
        self.base = router
        self.frame = router.frame
    }

    /// The router with its route type, or `nil` if it routes another type.
    public func typed<Route: Routable>(_ type: Route.Type = Route.self) -> ScopedRouter<Route>? {
        base as? ScopedRouter<Route>
    }
}

private struct ScopedRouterKey: EnvironmentKey {
    static let defaultValue: AnyScopedRouter? = nil
}

extension EnvironmentValues {
    /// The router of the screen this view belongs to: the root's inside a ``RouteStack``, a
    /// presentation's inside the content of a RouteLog sheet, cover or popover.
    ///
    /// ```swift
    /// @Environment(\.scopedRouter) private var scope
    /// Button("Close") { scope?.typed(AppRoute.self)?.dismiss() }
    /// ```
    public var scopedRouter: AnyScopedRouter? {
        get { self[ScopedRouterKey.self] }
        set { self[ScopedRouterKey.self] = newValue }
    }
}
#endif
