@_spi(Tools) import RouteLogCore

/// Keys and values laid out contiguously, to be written by the store baselines without
/// per-record allocations getting in the way of what is measured.
public struct RecordSet: Sendable {
    public private(set) var keys: [UInt8] = []
    public private(set) var values: [UInt8] = []
    /// `values[valueStarts[i] ..< valueStarts[i + 1]]` is the `i`-th value.
    public private(set) var valueStarts: [Int] = [0]
    public let keyLength: Int

    public init(keyLength: Int) { self.keyLength = keyLength }

    public var count: Int { valueStarts.count - 1 }
    public var totalValueBytes: Int { values.count }

    public mutating func append(key: some Collection<UInt8>, value: some Collection<UInt8>) {
        precondition(key.count == keyLength, "every key has \(keyLength) bytes")
        keys.append(contentsOf: key)
        values.append(contentsOf: value)
        valueStarts.append(values.count)
    }

    public func key(_ i: Int) -> ArraySlice<UInt8> { keys[(i * keyLength)..<((i + 1) * keyLength)] }
    public func value(_ i: Int) -> ArraySlice<UInt8> { values[valueStarts[i]..<valueStarts[i + 1]] }
}

/// The layout of the baselines' records: key = 16-byte session id ‖ big-endian seq (natural order,
/// as in the store), value = the event's encoding followed by the integrity fields a store record
/// carries (checksum, previous-record hash, state digest).
public enum BaselineRecords {
    public static let keyLength = 24
    /// Checksum (8) + previous record's hash (16) + digest after the event (16).
    public static let integrityBytes = 40

    public static func key(session: [UInt8], seq: UInt64) -> [UInt8] {
        precondition(session.count == 16)
        var k = session
        for i in (0..<8).reversed() { k.append(UInt8(truncatingIfNeeded: seq >> (8 * UInt64(i)))) }
        return k
    }

    /// The session id bytes of the baselines' session.
    public static let session: [UInt8] = Array(0x10...0x1F)

    /// Records for `events`, numbered from seq 1, with digests from a fold.
    public static func make(_ events: [RecordedEvent]) -> RecordSet {
        var stream = Stream()
        return stream.records(events)
    }

    /// Makes the records of a session chunk by chunk (seqs, digests and the chain continue).
    public struct Stream {
        var state = NavigationState()
        var previous = Digest.zero
        var seq: UInt64 = 0

        public init() {}

        /// The records of the next `events` of the session.
        public mutating func records(_ events: [RecordedEvent]) -> RecordSet {
            var set = RecordSet(keyLength: keyLength)
            for e in events {
                seq += 1
                state.apply(e.event, seq: seq)
                var value = EventBytes.encode(e)
                let body = StableHash.of(value)
                append(body.lo, to: &value)
                append(previous.hi, to: &value)
                append(previous.lo, to: &value)
                append(state.digest.hi, to: &value)
                append(state.digest.lo, to: &value)
                previous = StableHash.of(value)
                set.append(key: key(session: session, seq: seq), value: value)
            }
            return set
        }
    }

    static func append(_ v: UInt64, to out: inout [UInt8]) {
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    /// The event bytes at the front of a baseline record.
    public static func eventBytes(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: value[0..<(value.count - integrityBytes)])
    }
}

enum StableHash {
    static func of(_ bytes: [UInt8]) -> Digest {
        var h = StableHasher()
        bytes.withUnsafeBufferPointer { h.combine(bytes: $0) }
        return h.finalize()
    }
}
