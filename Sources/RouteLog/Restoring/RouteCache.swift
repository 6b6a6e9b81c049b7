@_spi(Tools) import RouteLogCore

/// The typed routes of recently recorded or read route references, so that reads need not decode
/// JSON again. A reference's slot is chosen by the hash of its fields it keeps
/// (``RouteRef/fieldsHash``); a reference whose slot another took is simply decoded again, and
/// which routes stay cached never changes what a read returns. Every call records a route, so an
/// insert is two stores (see ``RouteSlots``).
final class RouteCache<Route>: RouteSlots<Route> {
    subscript(ref: RouteRef) -> Route? {
        let i = slot(of: ref)
        guard let cached = refs[i], cached == ref else { return nil }
        return routes[i]
    }

    /// Whether `ref`'s slot holds it: compared in place, no reference or route copied out.
    func holds(_ ref: RouteRef) -> Bool {
        let i = slot(of: ref)
        return refs.withUnsafeBufferPointer { slots in
            switch slots[i] {
            case .some(let held): held == ref
            case .none: false
            }
        }
    }

    func insert(_ route: Route, for ref: RouteRef) {
        set(slot(of: ref), route, ref)
    }

    /// The slot of `ref`: from the hash of its fields that the reference computed when it was
    /// made (a `StableHasher` digest, well spread), so an insert does not pass over the payload's
    /// bytes again.
    func slot(of ref: RouteRef) -> Int {
        Int(truncatingIfNeeded: ref.fieldsHash.lo) & (routeSlotCount - 1)
    }
}
