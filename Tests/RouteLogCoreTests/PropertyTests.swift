import Foundation
import Testing
@_spi(Tools) @testable import RouteLogCore

/// Seeded property tests over long generated sessions.
///
/// Every failure message starts with the seed and the mix. To rerun one seed:
/// `ROUTELOG_PROPERTY_SEED=17 swift test --filter PropertyTests`.
@Suite struct PropertyTests {
    static let mixes: [SessionGenerator.Mix] = [.realistic, .adversarial]

    static var seeds: [UInt64] {
        if let s = ProcessInfo.processInfo.environment["ROUTELOG_PROPERTY_SEED"], let seed = UInt64(s) { return [seed] }
        return [1, 2, 0xDEAD_BEEF]
    }

    /// Session lengths, kept so the suite takes a few seconds in a debug build.
    static func length(_ mix: SessionGenerator.Mix) -> Int { mix == .realistic ? 4000 : 2000 }

    /// A session and the fold of it: the state before any event and after each one.
    struct Session {
        var seed: UInt64
        var mix: SessionGenerator.Mix
        var events: [RecordedEvent]
        var steps: [ReplayStep]
        var states: [NavigationState]

        /// `seed 3 adversarial` plus how to rerun it, for failure messages.
        var label: String { "seed \(seed) \(mix) (rerun: ROUTELOG_PROPERTY_SEED=\(seed))" }
    }

    static func session(seed: UInt64, mix: SessionGenerator.Mix, count: Int) -> Session {
        var g = SessionGenerator(seed: seed, mix: mix)
        var meta = MetadataGenerator(seed: seed ^ 0x5EED)
        var r = Replayer()
        var s = Session(seed: seed, mix: mix, events: [], steps: [], states: [r.state])
        s.events.reserveCapacity(count)
        for _ in 0..<count {
            let e = RecordedEvent(g.next(), meta: meta.next())
            s.events.append(e)
            s.steps.append(r.apply(e.event))
            s.states.append(r.state)
        }
        return s
    }

    // MARK: - The reducer

    @Test(arguments: mixes + [.deepPath], seeds)
    func aFoldWithoutTheDigestGivesTheSameOutcomesAndStates(mix: SessionGenerator.Mix, seed: UInt64) throws {
        // `applyWithoutDigest` (a store checking a batch its caller folded) against `apply`: the
        // same outcome every event, the same state once its digest is refreshed, at a sample of
        // steps (a refresh costs O(state)) and at the end.
        var g = SessionGenerator(seed: seed, mix: mix)
        var r = Replayer()
        var light = NavigationState()
        let n = Self.length(mix)
        let label = "seed \(seed) \(mix) (rerun: ROUTELOG_PROPERTY_SEED=\(seed))"
        var stale = 0
        for i in 1...n {
            let e = g.next()
            let step = r.apply(e)
            let outcome = light.applyWithoutDigest(e, seq: UInt64(i))
            #expect(outcome == step.outcome, "\(label) event \(i): \(e.canonicalJSON)")
            if outcome != step.outcome { break }
            if light.digest != step.digest { stale += 1 }
            if i % 13 == 0 || i == n {
                var refreshed = light
                #expect(refreshed.refreshDigest() == step.digest, "\(label) event \(i)")
                #expect(refreshed == r.state, "\(label) event \(i)")
            }
        }
        // The digest really was left stale (else the light fold still hashed every term).
        #expect(stale > n / 2, "\(label): the digest was kept up to date at \(n - stale) of \(n) steps")
    }

    @Test(arguments: mixes, seeds)
    func invariantsRejectionsAndDigests(mix: SessionGenerator.Mix, seed: UInt64) throws {
        var g = SessionGenerator(seed: seed, mix: mix)
        var r = Replayer()
        let n = Self.length(mix)
        let label = "seed \(seed) \(mix) (rerun: ROUTELOG_PROPERTY_SEED=\(seed))"
        var outcomes: [String: Int] = [:]
        var failures = 0
        for i in 1...n {
            let before = r.state
            let e = g.next()
            let step = r.apply(e)
            outcomes[step.outcome.description, default: 0] += 1
            var ok = true
            if !step.outcome.isApplied {
                ok = r.state == before && r.state.digest == before.digest
                #expect(ok, "\(label) event \(i): rejected \(e.canonicalJSON) changed the state")
            }
            let violations = r.state.validate()
            if !violations.isEmpty {
                ok = false
                Issue.record("\(label) event \(i): \(e.canonicalJSON) broke invariants: \(violations)")
            }
            #expect(step.digest == r.state.digest)
            // A from-scratch digest costs O(state): check a sample of steps and the last one.
            if i % 7 == 0 || i == n || step.outcome.reason == nil && e.kind != .push && e.kind != .pop {
                let full = r.state.computeDigest()
                if full != r.state.digest {
                    ok = false
                    Issue.record("\(label) event \(i): \(e.canonicalJSON): incremental digest \(r.state.digest) != from scratch \(full)")
                }
            }
            if !ok {
                failures += 1
                if failures > 5 { break }
            }
        }
        // The generator folds the same events: its state must agree.
        #expect(g.state == r.state, "\(label)")
        // The run exercised both outcomes (a generator change that makes everything apply, or
        // everything fail, would make this test vacuous).
        let rejected = outcomes.filter { $0.key.hasPrefix("rejected") }.values.reduce(0, +)
        #expect(rejected > 0 && rejected < n * 3 / 4, "\(label): \(outcomes)")
        if mix == .adversarial {
            let reasons = Set(outcomes.keys.compactMap { Outcome($0)?.reason })
            #expect(reasons.count >= 10, "\(label): only \(reasons.sorted { $0.rawValue < $1.rawValue })")
        }
    }

