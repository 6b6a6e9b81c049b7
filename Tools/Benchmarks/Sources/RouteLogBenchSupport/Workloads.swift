@_spi(Benchmarks) @_spi(Tools) import RouteLogCore

/// The event sessions the benchmarks run on, generated deterministically from a seed.
public enum Workloads {
    /// The seed of every generated session, so two runs measure the same events.
    public static let seed: UInt64 = 0x526F_7574_654C_6F67 // "RouteLog"

    /// `count` events of the realistic mix: push-heavy, with nested sheets, alerts and swipes.
    public static func realistic(_ count: Int, seed: UInt64 = Workloads.seed) -> [Event] {
        var g = SessionGenerator(seed: seed, mix: .realistic)
        return g.events(count)
    }

    /// `count` pushes: the path grows to `count` routes.
    public static func deepPath(_ count: Int, seed: UInt64 = Workloads.seed) -> [Event] {
        var g = SessionGenerator(seed: seed, mix: .deepPath)
        return g.events(count)
    }

    /// Events with realistic metadata (a timestamp every few milliseconds, app or user origin), as
    /// an app records them.
    public static func recorded(_ events: [Event], startMilliseconds: Int64 = 1_795_000_000_000) -> [RecordedEvent] {
        var out: [RecordedEvent] = []
        out.reserveCapacity(events.count)
        for (i, e) in events.enumerated() { out.append(recorded(e, index: i, startMilliseconds: startMilliseconds)) }
        return out
    }

    /// One event with the metadata ``recorded(_:startMilliseconds:)`` gives the `index`-th event.
    public static func recorded(_ event: Event, index: Int, startMilliseconds: Int64 = 1_795_000_000_000) -> RecordedEvent {
        let origin: Origin = if case .interactiveDismiss = event { .user } else { .app }
        return RecordedEvent(event, meta: EventMetadata(timestamp: startMilliseconds + Int64(index) * 7, origin: origin))
    }
}

/// The folds measured by the benchmarks.
public enum Folds {
    /// The fold: the reducer (`apply`), which keeps the incremental digest, as every replay does it.
    @inline(never)
    public static func withDigest(_ events: [Event]) -> (NavigationState, applied: Int) {
        var state = NavigationState()
        var applied = 0
        var seq: UInt64 = 0
        for e in events {
            seq += 1
            if state.apply(e, seq: seq).isApplied { applied += 1 }
        }
        return (state, applied)
    }

    /// One step of the fold; `true` when the event applied.
    @inline(__always)
    public static func apply(_ state: inout NavigationState, _ event: Event, seq: UInt64) -> Bool {
        state.apply(event, seq: seq).isApplied
    }

    /// The digest's own work on a session, without the reducer: the term of every route a `push`
    /// adds and of every presentation a `show` creates, each hashed twice (once when the reducer
    /// adds it, once when it removes it). Rejected events and in-place updates are counted too, and
    /// tab layouts are left out (the realistic mix has none), so this bounds what the digest adds
    /// to `withDigest`. Returns the terms' sum so the work cannot be dropped.
    @inline(never)
    public static func digestTerms(_ events: [Event]) -> Digest {
        var sum = Digest.zero
        var seq: UInt64 = 0
        for e in events {
            seq += 1
            switch e {
            case .push(let route, let frame):
                let term = Digest.pathTerm(frame ?? .root, tabID: "", index: Int(seq & 15), route: route)
                sum += term
                sum += Digest.pathTerm(frame ?? .root, tabID: "", index: Int(seq & 15), route: route)
            case .show(let route, let style, let dismissible, _):
                let p = Presentation(token: seq, route: route, style: style, dismissible: dismissible)
                sum += Digest.presentationTerm(.root, tabID: "", p)
                sum += Digest.presentationTerm(.root, tabID: "", p)
            default:
                break
            }
        }
        return sum
    }
}
