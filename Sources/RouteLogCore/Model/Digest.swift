/// A stable 128-bit hash of a ``NavigationState``: the same bytes on every run, process and platform.
///
/// ## Definition (digest v1)
/// The digest is the wrapping 128-bit sum of one *term* per element of the state:
/// - one term for the tab layout: whether there are tabs, their ids in order, and the selected id;
/// - one term per route in every path: `(frame address, index, route)`;
/// - one term per presentation: `(address of the frame presenting it, token, style, dismissible, route)`.
///
/// A frame's address is `root(tab id)` for a root frame (the empty id without tabs) and
/// `content(token)` for the content of a presentation. Because tokens are unique, every element
/// has a unique position and the sum is a function of the state alone. Each term is a
/// ``StableHasher`` hash, which is specified byte by byte and never uses Swift's seeded `Hasher`.
///
/// Being a sum, the digest is maintained incrementally by the reducer: a push adds one term, a pop
/// subtracts one, a dismiss subtracts the terms of what it removes (each created once, so the
/// cost is amortized O(1) per event however deep a path grows). `NavigationState.computeDigest()`
/// recomputes it from scratch; tests check the two agree.
public struct Digest: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var hi: UInt64
    public var lo: UInt64

    public init(hi: UInt64, lo: UInt64) {
        self.hi = hi
        self.lo = lo
    }

    public static let zero = Digest(hi: 0, lo: 0)

    /// 32 lowercase hex digits.
    public var hex: String { Self.hex16(hi) + Self.hex16(lo) }
    /// The first 12 hex digits, for display (like a short git hash).
    public var short: String { String(hex.prefix(12)) }
    public var description: String { hex }

    /// Parses 32 hex digits.
    public init?(hex: String) {
        let u = Array(hex.utf8)
        guard u.count == 32, let hi = UInt64(String(decoding: u[0..<16], as: UTF8.self), radix: 16),
              let lo = UInt64(String(decoding: u[16..<32], as: UTF8.self), radix: 16),
              hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        self.init(hi: hi, lo: lo)
    }

    static func hex16(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    @_spi(Tools) @inlinable public static func + (a: Digest, b: Digest) -> Digest {
        let (lo, carry) = a.lo.addingReportingOverflow(b.lo)
        return Digest(hi: a.hi &+ b.hi &+ (carry ? 1 : 0), lo: lo)
    }

    @_spi(Tools) @inlinable public static func - (a: Digest, b: Digest) -> Digest {
        let (lo, borrow) = a.lo.subtractingReportingOverflow(b.lo)
        return Digest(hi: a.hi &- b.hi &- (borrow ? 1 : 0), lo: lo)
    }

    @_spi(Tools) @inlinable public static func += (a: inout Digest, b: Digest) { a = a + b }
    @_spi(Tools) @inlinable public static func -= (a: inout Digest, b: Digest) { a = a - b }

    public static func < (a: Digest, b: Digest) -> Bool { (a.hi, a.lo) < (b.hi, b.lo) }
}

extension FrameRef {
    /// Feeds the frame's address in digest terms: `1, tab id` for a root frame (the empty id
    /// without tabs), `2, token` for the content of a presentation (`tabID` is then unused).
    @inlinable func feedAddress(_ h: inout StableHasher, tabID: String) {
        switch self {
        case .root: h.combine(1); h.combine(tabID)
        case .presentation(let token): h.combine(2); h.combine(token)
        }
    }
}

extension Digest {
    /// The hash of one route: id, type and payload bytes.
    /// The hash of a route's fields (kept by the route: ``RouteRef``'s `contentHash`).
    @inlinable static func hash(of route: RouteRef) -> Digest { route.contentHash }

    @usableFromInline static func hash(id: String, type: String?, payload: RawJSON?) -> Digest {
        var h = StableHasher()
        h.combine(id)
        if let t = type { h.combine(1); h.combine(t) } else { h.combine(0) }
        if let p = payload { h.combine(1); h.combine(p.text) } else { h.combine(0) }
        return h.finalize()
    }

    /// The term of the route at `index` on the path of `frame` (public to the benchmarks, which
    /// measure what the digest costs by hashing the terms alone).
    @_spi(Benchmarks)
    @inlinable public static func pathTerm(_ frame: FrameRef, tabID: String, index: Int, route: RouteRef) -> Digest {
        pathTerm(frame, tabID: tabID, index: index, routeHash: hash(of: route))
    }

    @inlinable static func pathTerm(_ frame: FrameRef, tabID: String, index: Int, routeHash r: Digest) -> Digest {
        var h = StableHasher()
        h.combine(0x7061_7468) // "path"
        frame.feedAddress(&h, tabID: tabID)
        h.combine(UInt64(index))
        h.combine(r.hi)
        h.combine(r.lo)
        return h.finalize()
    }

    /// The term of presentation `p` presented by `frame` (public to the benchmarks, as ``pathTerm(_:tabID:index:route:)``).
    @_spi(Benchmarks)
    @inlinable public static func presentationTerm(_ frame: FrameRef, tabID: String, _ p: Presentation) -> Digest {
        var h = StableHasher()
        h.combine(0x7072_6573) // "pres"
        frame.feedAddress(&h, tabID: tabID)
        h.combine(p.token)
        h.combine(UInt64(p.style.wireCode))
        h.combine(p.dismissible ? 1 : 0)
        let r = hash(of: p.route)
        h.combine(r.hi)
        h.combine(r.lo)
        return h.finalize()
    }

    /// The terms of everything in a frame: its path, its presentation and, recursively, the
    /// presentation's content.
    static func terms(of frame: Frame, at address: FrameRef, tabID: String) -> Digest {
        var sum = Digest.zero
        for (i, route) in frame.path.enumerated() { sum += pathTerm(address, tabID: tabID, index: i, route: route) }
        if let p = frame.presented {
            sum += presentationTerm(address, tabID: tabID, p)
            if let c = p.content { sum += terms(of: c, at: .presentation(p.token), tabID: "") }
        }
        return sum
    }

    /// The digest of a whole state, from scratch.
    static func terms(of state: NavigationState) -> Digest {
        var sum = layoutTerm(of: state)
        for tab in state.roots { sum += terms(of: tab.root, at: .root, tabID: state.hasTabs ? tab.id : "") }
        return sum
    }

    static func layoutTerm(of state: NavigationState) -> Digest {
        // "tabs", whether there are tabs; with tabs, their count, their ids in order and the selected id.
        var h = StableHasher()
        h.combine(0x7461_6273) // "tabs"
        h.combine(state.hasTabs ? 1 : 0)
        if state.hasTabs {
            h.combine(UInt64(state.roots.count))
            for tab in state.roots { h.combine(tab.id) }
            h.combine(state.selectedTab ?? "")
        }
        return h.finalize()
    }
}

extension NavigationState {
    /// Recomputes the digest from scratch (O(size of the state)). ``digest`` is maintained
    /// incrementally and always equals this.
    @_spi(Tools) public func computeDigest() -> Digest { Digest.terms(of: self) }
}
