#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

/// A `NavigationStack` bound to one frame's stack, with the frame's router in the environment.
public struct RouteStack<Route: Routable, Root: View, Destination: View>: View {
    private let router: ScopedRouter<Route>
    private let path: PathBinding<Route>
    private let root: Root
    private let destination: (Route) -> Destination

    /// - Parameters:
    ///   - router: the frame whose stack this is (`navigator.scope()` for the root).
    ///   - destination: the view for each route pushed onto the stack.
    ///   - root: the stack's root view.
    @MainActor
    public init(_ router: ScopedRouter<Route>, @ViewBuilder destination: @escaping (Route) -> Destination,
                @ViewBuilder root: () -> Root) {
        self.router = router
        self.path = router.pathBinding
        self.root = root()
        self.destination = destination
    }

    /// The root stack of one tab, for a `TabView` with a stack per tab
    /// (``RouteLog/Navigator/pathBinding(inTab:)``): it shows that tab's own stack while another
    /// tab is selected, and records the user's pushes and pops while the tab is selected.
    @MainActor
    public init(_ navigator: Navigator<Route>, tab: String, @ViewBuilder destination: @escaping (Route) -> Destination,
                @ViewBuilder root: () -> Root) {
        self.router = navigator.scope()
        self.path = navigator.pathBinding(inTab: tab)
        self.root = root()
        self.destination = destination
    }

    /// The stack, with the frame's router in the environment. Each pushed screen reports its
    /// appearances to the navigator (``RouteLog/Navigator/screenAppeared(_:)``), and so does a
    /// tab's root stack.
    public var body: some View {
        let path = path
        let navigator = router.navigator
        let stack = NavigationStack(path: path.binding) {
            root.navigationDestination(for: Route.self) { route in
                destination(route).reportingScreen(to: navigator) { path.screen(of: route) }
            }
        }
        .environment(\.scopedRouter, AnyScopedRouter(router))
        .onAppear { navigator.tracksScreens = true }
        return Group {
            if let tab = path.tab {
                stack.reportingScreen(to: navigator) { .tabRoot(tab) }
            } else {
                stack
            }
        }
    }
}
#endif
