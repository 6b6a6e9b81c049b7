import Foundation
@_spi(Tools) import RouteLogCore

/// A route as a session recorded it, handed to ``Routable/migrate(_:)`` when a session is
/// restored: its id, type name and payload as recorded, and the app version that recorded the
/// session.
public struct RecordedRoute: Hashable, Sendable {
    /// The stored route: id, type name and canonical JSON payload, exactly as recorded.
    public var ref: RouteRef
    /// The version of the app that recorded the session (`SessionInfo.appVersion`), if it said.
    ///
    /// A session that an earlier restore continued holds routes that the restoring version
    /// re-recorded, so treat the version as a hint and recognise a route by its payload's shape
    /// (try today's type first).
    public var appVersion: String?

    /// A recorded route.
    public init(_ ref: RouteRef, appVersion: String? = nil) {
        self.ref = ref
        self.appVersion = appVersion
    }

    /// The route's id as recorded.
    public var id: String { ref.id }
    /// The type name recorded with the route (`String(describing: Route.self)`), if any.
    public var type: String? { ref.type }
    /// The payload as a JSON tree, if the route has one.
    public var payload: JSONValue? { ref.payload?.value }

    /// The case name of an enum route as Swift's synthesized `Codable` writes it: the single key
    /// of the payload object (`{"episode":{"id":42}}` is `"episode"`); `nil` for other payloads.
    public var caseName: String? {
        guard let object = payload?.objectValue, object.count == 1 else { return nil }
        return object.keys.first
    }

    /// Today's route, decoded from the payload as recorded; its id must be the recorded id.
    /// This is what the default ``Routable/migrate(_:)`` returns.
    ///
    /// - Throws: ``RouteDecodingError`` when the payload does not decode as `Route` or decodes to
    ///   a route with another id.
    public func route<Route: Routable>(as type: Route.Type) throws(RouteDecodingError) -> Route {
        try ref.decode(as: Route.self)
    }

    /// Decodes the payload as any `Decodable` type, for example the route enum of an earlier
    /// version that the app keeps for its migrations.
    ///
    /// - Throws: ``RouteDecodingError`` when the payload does not decode as `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws(RouteDecodingError) -> T {
        try ref.decodePayload(as: T.self)
    }
}

extension Routable {
    /// Decodes the route as recorded with today's type (no migration).
    public static func migrate(_ recorded: RecordedRoute) throws -> Self? {
        try recorded.route(as: Self.self)
    }
}
