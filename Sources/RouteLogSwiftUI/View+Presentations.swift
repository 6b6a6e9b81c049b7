#if canImport(SwiftUI)
import RouteLog
import RouteLogCore
import SwiftUI

// The presentation modifiers over a frame's presentation bindings: the standard SwiftUI modifiers,
// with `interactiveDismissDisabled` from the presentation's flag and the presented screen's router
// in its environment.

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
    /// `dismissible` flag, the presented screen's own router goes into the environment, and the
    /// screen reports its appearances to the navigator by the presentation's token.
    @MainActor
    fileprivate func routeLogPresented<Route: Routable>(_ b: PresentationBinding<Route>) -> some View {
        let presented = b.presented
        let token = presented?.token
        return interactiveDismissDisabled(!b.isDismissible)
            .environment(\.scopedRouter, token.map { AnyScopedRouter(b.navigator.scope(.presentation($0))) })
            .reportingScreen(to: b.navigator) { presented.map { .presentation(token: $0.token, routeID: $0.route.id) } }
    }

    /// Binds a `TabView`'s selection: `TabView(selection: navigator.tabBinding.binding)`.
    /// (Kept as a reminder of the one-line wiring; there is no modifier to add.)
    @MainActor
    public func routeTabs<Route: Routable>(_ navigator: Navigator<Route>) -> some View {
        environment(\.scopedRouter, AnyScopedRouter(navigator.scope()))
    }
}
#endif