    @Test(arguments: mixes, seeds)
    func replaysAreIdentical(mix: SessionGenerator.Mix, seed: UInt64) throws {
        let s = Self.session(seed: seed, mix: mix, count: Self.length(mix) / 2)
        let events = s.events.map(\.event)
        let a = replay(events)
        let b = replay(events)
        #expect(a == b, "\(s.label)")
        #expect(a.steps == s.steps, "\(s.label)")
        #expect(a.state == s.states.last && a.state.digest == s.states.last?.digest, "\(s.label)")
        // A second generator with the same seed produces the same session.
        let again = Self.session(seed: seed, mix: mix, count: Self.length(mix) / 2)
        #expect(again.events == s.events && again.steps == s.steps, "\(s.label)")
    }

    // MARK: - Codecs

    @Test(arguments: mixes, seeds)
    func binaryRoundTripsAreExact(mix: SessionGenerator.Mix, seed: UInt64) throws {
        let s = Self.session(seed: seed, mix: mix, count: Self.length(mix))
        // One event at a time, and the whole session as one stream.
        var stream: [UInt8] = []
        for (i, e) in s.events.enumerated() {
            let bytes = BinaryCodec.encode(e)
            let back = try BinaryCodec.decodeRecordedEvent(bytes)
            #expect(back == e, "\(s.label) event \(i + 1): \(e.event.canonicalJSON)")
            #expect(try BinaryCodec.decodeEvent(BinaryCodec.encode(e.event)) == e.event, "\(s.label) event \(i + 1)")
            BinaryCodec.encode(e, into: &stream)
        }
        var folded = Replayer()
        try stream.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            for (i, e) in s.events.enumerated() {
                try reader.readFormatVersion()
                let back = try reader.readRecordedEvent()
                #expect(back == e, "\(s.label) event \(i + 1) in the stream")
                let step = folded.apply(back.event)
                #expect(step == s.steps[i], "\(s.label) event \(i + 1)")
            }
            try reader.expectEnd()
        }
        // States: a sample of the fold's states, decoded with validation, keep their digests.
        for i in stride(from: 0, to: s.states.count, by: 13) {
            let state = s.states[i]
            let bytes = BinaryCodec.encode(state)
            let back = try BinaryCodec.decodeState(bytes)
            #expect(back == state, "\(s.label) state after event \(i)")
            #expect(back.digest == state.digest, "\(s.label) state after event \(i)")
            #expect(BinaryCodec.encode(back) == bytes, "\(s.label) state after event \(i)")
        }
    }

    @Test(arguments: mixes, seeds)
    func jsonRoundTripsAreExact(mix: SessionGenerator.Mix, seed: UInt64) throws {
        let s = Self.session(seed: seed, mix: mix, count: Self.length(mix) / 2)
        for (i, e) in s.events.enumerated() where i % 2 == 0 || e.event.kind == .reset {
            let text = e.canonicalJSON
            let back = try RecordedEvent(jsonText: text)
            #expect(back == e, "\(s.label) event \(i + 1): \(text)")
            #expect(back.canonicalJSON == text, "\(s.label) event \(i + 1)")
        }
        for i in stride(from: 0, to: s.states.count, by: 23) {
            let state = s.states[i]
            let back = try NavigationState(jsonText: state.canonicalJSON)
            #expect(back == state && back.digest == state.digest, "\(s.label) state after event \(i)")
        }
    }

    /// Timestamps ISO 8601 text cannot hold (a broken clock) are written as milliseconds, never
    /// trap, and round-trip through both codecs.
    @Test func extremeTimestampsRoundTrip() throws {
        for ts: Int64 in [.min, .min + 1, .min + 999, -62_135_596_800_001, -62_135_596_800_000, -1001, -1, 1,
                          253_402_300_799_999, 253_402_300_800_000, .max] {
            let e = RecordedEvent(.dismiss(), meta: EventMetadata(timestamp: ts, origin: .system))
            let text = e.canonicalJSON
            #expect(text.contains(ISO8601.range.contains(ts) ? "\"time\":\"" : "\"time\":\(ts)"), "\(text)")
            #expect(try RecordedEvent(jsonText: text) == e, "\(text)")
            #expect(try BinaryCodec.decodeRecordedEvent(BinaryCodec.encode(e)) == e, "\(ts)")
        }
        #expect(ISO8601.format(milliseconds: ISO8601.range.lowerBound) == "0001-01-01T00:00:00.000Z")
        #expect(ISO8601.format(milliseconds: ISO8601.range.upperBound) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }

    // MARK: - Time travel

    @Test(arguments: mixes, seeds)
    func stateAtEqualsFoldOfPrefix(mix: SessionGenerator.Mix, seed: UInt64) throws {
        let s = Self.session(seed: seed, mix: mix, count: Self.length(mix) / 2)
        var rng = SplitMix64(seed: seed ^ 0x7137)
        for interval in [UInt64(1), 7, 64] {
            let log = InMemoryEventLog(snapshotInterval: interval, clock: { 1_763_000_000_000 })
            let id = try log.createSession(NewSession(label: "property")).id
            // Appends in batches of random sizes, each checked against the fold.
            var next = 0
            while next < s.events.count {
                let size = min(Int(rng.next() % 25) + 1, s.events.count - next)
                let stored = try log.append(Array(s.events[next ..< next + size]), to: id, expectedSeq: UInt64(next))
                for (k, e) in stored.enumerated() {
                    let step = s.steps[next + k]
                    #expect(e.seq == step.seq && e.outcome == step.outcome && e.digest == step.digest, "\(s.label) seq \(step.seq)")
                }
                next += size
            }
            let count = UInt64(s.events.count)
            #expect(try log.session(id).eventCount == count)
            #expect(try log.session(id).headDigest == s.states.last?.digest)
            #expect(throws: EventLogError.conflict(session: id, expected: 1, actual: count)) {
                try log.append(s.events[0], to: id, expectedSeq: 1)
            }
            #expect(throws: EventLogError.seqOutOfRange(session: id, seq: count + 1, count: count)) {
                try log.state(of: id, at: count + 1)
            }
            // Every seq near the start and around snapshot boundaries, and a random sample.
            var seqs = Set<UInt64>(0...min(count, 40))
            for k in stride(from: interval, through: count, by: Int(interval) * 5) {
                seqs.insert(k - 1)
                seqs.insert(k)
                seqs.insert(min(k + 1, count))
            }
            for _ in 0..<100 { seqs.insert(rng.next() % (count + 1)) }
            seqs.insert(count)
            for seq in seqs.sorted() {
                let state = try log.state(of: id, at: seq)
                let expected = s.states[Int(seq)]
                #expect(state == expected, "\(s.label) interval \(interval) seq \(seq)")
                #expect(state.digest == expected.digest, "\(s.label) interval \(interval) seq \(seq)")
            }
            // Snapshots sit at multiples of the interval and hold the fold's state there.
            if let snap = try log.snapshot(id, atOrBefore: count) {
                #expect(snap.seq % interval == 0 && snap.seq <= count && count - snap.seq < interval, "\(s.label)")
                #expect(snap.state == s.states[Int(snap.seq)], "\(s.label)")
            } else {
                #expect(count < interval, "\(s.label): no snapshot")
            }
        }
    }
}

