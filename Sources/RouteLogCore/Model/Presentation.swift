/// The visual style of a presentation.
public enum PresentationStyle: String, Hashable, Sendable, CaseIterable, Codable {
    case sheet
    case fullScreenCover
    case popover
    case alert
    case confirmationDialog

    /// Alerts and confirmation dialogs are leaves: they have no content frame of their own.
    @inlinable public var isLeaf: Bool { self == .alert || self == .confirmationDialog }

    /// Whether the user can dismiss it by a gesture (swipe, tap outside, a button).
    /// A full-screen cover cannot be swiped away.
    @inlinable public var allowsInteractiveDismiss: Bool { self != .fullScreenCover }
}

/// A modal presented from a frame.
public struct Presentation: Hashable, Sendable {
    /// Unique in the session: the seq of the event that created it.
    public var token: UInt64
    public var route: RouteRef
    public var style: PresentationStyle
    /// `false` mirrors `.interactiveDismissDisabled()`.
    public var dismissible: Bool
    /// The presentation's own stack and modal. `nil` for alerts and dialogs.
    public var content: Frame?

    public init(token: UInt64, route: RouteRef, style: PresentationStyle, dismissible: Bool = true, content: Frame? = nil) {
        self.token = token
        self.route = route
        self.style = style
        self.dismissible = dismissible
        self.content = style.isLeaf ? content : (content ?? Frame())
    }
}
