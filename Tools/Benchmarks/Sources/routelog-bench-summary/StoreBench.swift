import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// The figures of the LMDB store (`LMDBEventLog`) against their baselines.
enum StoreBench {
    static let batch = 1_000

    /// A store at `path` with one session holding `events`, appended in batches of 1,000.
    /// Returns the session id and the seconds the appends took (the session's creation and the
    /// batches' arrays excluded).
    /// With `digests` (the navigator's, folded before the timing as the navigator folds each call
    /// on the main actor) the batches go through `appendFolded`, as the recorder's do; without,
    /// through `append`, which folds every event on the writer (an import's path).
    static func appendBatched(_ events: [RecordedEvent], digests: [Digest]? = nil, at path: String,
                              durability: LMDBEventLog.Durability, format: UInt32 = LMDBEventLog.newStoreFormat) throws -> (SessionID, Double) {
        var options = LMDBEventLog.Options(durability: durability)
        options.storeFormat = format
        let log = try LMDBEventLog.open(at: path, options: options)
        let session = try log.createSession(NewSession(label: "bench")).id
        // The batches are made before the timing, as the recorder has its batch in hand when it
        // appends (the baselines put records prepared beforehand too).
        let starts = Array(stride(from: 0, to: events.count, by: batch))
        let batches = starts.map { Array(events[$0..<min(events.count, $0 + batch)]) }
        let digestBatches = digests.map { d in starts.map { Array(d[$0..<min(d.count, $0 + batch)]) } }
        let seconds = try Measure.seconds(runs: 1) {
            var seq: UInt64 = 0
            for (k, events) in batches.enumerated() {
                if let digestBatches {
                    try log.appendFolded(events, digests: digestBatches[k], to: session, expectedSeq: seq)
                } else {
                    try log.append(events, to: session, expectedSeq: seq)
                }
                seq += UInt64(events.count)
            }
            try log.flush()
        }[0]
        return (session, seconds)
    }

    /// The digest after each of `events`, folded from the empty state.
    static func digests(_ events: [RecordedEvent]) -> [Digest] {
        var r = Replayer()
        return events.map { r.apply($0.event).digest }
    }

    /// `count` single-event appends, each its own commit.
    static func appendSingles(_ events: ArraySlice<RecordedEvent>, at path: String, durability: LMDBEventLog.Durability) throws -> Double {
        let log = try LMDBEventLog.open(at: path, options: .init(durability: durability))
        let session = try log.createSession(NewSession(label: "bench")).id
        return try Measure.seconds(runs: 1) {
            var seq: UInt64 = 0
            for e in events {
                try log.append(e, to: session, expectedSeq: seq)
                seq += 1
            }
        }[0]
    }

    /// Replay: open the store read-only, read every event (without the digests a read would
    /// fold for), fold it and check each stored digest (format 4: each block's, after its last
    /// event; format 3: every record's) and each stored outcome. `sample` is called every 65,536
    /// events (to watch memory).
    @discardableResult
    static func replay(at path: String, session: SessionID, sample: (() -> Void)? = nil) throws -> (events: UInt64, digest: Digest) {
        let log = try LMDBEventLog.open(at: path, options: .init(readOnly: true))
        var r = Replayer()
        var bad: UInt64?
        try log.readWithoutDigests(session, from: 1, through: .max) { e in
            let step = r.apply(e.event)
            if step.outcome != e.outcome || (e.digest != .zero && step.digest != e.digest) { bad = e.seq; return false }
            if step.seq & 0xFFFF == 0 { sample?() }
            return true
        }
        if let bad { throw BenchError("replay: the outcome or digest after seq \(bad) differs from the stored one") }
        return (r.seq, r.state.digest)
    }

    /// Appends `count` generated events (realistic mix) to a new store in batches, durability
    /// `.none` and one flush at the end, and writes the same events in the baseline layout to a raw
    /// environment. Streams: memory stays bounded whatever `count`.
    /// Without `rawPath`, only the store (in `format`) is written.
    static func buildBig(count: Int, storePath: String, rawPath: String?, format: UInt32 = LMDBEventLog.newStoreFormat) throws -> SessionID {
        var options = LMDBEventLog.Options(durability: .none)
        options.storeFormat = format
        let log = try LMDBEventLog.open(at: storePath, options: options)
        let session = try log.createSession(NewSession(label: "bench-big")).id
        let raw = try rawPath.map { try RawLMDB(path: $0, mapSize: 64 << 30, noSync: true) }
        var generator = SessionGenerator(seed: Workloads.seed, mix: .realistic)
        var stream = BaselineRecords.Stream()
        var seq = 0
        while seq < count {
            let n = min(10 * batch, count - seq)
            var chunk: [RecordedEvent] = []
            chunk.reserveCapacity(n)
            for i in 0..<n { chunk.append(Workloads.recorded(generator.next(), index: seq + i)) }
            var i = 0
            while i < n {
                let end = min(n, i + batch)
                try log.append(Array(chunk[i..<end]), to: session, expectedSeq: UInt64(seq + i))
                i = end
            }
            if let raw { try raw.put(stream.records(chunk), batch: chunk.count) }
            seq += n
            if seq % 1_000_000 == 0 { progress("  \(seq) events written") }
        }
        try log.flush()
        return session
    }

    /// The child process of `replay-rss`: replays and prints the peak `RssAnon` seen, in bytes.
    static func replayRSSChild(path: String, session: String) throws {
        var peak = Measure.rssAnonBytes() ?? 0
        let start = peak
        let result = try replay(at: path, session: SessionID(session)) { peak = max(peak, Measure.rssAnonBytes() ?? 0) }
        peak = max(peak, Measure.rssAnonBytes() ?? 0)
        print("rss-anon-peak \(peak) start \(start) events \(result.events)")
    }

    /// Runs ``replayRSSChild(path:session:)`` in a new process and returns (peak, start) bytes.
    static func replayRSS(path: String, session: SessionID) throws -> (peak: Int, start: Int) {
        let (status, text) = try Measure.inNewProcess(["--replay-rss", path, session.rawValue])
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard status == 0, parts.count >= 4, parts[0] == "rss-anon-peak", let peak = Int(parts[1]), let start = Int(parts[3]) else {
            throw BenchError("replay-rss child failed (status \(status)): \(text)")
        }
        return (peak, start)
    }

}
