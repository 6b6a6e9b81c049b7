@_spi(Benchmarks) import RouteLogCore

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

/// What a fold leaves behind, so the optimizer cannot drop the work and runs can be compared.
public struct FoldResult: Hashable, Sendable {
    public var applied: Int
    public var rejected: Int
    /// The digest after the last event (from scratch for the pure fold, computed after timing).
    public var digest: Digest
}

/// The folds measured by the benchmarks.
public enum Folds {
    /// The pure fold: the reducer without digest upkeep.
    @inline(never)
    public static func pure(_ events: [Event]) -> (NavigationState, applied: Int) {
        var state = NavigationState()
        var applied = 0
        var seq: UInt64 = 0
        for e in events {
            seq += 1
            if state.applyWithoutDigest(e, seq: seq).isApplied { applied += 1 }
        }
        return (state, applied)
    }

    /// The fold with the incremental digest, as every replay does it.
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
}

extension Folds {
    /// One step of the pure fold; `true` when the event applied.
    @inline(__always)
    public static func applyPure(_ state: inout NavigationState, _ event: Event, seq: UInt64) -> Bool {
        state.applyWithoutDigest(event, seq: seq).isApplied
    }
}
