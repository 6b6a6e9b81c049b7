/// Who caused an event.
public enum Origin: String, Hashable, Sendable, CaseIterable, Codable {
    /// The app's code called the navigator.
    case app
    /// The user acted through the UI (a swipe, a back button, a tap outside).
    case user
    /// The system: state restoration, and SwiftUI's own writes (a presentation binding's late
    /// `nil` for a presentation that is already gone).
    case system
    /// A deep link (a URL, a notification, a shortcut) opened by the app: the default origin of
    /// ``Event/reset(_:)`` calls made through the navigator. Added after `system`; stores and
    /// fixtures written before it never hold it, and read as before.
    case deepLink
}

/// A source location recorded with an event.
public struct CallSite: Hashable, Sendable {
    public var file: String
    public var line: Int

    /// `file:line`; by default the caller's own location (`CallSite()` is where it is written).
    public init(file: String = #fileID, line: Int = #line) {
        self.file = file
        self.line = line
    }
}

/// Facts about an event that the reducer never reads.
public struct EventMetadata: Hashable, Sendable {
    /// Wall-clock time, milliseconds since 1970-01-01T00:00:00Z.
    public var timestamp: Int64
    public var origin: Origin
    public var callSite: CallSite?
    public var note: String?

    public init(timestamp: Int64 = 0, origin: Origin = .app, callSite: CallSite? = nil, note: String? = nil) {
        self.timestamp = timestamp
        self.origin = origin
        self.callSite = callSite
        self.note = note
    }
}
