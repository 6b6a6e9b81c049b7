import Foundation
@_spi(Tools) import RouteLogCore

/// `n` recorded events from a seeded generator; event `i` gets `meta(i)`. The default: timestamps
/// counting up from `startTime` one millisecond apart, every third event the user's.
package func generatedEvents(
    _ n: Int, seed: UInt64, mix: SessionGenerator.Mix = .realistic, startTime: Int64 = 1_700_000_000_000,
    meta: ((Int) -> EventMetadata)? = nil
) -> [RecordedEvent] {
    var g = SessionGenerator(seed: seed, mix: mix)
    return g.events(n).enumerated().map { i, e in
        RecordedEvent(e, meta: meta?(i) ?? EventMetadata(timestamp: startTime + Int64(i), origin: i % 3 == 0 ? .user : .app))
    }
}

/// The batches a `routelog-lmdb-crashtest write` child appends for `seed`: 1–8 events each from a
/// seeded generator, each event stamped with its seq. The tests compute the same batches to check
/// what was stored.
package func writerBatches(seed: UInt64) -> some Sequence<[RecordedEvent]> {
    var generator = SessionGenerator(seed: seed)
    var rng = SplitMix64(seed: seed ^ 0x5EED)
    var seq: Int64 = 0
    return AnyIterator {
        let n = Int(rng.next() % 8) + 1
        defer { seq += Int64(n) }
        return generator.events(n).enumerated().map { i, e in RecordedEvent(e, meta: EventMetadata(timestamp: seq + Int64(i) + 1)) }
    }.lazy
}

/// The first `count` events of ``writerBatches(seed:)``.
package func writerEvents(seed: UInt64, count: Int) -> [RecordedEvent] {
    Array(writerBatches(seed: seed).joined().prefix(count))
}

/// A seed from the clock (milliseconds, 32 bits), for tests that try new random moments each run
/// and name the seed in their failures.
package func clockSeed() -> UInt64 {
    UInt64(Date().timeIntervalSince1970 * 1000) & 0xFFFF_FFFF
}
