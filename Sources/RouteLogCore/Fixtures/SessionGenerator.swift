/// A small, fast, seeded PRNG (SplitMix64): the same seed gives the same numbers on every platform.
@_spi(Tools) public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Generates synthetic sessions, deterministically from a seed: for property tests, load tests and
/// benchmarks. Events are chosen with the current state in view, so most apply and the mix looks like
/// a real app's; some are deliberately rejected (stale swipes, swipes on non-dismissible sheets, …).
@_spi(Tools) public struct SessionGenerator: Sendable {
    public enum Mix: Sendable {
        /// Push-heavy, with nested sheets, alerts, swipes and tab switches, like a real app.
        case realistic
        /// Every event kind and every malformed variant, for property tests of the reducer.
        case adversarial
        /// Only pushes: the path grows without bound.
        case deepPath
    }

    public var rng: SplitMix64
    public let mix: Mix
    private var replayer = Replayer()

    public init(seed: UInt64, mix: Mix = .realistic) {
        rng = SplitMix64(seed: seed)
        self.mix = mix
    }

    /// The state after the events generated so far.
    public var state: NavigationState { replayer.state }

    static let screens = ["inbox", "thread", "profile", "settings", "episode", "show", "search", "detail"]
    static let modals = ["composer", "player", "upsell", "share", "editor", "filters", "login"]
    static let tabSets = [["home", "search", "library"], ["inbox", "settings"], ["home", "library"]]

    /// `n` events, folded as they are generated so each fits the state it will meet.
    public mutating func events(_ n: Int) -> [Event] {
        var out: [Event] = []
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(next()) }
        return out
    }

    /// The next event (and applies it to the internal state).
    public mutating func next() -> Event {
        let e: Event
        switch mix {
        case .realistic: e = realistic()
        case .adversarial: e = adversarial()
        case .deepPath: e = .push(route(Self.screens))
        }
        replayer.apply(e)
        return e
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }

    mutating func route(_ ids: [String]) -> RouteRef {
        let id = pick(ids)
        let n = Int64(rng.next() % 1000)
        return RouteRef(id: id, type: "AppRoute", payload: RawJSON(.object(["id": .int(n), "title": .string("\(id) \(n)")])))
    }

    var topToken: UInt64? { state.topPresentation?.token }

    mutating func realistic() -> Event {
        let depth = state.allTokens().count
        // People answer alerts: most of the time the next event taps one of its buttons.
        if let top = state.topPresentation, top.style.isLeaf, chance(70) { return .interactiveDismiss(token: top.token) }
        let roll = rng.next() % 100
        switch roll {
        case 0..<38: return .push(route(Self.screens))
        case 38..<58: return .pop(count: chance(85) ? 1 : 2)
        case 58..<60: return .popToRoot()
        case 60..<70:
            let style: PresentationStyle = chance(80) ? .sheet : pick([.fullScreenCover, .popover])
            return .show(route(Self.modals), style: style, dismissible: !chance(10), placement: depth < 3 && chance(60) ? .onTop : .replacingTop)
        case 70..<74:
            return .show(route(["error", "confirmDelete"]), style: chance(70) ? .alert : .confirmationDialog)
        case 74..<86:
            // Swipes; one in five is SwiftUI's late nil write for something already gone.
            if chance(20) { return .interactiveDismiss(token: UInt64(rng.next() % 64)) }
            return .interactiveDismiss(token: topToken)
        case 86..<94: return .dismiss(chance(80) ? .top : .all)
        case 94..<97:
            if let tabs = state.tabs { return .selectTab(pick(tabs.map(\.id))) }
            return .setTabs(pick(Self.tabSets))
        case 97..<99: return .setTabs(pick(Self.tabSets))
        default:
            return .push(route(Self.screens), frame: .root)
        }
    }

    mutating func adversarial() -> Event {
        let tokens = state.allTokens()
        func token(_ g: inout SessionGenerator) -> UInt64 {
            !tokens.isEmpty && g.chance(70) ? g.pick(tokens) : g.rng.next() % 200
        }
        func frame(_ g: inout SessionGenerator) -> FrameRef? {
            switch g.rng.next() % 4 {
            case 0: return nil
            case 1: return .root
            default: return .presentation(token(&g))
            }
        }
        let ids = Self.screens + Self.modals + [""]
        switch rng.next() % 14 {
        case 0, 1: return .push(route(ids), frame: frame(&self))
        case 2: return .pop(count: Int(rng.next() % 4) - 1 + (chance(50) ? 1 : 0), frame: frame(&self))
        case 3: return .popToRoot(frame: frame(&self))
        case 4, 5, 6:
            let placement: Placement = switch rng.next() % 3 {
            case 0: .replacingTop
            case 1: .onTop
            default: .in(frame(&self) ?? .root)
            }
            return .show(route(chance(30) ? ["editor", "error", ""] : Self.modals), style: pick(PresentationStyle.allCases), dismissible: chance(70), placement: placement)
        case 7: return .dismiss(pick([.top, .all, .token(token(&self))]))
        case 8, 9: return .interactiveDismiss(token: chance(30) ? nil : token(&self))
        case 10:
            var ids = Array(pick(Self.tabSets + [["a", "a"], [], ["x", ""]]))
            if chance(20) { ids.append("extra") }
            return .setTabs(ids, selected: chance(50) ? nil : pick(ids + ["missing"]))
        case 11: return .selectTab(pick(["home", "search", "library", "inbox", "settings", "missing", ""]))
        case 12:
            // A reset to a state taken from a random prefix-like construction, sometimes invalid.
            var s = NavigationState()
            s.apply(.push(route(Self.screens)), seq: 1)
            s.apply(.show(route(Self.modals), style: .sheet), seq: replayer.seq + 1)
            if chance(20) { s.apply(.show(route(Self.modals), style: .alert, placement: .onTop), seq: replayer.seq + 5) }
            return .reset(s)
        default: return .push(route(Self.screens))
        }
    }
}