/// Random event metadata: times from 1906 to 2100 and some anywhere in Int64, call sites and notes with
/// quotes, colons, newlines and non-ASCII text.
struct MetadataGenerator {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    static let files = ["Sources/App/Router.swift", "Feature/Inbox/InboxView.swift", "Ünïcode/Vüe.swift", "a:b/c.swift", "x"]
    static let notes = ["", "deep link", "tap \"Done\"", "line1\nline2", "swipe ↓ 🚀", "tab\tseparated", "back\\slash"]

    mutating func next() -> EventMetadata {
        var m = EventMetadata()
        switch rng.next() % 5 {
        case 0: m.timestamp = 0
        case 1: m.timestamp = -Int64(rng.next() % 2_000_000_000_000)
        case 2: m.timestamp = Int64(bitPattern: rng.next()) // a broken clock: any value at all
        default: m.timestamp = 1_600_000_000_000 + Int64(rng.next() % 2_500_000_000_000)
        }
        m.origin = Origin.allCases[Int(rng.next() % UInt64(Origin.allCases.count))]
        if rng.next() % 2 == 0 {
            m.callSite = CallSite(file: Self.files[Int(rng.next() % UInt64(Self.files.count))], line: Int(rng.next() % 5000) - 10)
        }
        if rng.next() % 3 == 0 { m.note = Self.notes[Int(rng.next() % UInt64(Self.notes.count))] }
        return m
    }
}
