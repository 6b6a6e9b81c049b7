#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

// Thin SwiftUI wrappers over the bindings of `RouteLog`. All behaviour (what a write records,
// stale late writes, non-dismissible presentations) lives in the tested core; this file only
// turns get/set pairs into `Binding`s and attaches the standard modifiers.

extension PathBinding {
    /// A `Binding` for `NavigationStack(path:)`.
    @MainActor public var binding: Binding<[Route]> {
        let b = self
        return Binding(get: { MainActor.assumeIsolated { b.get() } },
                       set: { value in MainActor.assumeIsolated { _ = b.set(value) } })
    }
}

extension PresentationBinding {
    /// A `Binding` for `sheet(item:)`, `fullScreenCover(item:)` and `popover(item:)`.
    @MainActor public var binding: Binding<Route?> {
        let b = self
        return Binding(get: { MainActor.assumeIsolated { b.get() } },
                       set: { value in MainActor.assumeIsolated { _ = b.set(value) } })
    }

    /// A `Binding<Bool>` for `alert(_:isPresented:presenting:)` and `confirmationDialog`.
    @MainActor public var isPresentedBinding: Binding<Bool> {
        let b = self
        return Binding(get: { MainActor.assumeIsolated { b.isPresented() } },
                       set: { value in MainActor.assumeIsolated { _ = b.setPresented(value) } })
    }
}

extension TabBinding {
    /// A `Binding` for `TabView(selection:)`.
    @MainActor public var binding: Binding<String> {
        let b = self
        return Binding(get: { MainActor.assumeIsolated { b.get() } },
                       set: { value in MainActor.assumeIsolated { _ = b.set(value) } })
    }
}

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

    /// The stack, with the frame's router in the environment.
    public var body: some View {
        NavigationStack(path: path.binding) {
            root.navigationDestination(for: Route.self, destination: destination)
        }
        .environment(\.scopedRouter, AnyScopedRouter(router))
    }
}

extension View {
    /// Presents the frame's sheets: `sheet(item:)` over the frame's presentation binding, with
    /// `interactiveDismissDisabled` from the presentation's flag and the presented screen's
    /// router in its environment.
    @MainActor
    public func routeSheet<Route: Routable, Content: View>(
        _ router: ScopedRouter<Route>, onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Route) -> Content
    ) -> some View {
        let b = router.presentationBinding(.sheet)
        return sheet(item: b.binding, onDismiss: onDismiss) { route in
            content(route).routeLogPresented(b)
        }
    }

    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    /// Presents the frame's full-screen covers (which cannot be swiped away).
    @MainActor
    public func routeFullScreenCover<Route: Routable, Content: View>(
        _ router: ScopedRouter<Route>, onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Route) -> Content
    ) -> some View {
        let b = router.presentationBinding(.fullScreenCover)
        return fullScreenCover(item: b.binding, onDismiss: onDismiss) { route in
            content(route).routeLogPresented(b)
        }
    }
    #endif

    #if !os(tvOS)
    /// Presents the frame's popovers.
    @MainActor
    public func routePopover<Route: Routable, Content: View>(
        _ router: ScopedRouter<Route>, attachmentAnchor: PopoverAttachmentAnchor = .rect(.bounds),
        @ViewBuilder content: @escaping (Route) -> Content
    ) -> some View {
        let b = router.presentationBinding(.popover)
        return popover(item: b.binding, attachmentAnchor: attachmentAnchor) { route in
            content(route).routeLogPresented(b)
        }
    }
    #endif

    /// Presents the frame's alerts. An alert button's tap is the user's dismissal
    /// (`interactiveDismiss`); if a button's action presents something else first, that
    /// dismissal is stale and the new presentation stays.
    @MainActor
    public func routeAlert<Route: Routable, Actions: View, Message: View>(
        _ router: ScopedRouter<Route>, title: @escaping (Route) -> Text,
        @ViewBuilder actions: @escaping (Route) -> Actions,
        @ViewBuilder message: @escaping (Route) -> Message
    ) -> some View {
        let b = router.presentationBinding(.alert)
        let item = b.get()
        return alert(item.map(title) ?? Text(verbatim: ""), isPresented: b.isPresentedBinding, presenting: item,
                     actions: actions, message: message)
    }

    /// Presents the frame's confirmation dialogs.
    @MainActor
    public func routeConfirmationDialog<Route: Routable, Actions: View, Message: View>(
        _ router: ScopedRouter<Route>, title: @escaping (Route) -> Text, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: @escaping (Route) -> Actions,
        @ViewBuilder message: @escaping (Route) -> Message
    ) -> some View {
        let b = router.presentationBinding(.confirmationDialog)
        let item = b.get()
        return confirmationDialog(item.map(title) ?? Text(verbatim: ""), isPresented: b.isPresentedBinding,
                                  titleVisibility: titleVisibility, presenting: item, actions: actions, message: message)
    }

    /// Marks the content of a presentation: swipe-to-dismiss follows the presentation's
    /// `dismissible` flag, and the presented screen's own router goes into the environment.
    @MainActor
    fileprivate func routeLogPresented<Route: Routable>(_ b: PresentationBinding<Route>) -> some View {
        let token = b.presented?.token
        return interactiveDismissDisabled(!b.isDismissible)
            .environment(\.scopedRouter, token.map { AnyScopedRouter(b.navigator.scope(.presentation($0))) })
    }

    /// Binds a `TabView`'s selection: `TabView(selection: navigator.tabBinding.binding)`.
    /// (Kept as a reminder of the one-line wiring; there is no modifier to add.)
    @MainActor
    public func routeTabs<Route: Routable>(_ navigator: Navigator<Route>) -> some View {
        environment(\.scopedRouter, AnyScopedRouter(navigator.scope()))
    }
}
// MARK: - The scene's lifecycle

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
