import Foundation
@_spi(Tools) import RouteLogCore

/// A `Decodable` view of any JSON value, so Foundation's `JSONDecoder` can read RouteLog's events:
/// the JSON baseline decodes with `JSONDecoder` into this, then builds the event with `Event(json:)`.
public struct DecodedJSON: Decodable, Sendable {
    public var value: JSONValue

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    // Objects first (most values in an event are), then the scalars, strings first; arrays last.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var out: [String: JSONValue] = [:]
            for key in object.allKeys { out[key.stringValue] = try object.decode(DecodedJSON.self, forKey: key).value }
            value = .object(out)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let s = try? single.decode(String.self) {
            value = .string(s)
        } else if let i = try? single.decode(Int64.self) {
            value = .int(i)
        } else if let b = try? single.decode(Bool.self) {
            value = .bool(b)
        } else if let d = try? single.decode(Double.self) {
            value = .double(d)
        } else {
            var array = try decoder.unkeyedContainer()
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(DecodedJSON.self).value) }
            value = .array(items)
        }
    }
}

/// The JSON baselines: events as JSON Lines, read back with `JSONDecoder`.
public enum JSONBaseline {
    /// One canonical JSON text per event, as UTF-8 bytes.
    public static func lines(_ events: [RecordedEvent]) -> [Data] {
        events.map { Data($0.canonicalJSON.utf8) }
    }

    /// JSON Lines text of `events`, one event per line.
    public static func jsonLines(_ events: [RecordedEvent]) -> Data {
        var out = Data()
        for e in events {
            out.append(contentsOf: e.canonicalJSON.utf8)
            out.append(0x0A)
        }
        return out
    }

    /// Decodes each line with `JSONDecoder` and folds the events: `json-decode+fold`.
    @inline(never)
    public static func decodeAndFold(_ lines: [Data]) throws -> (NavigationState, applied: Int) {
        let decoder = JSONDecoder()
        var state = NavigationState()
        var applied = 0
        var seq: UInt64 = 0
        for line in lines {
            let recorded = try RecordedEvent(json: try decoder.decode(DecodedJSON.self, from: line).value)
            seq += 1
            if Folds.apply(&state, recorded.event, seq: seq) { applied += 1 }
        }
        return (state, applied)
    }

    /// Reads a JSON Lines file, decodes every line with `JSONDecoder` and folds with the digest:
    /// `jsonl-replay`. Streams the file in chunks, so memory stays bounded.
    @inline(never)
    public static func replayFile(at path: String) throws -> (NavigationState, events: Int) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError("cannot open \(path)") }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var state = NavigationState()
        var seq: UInt64 = 0
        var pending = Data()
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            pending.append(chunk)
            var start = pending.startIndex
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                let recorded = try RecordedEvent(json: try decoder.decode(DecodedJSON.self, from: pending[start..<nl]).value)
                seq += 1
                state.apply(recorded.event, seq: seq)
                start = pending.index(after: nl)
            }
            pending = Data(pending[start...])
        }
        return (state, Int(seq))
    }
}

/// A benchmark harness failure: what went wrong, in one line.
public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
