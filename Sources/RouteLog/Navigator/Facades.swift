@_spi(Tools) import RouteLogCore

/// A Sheet Stack-style view of a navigator: `push` presents on top of everything, `pop`
/// dismisses the top-most presentation. Produces the same events as the navigator's own calls.
@MainActor
public struct SheetStack<Route: Routable>: Sendable {
    /// The navigator the stack drives.
    nonisolated public let navigator: Navigator<Route>

    /// A view of `navigator`.
    public init(_ navigator: Navigator<Route>) { self.navigator = navigator }

    /// Presents `route` on top of the active screen (`show` with placement `onTop`).
    @discardableResult
    public func push(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.present(route, as: style, dismissible: dismissible, file: file, line: line)
    }

    /// Dismisses the top-most presentation.
    @discardableResult
    public func pop(file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.dismiss(file: file, line: line)
    }

    /// The top-most presented route.
    public var top: Route? { navigator.top?.route }

    /// How many presentations are stacked.
    public var count: Int { navigator.presentations.count }
}

/// A Router-style view of a navigator: one state for every presentation style. `show`
/// dismisses what is presented and presents the new route; `item(as:)` reads it per style.
@MainActor
public struct Router<Route: Routable>: Sendable {
    /// The navigator the router drives.
    nonisolated public let navigator: Navigator<Route>

    /// A view of `navigator`.
    public init(_ navigator: Navigator<Route>) { self.navigator = navigator }

    /// Replaces the top-most presentation with `route` (or presents it on the root).
    @discardableResult
    public func show(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.show(route, as: style, dismissible: dismissible, file: file, line: line)
    }

    /// Dismisses the top-most presentation.
    @discardableResult
    public func dismiss(file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.dismiss(file: file, line: line)
    }

    /// The top-most presented route if it is presented with `style`.
    public func item(as style: PresentationStyle) -> Route? {
        guard let top = navigator.top, top.style == style else { return nil }
        return top.route
    }

    /// Pushes onto the active screen's stack.
    @discardableResult
    public func push(_ route: Route, file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.push(route, file: file, line: line)
    }
}

/// A router bound to one frame: the root, or the content of one presentation.
///
/// A presented screen gets its own scoped router and can push onto its own stack, present
/// from itself and dismiss itself without knowing where it sits in the chain. All calls name
/// the frame explicitly, so they mean the same thing whatever is presented above.
@MainActor
public struct ScopedRouter<Route: Routable>: Sendable {
    /// The navigator the router drives.
    nonisolated public let navigator: Navigator<Route>
    /// The frame the router is bound to.
    nonisolated public let frame: FrameRef

    /// A router for `frame` of `navigator`.
    public init(_ navigator: Navigator<Route>, frame: FrameRef) {
        self.navigator = navigator
        self.frame = frame
    }

    /// Whether the frame still exists (a presented screen's router outlives its dismissal).
    public var isPresented: Bool { navigator.state.frame(frame) != nil }

    /// This frame's navigation stack.
    public var path: [Route] { navigator.path(in: frame) }

    /// What this frame presents.
    public var presented: Presented<Route>? { navigator.presented(in: frame) }

    /// Pushes onto this frame's stack.
    @discardableResult
    public func push(_ route: Route, file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.push(route, in: frame, file: file, line: line)
    }

    /// Pops from this frame's stack.
    @discardableResult
    public func pop(_ count: Int = 1, file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.pop(count, in: frame, file: file, line: line)
    }

    /// Empties this frame's stack.
    @discardableResult
    public func popToRoot(file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.popToRoot(in: frame, file: file, line: line)
    }

    /// Presents `route` from this frame, replacing what it presents: the old spelling of
    /// ``show(_:as:dismissible:file:line:)`` (on the navigator, `present` places on top).
    @available(*, deprecated, renamed: "show(_:as:dismissible:file:line:)")
    @discardableResult
    public func present(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true,
                        file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.show(route, as: style, dismissible: dismissible, in: frame, file: file, line: line)
    }

    /// Dismisses this screen (and everything above it). The root's router dismisses
    /// everything presented over the root.
    @discardableResult
    public func dismiss(file: String = #fileID, line: Int = #line) -> CallResult {
        switch frame {
        case .root: navigator.dismissAll(file: file, line: line)
        case .presentation(let token): navigator.dismiss(token, file: file, line: line)
        }
    }

    /// The router of the screen this frame presents, if it presents one with content.
    public var child: ScopedRouter? {
        guard let p = navigator.state.frame(frame)?.presented, p.content != nil else { return nil }
        return ScopedRouter(navigator, frame: .presentation(p.token))
    }

    /// A binding to this frame's stack.
    public var pathBinding: PathBinding<Route> { navigator.pathBinding(in: frame) }

    /// A binding to this frame's presentation of `style`.
    public func presentationBinding(_ style: PresentationStyle) -> PresentationBinding<Route> {
        navigator.presentationBinding(in: frame, style: style)
    }

    /// Presents `route` from this frame, replacing what it presents: the navigator's
    /// ``Navigator/show(_:as:dismissible:in:origin:file:line:)`` in this frame, the core's
    /// `show(…, placement: .in(frame))`.
    @discardableResult
    public func show(_ route: Route, as style: PresentationStyle = .sheet, dismissible: Bool = true,
                     file: String = #fileID, line: Int = #line) -> CallResult {
        navigator.show(route, as: style, dismissible: dismissible, in: frame, file: file, line: line)
    }

    /// Pops this frame's stack back to the last `route` on it (see ``Navigator/pop(to:in:origin:file:line:)``).
    @discardableResult
    public func pop(to route: Route, file: String = #fileID, line: Int = #line) -> CallResult? {
        navigator.pop(to: route, in: frame, file: file, line: line)
    }
}

extension Navigator {
    /// A Sheet Stack-style view of this navigator.
    public var sheetStack: SheetStack<Route> { SheetStack(self) }

    /// A Router-style view of this navigator.
    public var router: Router<Route> { Router(self) }

    /// A router bound to `frame`.
    public func scope(_ frame: FrameRef = .root) -> ScopedRouter<Route> { ScopedRouter(self, frame: frame) }

    /// The router of the active screen.
    public var activeScope: ScopedRouter<Route> { ScopedRouter(self, frame: activeFrame) }
}
