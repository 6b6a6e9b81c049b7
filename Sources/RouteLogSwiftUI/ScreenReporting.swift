#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

// The containers' screens report themselves to the navigator (`screenAppeared` and
// `screenDisappeared`), so that it can name the moments the screen and its state disagree.

/// Reports the view it modifies as one screen: it names itself at its first appearance, and
/// reports every appearance and disappearance under that name (a pushed screen covered by another
/// push and shown again is the same screen).
struct ScreenReporting<Route: Routable>: ViewModifier {
    let navigator: Navigator<Route>
    /// The screen's name, asked at its first appearance; `nil` reports nothing.
    let name: @MainActor () -> ScreenID?
    @State private var screen: ScreenID?

    func body(content: Content) -> some View {
        content
            .onAppear {
                if screen == nil { screen = name() }
                if let screen { navigator.screenAppeared(screen) }
            }
            .onDisappear {
                if let screen { navigator.screenDisappeared(screen) }
            }
    }
}

extension View {
    /// Reports this view as a screen of `navigator` (see ``ScreenReporting``).
    @MainActor
    func reportingScreen<Route: Routable>(to navigator: Navigator<Route>, _ name: @escaping @MainActor () -> ScreenID?) -> some View {
        modifier(ScreenReporting(navigator: navigator, name: name))
    }
}

extension PathBinding {
    /// The screen a route pushed on this stack is: its index is the last at which the stack holds
    /// it when it appears (the one just pushed); a route the stack does not hold is named at the
    /// index past its end, and reported as a screen the state does not have.
    @MainActor
    func screen(of route: Route) -> ScreenID {
        let routes = get()
        let index = routes.lastIndex(of: route) ?? routes.count
        return .stackEntry(frame: frame, index: index, routeID: route.id, tab: tab)
    }
}
#endif
