import Foundation
@_spi(Tools) import RouteLogCore

/// A route an app navigates to: a screen, a sheet, an alert.
///
/// `id` is the presentation identity: two routes with the same `id` fill the same slot, so
/// showing one while the other is presented updates the presentation in place instead of
/// replacing it. Routes are stored in the log as canonical JSON, so they must be `Codable`.
///
/// ```swift
/// enum AppRoute: Routable {
///     case episode(id: Int)
///     case player
///     var id: String {
///         switch self {
///         case .episode(let id): "episode-\(id)"
///         case .player: "player"
///         }
///     }
/// }
/// ```
///
/// Equal routes must encode alike, as `Equatable`'s contract says (equal values are
/// interchangeable): a navigator keeps the encodings of the routes it recorded recently and gives a
/// call with an equal route the same stored JSON without encoding it again. The synthesized `==`
/// and `Codable` always agree; a hand-written `==` that ignores a field the encoding writes would
/// record the first equal route's field for the others.
///
/// When an update changes the type (a case renamed or removed, a field added or retyped),
/// implement ``migrate(_:)`` so that sessions recorded by earlier versions still restore: see
/// "Shipping an update that changes routes" in the getting-started guide.
public protocol Routable: Hashable, Codable, Sendable, Identifiable where ID == String {
    /// Maps a route recorded by this or an earlier version of the app to today's route.
    ///
    /// Restoring a session calls it once for each distinct route of the restored state. Return
    /// today's route (with any id), `nil` when the screen no longer exists (it is dropped on
    /// purpose), or throw when the route cannot be read (it is dropped, and the error is named in
    /// the restore's reason). The default decodes the payload as today's type
    /// (``RecordedRoute/route(as:)``).
    static func migrate(_ recorded: RecordedRoute) throws -> Self?
}

/// A route that could not be encoded as JSON (for example a `Double.nan` in its payload).
public struct RouteEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The route's id.
    public var routeID: String
    /// What the encoder said.
    public var message: String

    /// One line naming the route and the problem.
    public var description: String { "route \"\(routeID)\" cannot be encoded as JSON: \(message)" }
}

/// A stored route whose payload no longer decodes as the app's route type: the type changed
/// since the session was recorded, or the payload was written by another app.
public struct RouteDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The seq of the event that recorded the route, when it is known.
    public var seq: UInt64?
    /// The route's id.
    public var routeID: String
    /// The type name stored with the route, if any.
    public var storedType: String?
    /// What the decoder said.
    public var message: String

    /// One line naming the route and the problem.
    public var description: String {
        let at = seq.map { "seq \($0): " } ?? ""
        let type = storedType.map { " (stored as \($0))" } ?? ""
        return "\(at)route \"\(routeID)\"\(type) no longer decodes: \(message)"
    }
}

extension RouteRef {
    /// The reference the log stores for `route`: its `id`, its type name, and its canonical JSON
    /// (the canonical form of what `JSONEncoder` writes, built without writing text first).
    ///
    /// - Throws: ``RouteEncodingError`` when the route has no JSON form.
    public init<Route: Routable>(_ route: Route) throws(RouteEncodingError) {
        try self.init(route, typeName: String(describing: Route.self))
    }

    /// As ``init(_:)``, with the route type's name given (a navigator computes it once).
    init<Route: Routable>(_ route: Route, typeName: String) throws(RouteEncodingError) {
        let id = route.id
        let payload: RawJSON
        do { payload = try RawJSON(encoding: route) } catch {
            throw RouteEncodingError(routeID: id, message: "\(error)")
        }
        self.init(id: id, type: typeName, payload: payload)
    }

    /// Decodes the app's route from the stored payload.
    ///
    /// - Parameters:
    ///   - type: the app's route type.
    ///   - seq: the seq of the event that recorded the route, named in the error.
    /// - Throws: ``RouteDecodingError`` when there is no payload, it does not decode, or it
    ///   decodes to a route with another `id`.
    public func decode<Route: Routable>(as type: Route.Type, seq: UInt64? = nil) throws(RouteDecodingError) -> Route {
        let route = try decodePayload(as: Route.self, seq: seq)
        guard route.id == id else {
            throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type,
                                     message: "the payload decodes to a route with id \"\(route.id)\"")
        }
        return route
    }

    /// Decodes the stored payload as any `Decodable` type, without checking the id.
    func decodePayload<T: Decodable>(as type: T.Type, seq: UInt64? = nil) throws(RouteDecodingError) -> T {
        guard let payload else {
            throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type, message: "the route has no payload")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(payload.text.utf8))
        } catch let DecodingError.keyNotFound(key, context) {
            throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type,
                                     message: "missing key \"\(key.stringValue)\" at \(Self.codingPath(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.dataCorrupted(context) {
            if let name = Self.unknownCase(context, in: payload.value) {
                // "No longer" only for a route recorded with this type: one recorded with another
                // (an extension's routes in the app's store, an older type of the app's) is named
                // as such, never as a case this type lost.
                let was = self.type.map { $0 == "\(T.self)" ? " is no longer" : " of \($0) is not" } ?? " is no longer"
                throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type,
                                         message: "case \"\(name)\"\(was) a case of \(T.self) at \(Self.codingPath(context.codingPath))")
            }
            throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type,
                                     message: "\(context.debugDescription) at \(Self.codingPath(context.codingPath))")
        } catch {
            throw RouteDecodingError(seq: seq, routeID: id, storedType: self.type, message: "\(error)")
        }
    }

    /// The case a payload names when the decoder says only "Invalid number of keys found, expected
    /// one": a synthesized enum decoder finds no key it knows, because the case the route was
    /// recorded with has been removed or renamed. The payload there is an object with one key,
    /// the old case's name.
    private static func unknownCase(_ context: DecodingError.Context, in payload: JSONValue) -> String? {
        guard context.debugDescription.hasPrefix("Invalid number of keys found") else { return nil }
        var value = payload
        for key in context.codingPath {
            if let i = key.intValue, let a = value.arrayValue, i >= 0, i < a.count {
                value = a[i]
            } else if let v = value[key.stringValue] {
                value = v
            } else {
                return nil
            }
        }
        guard case .object(let o) = value, o.count == 1 else { return nil }
        return o.keys.first
    }

    private static func codingPath(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top level" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
