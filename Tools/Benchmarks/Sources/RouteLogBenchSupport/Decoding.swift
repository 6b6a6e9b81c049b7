@_spi(Tools) import RouteLogCore

/// Decoding folds: events read back from bytes, then folded.
public enum DecodingFolds {
    /// The encoded events of `events` (``EventBytes``), one value per event.
    public static func encode(_ events: [RecordedEvent]) -> RecordSet {
        var set = RecordSet(keyLength: 0)
        for e in events { set.append(key: EmptyCollection(), value: EventBytes.encode(e)) }
        return set
    }

    /// Decodes every value and folds with the digest: `decode+fold+digest`.
    @inline(never)
    public static func decodeFoldDigest(_ set: RecordSet) throws -> (NavigationState, applied: Int) {
        var state = NavigationState()
        var applied = 0
        try set.values.withUnsafeBytes { bytes in
            for i in 0..<set.count {
                let e = try EventBytes.decode(UnsafeRawBufferPointer(rebasing: bytes[set.valueStarts[i]..<set.valueStarts[i + 1]]))
                if state.apply(e.event, seq: UInt64(i + 1)).isApplied { applied += 1 }
            }
        }
        return (state, applied)
    }

    /// A raw cursor scan of a baseline environment, decoding each record's event and folding it
    /// (the reducer, digest upkeep included): `raw-scan+fold`.
    @inline(never)
    public static func rawScanFold(_ env: RawLMDB) throws -> (NavigationState, events: Int) {
        var state = NavigationState()
        var seq: UInt64 = 0
        try env.scan { _, value in
            let e = try EventBytes.decode(BaselineRecords.eventBytes(value))
            seq += 1
            _ = Folds.apply(&state, e.event, seq: seq)
        }
        return (state, Int(seq))
    }
}
