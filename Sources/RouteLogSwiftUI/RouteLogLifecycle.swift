#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

// The scene's lifecycle: suspending the navigator in the background, resuming it when active.

extension View {
    /// Suspends `navigator` when the scene goes to the background and resumes it when the scene
    /// is active again, so that a suspended app holds no lock and no file of its store (iOS kills
    /// a suspended app that holds a file lock in a shared container) and a run killed in the
    /// background ends `suspended`, not `crashed`. While the navigator writes what is pending, the
    /// app asks the system for the time to finish (`performExpiringActivity`). A failure to
    /// resume shows in ``RouteLog/Navigator/recordingError``; the navigator works on meanwhile.
    @MainActor
    public func routeLogLifecycle<Route: Routable>(_ navigator: Navigator<Route>) -> some View {
        modifier(RouteLogLifecycle(navigator: navigator))
    }
}

private struct RouteLogLifecycle<Route: Routable>: ViewModifier {
    let navigator: Navigator<Route>
    @Environment(\.scenePhase) private var phase

    func body(content: Content) -> some View {
        content.onChange(of: phase) { _, phase in
            switch phase {
            case .background:
                let done = DispatchSemaphore(value: 0)
                ProcessInfo.processInfo.performExpiringActivity(withReason: "RouteLog writes the navigation before suspending") { expired in
                    if !expired { done.wait() }
                }
                Task { @MainActor in
                    await navigator.suspend()
                    done.signal()
                }
            case .active:
                try? navigator.resume()
            default:
                break
            }
        }
    }
}
#endif
