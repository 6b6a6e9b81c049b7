/// A reference to one of the app's routes, as the reducer sees it.
///
/// The reducer reads only ``id``; ``type`` and ``payload`` travel with the route so that a
/// typed `Navigator` can decode it again. Two routes with the same ``id`` fill the same
/// presentation slot (an in-place update rather than a replacement).
public struct RouteRef: Hashable, Sendable {
    /// Presentation identity. Must not be empty.
    public var id: String { didSet { rehash() } }
    /// The app's type name for the payload, if it recorded one.
    public var type: String? { didSet { rehash() } }
    /// The app's route as canonical JSON, opaque to the reducer.
    public var payload: RawJSON? { didSet { rehash() } }
    /// The `StableHasher` hash of the three, which every digest term of the route takes: computed
    /// once, when the route is made, instead of at each event that adds or removes it (a fold
    /// hashed a route's payload again at every push, pop and dismissal, and a read and the
    /// replay after it fold each event twice). Determined by the fields, so it changes no
    /// equality, digest or output.
    @usableFromInline private(set) var contentHash: Digest

    public init(id: String, type: String? = nil, payload: RawJSON? = nil) {
        self.id = id
        self.type = type
        self.payload = payload
        contentHash = Digest.hash(id: id, type: type, payload: payload)
    }

    /// The hash of the three fields (the one every digest term of the route takes), for a table
    /// that spreads routes over slots: the navigator's route cache picks a slot by it instead of
    /// hashing the payload again on each call.
    @_spi(Tools) public var fieldsHash: Digest { contentHash }

    private mutating func rehash() { contentHash = Digest.hash(id: id, type: type, payload: payload) }
}
