/// A navigation stack plus at most one presentation (SwiftUI presents one modal per view).
public struct Frame: Hashable, Sendable {
    /// The navigation stack, bottom first.
    public var path: [RouteRef]
    @usableFromInline var _presented: Indirect<Presentation>?

    public init(path: [RouteRef] = [], presented: Presentation? = nil) {
        self.path = path
        self._presented = presented.map(Indirect.init)
    }

    /// What this frame presents, if anything.
    @inlinable public var presented: Presentation? {
        get { _presented?.value }
        set { _presented = newValue.map(Indirect.init) }
    }

    /// Mutates the presentation in place (copy-on-write), if there is one.
    @inlinable
    public mutating func withPresented<R>(_ body: (inout Presentation) -> R) -> R? {
        guard _presented != nil else { return nil }
        return _presented!.modify(body)
    }
}
