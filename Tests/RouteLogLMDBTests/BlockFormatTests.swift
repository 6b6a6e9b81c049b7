import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// The first seq and the event count of each block of the session with `prefix`, as stored.
private func blocks(_ log: LMDBEventLog, prefix: [UInt8]) throws -> [(first: UInt64, count: Int, bytes: Int)] {
    let db = try log.environment.database(named: "events")
    return try log.environment.withReadTransaction { txn in
        var out: [(UInt64, Int, Int)] = []
        try txn.forEach(in: db, from: StoreKey.event(prefix, 0)) { k, v in
            guard let first = StoreKey.seq(k, session: prefix) else { return false }
            out.append((first, Int(v[1]), v.count))
            return true
        }
        return out
    }
}

/// Rewrites the block of `prefix` at `first` with `edit` applied to its bytes before the
/// checksum, and a fresh checksum chained to the block before it: damage no checksum sees.
private func reseal(_ log: LMDBEventLog, prefix: [UInt8], first: UInt64, previous: Digest, _ edit: (inout [UInt8]) -> Void) throws {
    let db = try log.environment.database(named: "events")
    try log.environment.withWriteTransaction { txn in
        var bytes = try #require(try txn.value(forKey: StoreKey.event(prefix, first), in: db))
        bytes.removeLast(16)
        edit(&bytes)
        let sum = bytes.withUnsafeBytes { chainedChecksum(previous: previous, $0) }
        var w = BinaryWriter()
        w.write(sum)
        try txn.put(bytes + w.bytes, forKey: StoreKey.event(prefix, first), in: db)
    }
}

/// Flips a bit of the first event's payload in the block of `prefix` at `first`, leaving its
/// checksum as it was (damage the checksum sees).
private func flipByte(_ log: LMDBEventLog, prefix: [UInt8], block first: UInt64) throws {
    let db = try log.environment.database(named: "events")
    try log.environment.withWriteTransaction { txn in
        var bytes = try #require(try txn.value(forKey: StoreKey.event(prefix, first), in: db))
        bytes[BlockCodec.headerSize + 5] ^= 0x20
        try txn.put(bytes, forKey: StoreKey.event(prefix, first), in: db)
    }
}

/// A format-4 and a format-3 store under `dir` (snapshots every 200 events), each with one
/// session of `events` appended in batches of 300.
private func bothFormats(_ dir: TempDir, _ events: [RecordedEvent]) throws -> (v4: LMDBEventLog, id4: SessionID, v3: LMDBEventLog, id3: SessionID) {
    let v4 = try LMDBEventLog.open(at: dir.path + "/v4", options: testOptions(snapshotInterval: 200))
    let v3 = try LMDBEventLog.open(at: dir.path + "/v3", options: testOptions(snapshotInterval: 200, format: 3))
    var ids: [SessionID] = []
    for log in [v4, v3] {
        let info = try log.createSession(NewSession(label: "same"))
        ids.append(info.id)
        var seq: UInt64 = 0
        for batch in stride(from: 0, to: events.count, by: 300) {
            let part = Array(events[batch..<min(events.count, batch + 300)])
            try log.append(part, to: info.id, expectedSeq: seq)
            seq += UInt64(part.count)
        }
    }
    return (v4, ids[0], v3, ids[1])
}

