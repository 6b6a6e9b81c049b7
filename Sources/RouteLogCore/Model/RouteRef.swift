/// A reference to one of the app's routes, as the reducer sees it.
///
/// The reducer reads only ``id``; ``type`` and ``payload`` travel with the route so that a
/// typed `Navigator` can decode it again. Two routes with the same ``id`` fill the same
/// presentation slot (an in-place update rather than a replacement).
public struct RouteRef: Hashable, Sendable {
    /// Presentation identity. Must not be empty.
    public var id: String
    /// The app's type name for the payload, if it recorded one.
    public var type: String?
    /// The app's route as canonical JSON, opaque to the reducer.
    public var payload: RawJSON?

    public init(id: String, type: String? = nil, payload: RawJSON? = nil) {
        self.id = id
        self.type = type
        self.payload = payload
    }
}