@Suite("LMDBEventLog format 4: events in blocks", .tags(.appleLocks))
struct BlockFormatTests {
    /// A new store is format 4, its events in a few blocks of at most 4,080 bytes; reads give
    /// what a format-3 store of the same events gives: events, outcomes, digests and states.
    @Test func blocksReadAsRecordsDo() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = metadataEvents(1_500, seed: 41)
        let (v4, id4, v3, id3) = try bothFormats(dir, events)
        let ids = [id4, id3]
        #expect(v4.storeFormat == 4 && v3.storeFormat == 3)
        let stored4 = try v4.events(ids[0]), stored3 = try v3.events(ids[1])
        #expect(stored4 == stored3)
        #expect(stored4.map(\.recorded) == events)
        let layout = try blocks(v4, prefix: StoreKey.eventPrefix(try v4.session(ids[0])))
        #expect(layout.count > 1 && layout.count < events.count / 20, "\(layout.count) blocks")
        #expect(layout.allSatisfy { $0.bytes <= BlockCodec.capacity })
        #expect(layout.map(\.count).reduce(0, +) == events.count)
        for seq: UInt64 in [0, 1, 63, 64, 199, 200, 201, 777, 1_499, 1_500] {
            #expect(try v4.state(of: ids[0], at: seq) == (try v3.state(of: ids[1], at: seq)), "state at \(seq)")
        }
        // A read from inside a block, and across a block's end, folds from the snapshot before it.
        let from = layout[2].first + 3
        #expect(try v4.events(ids[0], from: from, through: from + 200) == Array(stored3[Int(from - 1)..<Int(from + 200)]))
        #expect(try v4.verify(session: ids[0]).isValid)
        #expect(try v4.session(ids[0]).headDigest == (try v3.session(ids[1])).headDigest)
    }

    /// A read without digests gives the events and outcomes a read gives, from any seq, with no
    /// digest but each block's own after its last event (nothing folded); a format-3 store's
    /// records give their stored digests; a damaged block ends it after the events before it,
    /// with the read's error.
    @Test func readsWithoutDigestsFoldNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (v4, id4, v3, id3) = try bothFormats(dir, metadataEvents(900, seed: 44))
        func plain(_ log: LMDBEventLog, _ id: SessionID, from: UInt64, through: UInt64) throws -> [StoredEvent] {
            var out: [StoredEvent] = []
            try log.readWithoutDigests(id, from: from, through: through) { out.append($0); return true }
            return out
        }
        let prefix = StoreKey.eventPrefix(try v4.session(id4))
        let layout = try blocks(v4, prefix: prefix)
        try #require(layout.count >= 4)
        for (from, through) in [(1, 900), (layout[1].first + 2, layout[3].first + 1), (899, 900), (901, 950)] as [(UInt64, UInt64)] {
            let read = try v4.events(id4, from: from, through: through)
            let unfolded = try plain(v4, id4, from: from, through: through)
            #expect(unfolded.map(\.seq) == read.map(\.seq) && unfolded.map(\.recorded) == read.map(\.recorded))
            #expect(unfolded.map(\.outcome) == read.map(\.outcome))
            let ends = Set(layout.map { $0.first + UInt64($0.count) - 1 })
            #expect(zip(unfolded, read).allSatisfy { u, r in u.digest == (ends.contains(u.seq) ? r.digest : .zero) })
            #expect(unfolded.contains { ends.contains($0.seq) } == read.contains { ends.contains($0.seq) })
            #expect(try plain(v3, id3, from: from, through: through) == (try v3.events(id3, from: from, through: through)))
        }
        var stopped: [UInt64] = []
        try v4.readWithoutDigests(id4, from: 10, through: 900) { stopped.append($0.seq); return stopped.count < 3 }
        #expect(stopped == [10, 11, 12])
        // The third block damaged: the events of the first two, then the error.
        let victim = layout[2].first
        try flipByte(v4, prefix: prefix, block: victim)
        var seen: [UInt64] = []
        #expect(throws: LMDBEventLogError.corruptRecord(session: id4, seq: victim, reason: "checksum mismatch (the block of seq \(victim) on)")) {
            try v4.readWithoutDigests(id4, from: 1, through: 900) { seen.append($0.seq); return true }
        }
        #expect(seen == Array(1..<victim))
    }

    /// One event an append (a recorder that drains one at a time) rewrites the open block; a log
    /// opened again continues it from the store.
    @Test func singleEventAppendsFillTheOpenBlock() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = metadataEvents(400, seed: 42)
        var log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 100))
        let info = try log.createSession(NewSession(label: "one by one"))
        for (i, e) in events.enumerated() {
            if i == 250 { log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 100)) }
            try log.append([e], to: info.id, expectedSeq: UInt64(i))
        }
        let layout = try blocks(log, prefix: StoreKey.eventPrefix(info))
        #expect(layout.count >= 2 && layout.count <= 400 / 30, "\(layout.map(\.count))")
        #expect(try log.events(info.id).map(\.recorded) == events)
        #expect(try log.events(info.id).map(\.digest) == replay(events.map(\.event)).steps.map(\.digest))
        #expect(try log.verify(session: info.id).isValid)
    }

    /// A changed byte in a block fails that block, named by its first seq; the blocks before it
    /// still read.
    @Test func damageIsLocatedToABlock() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (log, info) = try storeWithSession(at: dir)
        try log.append(generatedEvents(600, seed: 43), to: info.id, expectedSeq: 0)
        let prefix = StoreKey.eventPrefix(info)
        let layout = try blocks(log, prefix: prefix)
        try #require(layout.count >= 4)
        let victim = layout[2].first
        try flipByte(log, prefix: prefix, block: victim)
        let report = try log.verify(session: info.id)
        #expect(report.failure?.seq == victim && report.failure?.check == .checksum, "\(String(describing: report.failure))")
        #expect(report.eventsChecked == victim - 1)
        #expect(throws: LMDBEventLogError.corruptRecord(session: info.id, seq: victim, reason: "checksum mismatch (the block of seq \(victim) on)")) {
            _ = try log.events(info.id)
        }
        #expect(try log.events(info.id, from: 1, through: victim - 1).count == Int(victim - 1))
    }

    /// A block deleted or moved breaks the chain at its place.
    @Test func missingAndSwappedBlocksBreakTheChain() throws {
        for mode in ["deleted", "swapped"] {
            let dir = try TempDir()
            defer { dir.cleanup() }
            let (log, info) = try storeWithSession(at: dir)
            try log.append(generatedEvents(600, seed: 44), to: info.id, expectedSeq: 0)
            let prefix = StoreKey.eventPrefix(info)
            let layout = try blocks(log, prefix: prefix)
            let db = try log.environment.database(named: "events")
            try log.environment.withWriteTransaction { txn in
                let a = StoreKey.event(prefix, layout[1].first), b = StoreKey.event(prefix, layout[2].first)
                if mode == "deleted" {
                    #expect(try txn.delete(forKey: a, in: db))
                } else {
                    let va = try #require(try txn.value(forKey: a, in: db)), vb = try #require(try txn.value(forKey: b, in: db))
                    try txn.put(vb, forKey: a, in: db)
                    try txn.put(va, forKey: b, in: db)
                }
            }
            let report = try log.verify(session: info.id)
            #expect(report.failure?.seq == layout[1].first, "\(mode): \(String(describing: report.failure))")
            #expect(report.failure?.check == .chain, "\(mode): \(String(describing: report.failure))")
            #expect(throws: LMDBEventLogError.self) { _ = try log.events(info.id) }
        }
    }

    /// A stored outcome or a block's digest rewritten under a fresh checksum is caught by verify:
    /// the outcome at its event, the digest at the block's last event.
    @Test func rewrittenOutcomesAndDigestsFailVerify() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (log, info) = try storeWithSession(at: dir)
        try log.append(generatedEvents(300, seed: 45), to: info.id, expectedSeq: 0)
        let prefix = StoreKey.eventPrefix(info)
        let layout = try blocks(log, prefix: prefix)
        let first = layout[1].first
        let db = try log.environment.database(named: "events")
        let previous = try #require(try log.environment.withReadTransaction { txn in
            try txn.withValue(forKey: StoreKey.event(prefix, layout[0].first), in: db) { BlockCodec.storedChecksum($0) }
        } ?? nil)
        // The digest after the block's last event.
        try reseal(log, prefix: prefix, first: first, previous: previous) { $0[2] ^= 1 }
        var report = try log.verify(session: info.id)
        let last = first + UInt64(layout[1].count) - 1
        #expect(report.failure?.seq == last && report.failure?.check == .digest, "\(String(describing: report.failure))")
        // Undo, then the first event's outcome (applied 0 → another code).
        try reseal(log, prefix: prefix, first: first, previous: previous) { $0[2] ^= 1 }
        #expect(try log.verify(session: info.id).isValid)
        try reseal(log, prefix: prefix, first: first, previous: previous) { $0[BlockCodec.headerSize] = $0[BlockCodec.headerSize] == 0 ? 1 : 0 }
        report = try log.verify(session: info.id)
        #expect(report.failure?.seq == first && report.failure?.check == .outcome, "\(String(describing: report.failure))")
    }

    /// `compactCopy(to:format: 4)` converts a format-3 store: the same events, outcomes, digests,
    /// call sites, runs and rows, verified, and appendable; a damaged one is refused and leaves
    /// nothing at the copy's path.
    @Test func aFormat3StoreConverts() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let v3 = try LMDBEventLog.open(at: dir.path + "/v3", options: testOptions(snapshotInterval: 100, format: 3))
        var ids: [SessionID] = []
        for (n, seed) in [(700, UInt64(46)), (0, 47), (65, 48)] {
            let info = try v3.createSession(NewSession(label: "s\(seed)", appName: "App", appVersion: "1.0"))
            if n > 0 { try v3.append(metadataEvents(n, seed: seed), to: info.id, expectedSeq: 0) }
            ids.append(info.id)
        }
        // Chunks of 100 records a transaction: blocks straddle them.
        try v3.lifecycle.compactCopy(to: dir.path + "/v4", format: 4, conversionChunk: 100)
        let v4 = try LMDBEventLog.open(at: dir.path + "/v4", options: testOptions(snapshotInterval: 100))
        #expect(v4.storeFormat == 4)
        #expect(try v4.sessions().map(\.id) == (try v3.sessions()).map(\.id))
        for id in ids {
            #expect(try v4.session(id) == (try v3.session(id)))
            #expect(try v4.events(id) == (try v3.events(id)))
            #expect(try v4.verify(session: id).isValid)
        }
        let more = metadataEvents(30, seed: 49)
        try v4.append(more, to: ids[0], expectedSeq: 700)
        #expect(try v4.events(ids[0]).map(\.recorded).suffix(30) == more[...])
        #expect(try v4.verify(session: ids[0]).isValid)
        // Damage in the format-3 store: the conversion names it, and writes nothing.
        let db = try v3.environment.database(named: "events")
        let prefix = StoreKey.eventPrefix(try v3.session(ids[0]))
        try v3.environment.withWriteTransaction { txn in
            var bytes = try #require(try txn.value(forKey: StoreKey.event(prefix, 500), in: db))
            bytes[RecordCodec.headerSize] ^= 4
            try txn.put(bytes, forKey: StoreKey.event(prefix, 500), in: db)
        }
        #expect(throws: LMDBEventLogError.corruptRecord(session: ids[0], seq: 500, reason: "checksum mismatch")) {
            try v3.compactCopy(to: dir.path + "/v4b", format: 4)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/v4b/data.mdb"))
    }

    /// An entry whose event is encoded in place (an append's) has the bytes of one whose body was
    /// encoded beforehand (an import's): metadata with and without times, call sites and notes,
    /// against running time bases.
    @Test func entriesEncodedInPlaceMatchEntriesFromBodies() {
        let events = metadataEvents(300, seed: 51)
        var inPlace = BlockAssembly(open: OpenBlock(first: 1, count: 0, body: [], previous: .zero), hash: .zero, digest: .zero,
                                    actual: 0, lastStored: nil, prefix: [0])
        var fromBodies = inPlace
        let bodies = StoredPayload.Bodies(events)
        var base: Int64 = 1_795_000_000_000
        for (i, e) in events.enumerated() {
            let site: UInt32? = e.meta.callSite == nil ? nil : UInt32(i % 7)
            // The count stays 0 (no entry is `added`), so the block takes every entry.
            _ = inPlace.write(e, base: base, site: site, body: nil)
            _ = fromBodies.write(e, base: base, site: site, body: bodies[i])
            base = StoredPayload.advance(base, time: e.meta.timestamp)
        }
        #expect(events.contains { $0.meta.callSite != nil && $0.meta.note != nil && $0.meta.timestamp != 0 })
        #expect(inPlace.open.body.count > events.count * 4)
        // The first byte where they differ, not two pages of bytes.
        let (a, b) = (inPlace.open.body, fromBodies.open.body)
        #expect(a.count == b.count)
        #expect(a.indices.first { $0 >= b.count || a[$0] != b[$0] } == nil)
    }

    /// A caller's wrong digest for the last event of a block inside a batch (neither the batch's
    /// last nor a snapshot's) is caught there, and nothing of the batch is stored.
    @Test func aLieAtABlocksEndIsCaught() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = generatedEvents(600, seed: 50)
        var r = Replayer()
        let truth = events.map { r.apply($0.event).digest }
        // Where the first block ends, learned from a store given the truth.
        let probe = try LMDBEventLog.open(at: dir.path + "/probe", options: testOptions(snapshotInterval: 10_000))
        let p = try probe.createSession(NewSession())
        try probe.appendFolded(events, digests: truth, to: p.id, expectedSeq: 0)
        let layout = try blocks(probe, prefix: StoreKey.eventPrefix(p))
        try #require(layout.count >= 2)
        let end = layout[0].count
        let log = try LMDBEventLog.open(at: dir.path + "/liar", options: testOptions(snapshotInterval: 10_000))
        let s = try log.createSession(NewSession())
        var lies = truth
        lies[end - 1] = Digest(hi: truth[end - 1].hi ^ 1, lo: truth[end - 1].lo)
        #expect(throws: FoldMismatch(session: s.id, seq: UInt64(end), given: lies[end - 1], folded: truth[end - 1])) {
            try log.appendFolded(events, digests: lies, to: s.id, expectedSeq: 0)
        }
        #expect(try log.session(s.id).eventCount == 0)
        #expect(try blocks(log, prefix: StoreKey.eventPrefix(s)).isEmpty)
    }
}
