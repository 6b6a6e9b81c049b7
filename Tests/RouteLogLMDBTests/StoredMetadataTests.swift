import Foundation
@_spi(Tools) import RouteLogCore
import Testing
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport

/// Events with every kind of metadata: times far from the session's creation, before it, equal
/// to the previous one and absent; call sites repeated, new and absent; notes; all origins.
func metadataEvents(_ n: Int, seed: UInt64) -> [RecordedEvent] {
    var rng = SplitMix64(seed: seed)
    let files = ["InboxView.swift", "ThreadView.swift", "Paywall.swift", "Deep/Links.swift", "é.swift", ""]
    var time: Int64 = 1_795_000_000_000
    return generatedEvents(n, seed: seed).enumerated().map { i, e in
        var meta = EventMetadata(origin: [.app, .user, .system][Int(rng.next() % 3)])
        switch rng.next() % 8 {
        case 0: meta.timestamp = 0
        case 1: meta.timestamp = [Int64.min, Int64.max, -1, 1, 1_500_000_000_000][Int(rng.next() % 5)]
        case 2: meta.timestamp = time
        default:
            time += Int64(rng.next() % 5_000)
            meta.timestamp = time
        }
        if rng.next() % 4 != 0 {
            meta.callSite = CallSite(file: files[Int(rng.next() % UInt64(files.count))], line: [0, 1, 42, -3, Int.max][Int(rng.next() % 5)])
        }
        if rng.next() % 10 == 0 { meta.note = "note \(i)" }
        return RecordedEvent(e.event, meta: meta)
    }
}

private func entries(_ log: LMDBEventLog, _ database: String, prefix: [UInt8]) throws -> Int {
    try log.entryCount(in: try log.environment.database(named: database), prefix: prefix)
}

@Suite("LMDBEventLog stored metadata", .tags(.appleLocks))
struct StoredMetadataTests {
    @Test func readsReturnTheMetadataAsAppendedFromAnySeq() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = metadataEvents(300, seed: 3)
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 50, format: 3))
        let info = try log.createSession(NewSession(label: "meta"))
        // Batches of varied sizes, across the time anchors (every 64 seqs).
        var at = 0
        for size in [1, 62, 2, 64, 100, 71] {
            try log.append(Array(events[at..<at + size]), to: info.id, expectedSeq: UInt64(at))
            at += size
        }
        #expect(try log.events(info.id).map(\.recorded) == events)
        for from: UInt64 in [1, 2, 63, 64, 65, 66, 128, 129, 130, 200, 300] {
            var got: [RecordedEvent] = []
            try log.read(info.id, from: from, through: 300) { got.append($0.recorded); return true }
            #expect(got == Array(events[Int(from - 1)...]), "from \(from)")
        }
        #expect(try log.verify(session: info.id).isValid)
        // One table entry per distinct call site.
        let sites = Set(events.compactMap(\.meta.callSite)).count
        #expect(try entries(log, "sites", prefix: StoreKey.eventPrefix(info)) == sites)
    }

    @Test func anotherHandleContinuesTheSessionWithTheSameTable() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let events = metadataEvents(200, seed: 9)
        let info: SessionInfo
        do {
            let first = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 32, format: 3))
            info = try first.createSession(NewSession(label: "two handles"))
            try first.append(Array(events[..<70]), to: info.id, expectedSeq: 0)
            first.finishWriting(info.id)
        }
        // A second log has no cached head: it rebuilds the time base and the call sites.
        let second = try LMDBEventLog.open(at: dir.path, options: testOptions(snapshotInterval: 32, format: 3))
        try second.append(Array(events[70...]), to: info.id, expectedSeq: 70)
        #expect(try second.events(info.id).map(\.recorded) == events)
        #expect(try second.verify(session: info.id).isValid)
        #expect(try entries(second, "sites", prefix: StoreKey.eventPrefix(info)) == Set(events.compactMap(\.meta.callSite)).count)
    }

    @Test func aRepeatedCallSiteTakesAFewBytes() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(format: 3))
        let info = try log.createSession(NewSession(label: "size"))
        let site = CallSite(file: "Sources/App/Screens/InboxView.swift", line: 120)
        let events = (0..<3).map { i in
            RecordedEvent(.push(RouteRef(id: "inbox")), meta: EventMetadata(timestamp: info.createdAt + 1_000 + Int64(i) * 20, callSite: site))
        }
        try log.append(events, to: info.id, expectedSeq: 0)
        let db = try log.environment.database(named: "events")
        let sizes = try log.environment.withReadTransaction { txn in
            try (1...3).map { UInt64($0) }.map { try txn.value(forKey: StoreKey.event(StoreKey.eventPrefix(info), $0), in: db)!.count }
        }
        // Header and checksum, then flags, a 1-2 byte time delta, a 1-byte site index, the event.
        let body = StoredPayload.eventBody(events[0].event).count
        #expect(sizes[1] == RecordCodec.headerSize + RecordCodec.checksumSize + 1 + 1 + 1 + body, "\(sizes)")
        #expect(sizes.allSatisfy { $0 <= RecordCodec.headerSize + RecordCodec.checksumSize + 5 + body }, "\(sizes)")
        #expect(try log.events(info.id).map(\.recorded) == events)
    }

    @Test func deletingASessionDeletesItsCallSites() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: testOptions(format: 3))
        let doomed = try log.createSession(NewSession(label: "doomed"))
        let kept = try log.createSession(NewSession(label: "kept"))
        let events = metadataEvents(80, seed: 5)
        try log.append(events, to: doomed.id, expectedSeq: 0)
        try log.append(events, to: kept.id, expectedSeq: 0)
        #expect(try entries(log, "sites", prefix: StoreKey.eventPrefix(doomed)) > 0)
        try log.deleteSession(doomed.id)
        #expect(try entries(log, "sites", prefix: StoreKey.eventPrefix(doomed)) == 0)
        #expect(try entries(log, "sites", prefix: StoreKey.eventPrefix(kept)) == Set(events.compactMap(\.meta.callSite)).count)
        #expect(try log.events(kept.id).map(\.recorded) == events)
    }

    @Test func aDamagedOrMovedCallSiteIsCorruptionAtTheFirstSeqUsingIt() throws {
        for mode in ["altered", "swapped", "deleted"] {
            let dir = try TempDir()
            defer { dir.cleanup() }
            let log = try LMDBEventLog.open(at: dir.path, options: testOptions(format: 3))
            let info = try log.createSession(NewSession(label: mode))
            var events = generatedEvents(20, seed: 2)
            for i in events.indices where i >= 4 { events[i].meta.callSite = CallSite(file: "Site\(i % 2).swift", line: 7) }
            try log.append(events, to: info.id, expectedSeq: 0)
            // Seq 5 uses site 0 first, seq 6 site 1.
            let sites = try log.environment.database(named: "sites")
            let prefix = StoreKey.eventPrefix(info)
            try log.environment.withWriteTransaction { txn in
                let k0 = SiteCodec.key(prefix, 0), k1 = SiteCodec.key(prefix, 1)
                switch mode {
                case "altered":
                    var bytes = try #require(try txn.value(forKey: k0, in: sites))
                    bytes[2] ^= 0x20
                    try txn.put(bytes, forKey: k0, in: sites)
                case "swapped":
                    let a = try #require(try txn.value(forKey: k0, in: sites))
                    let b = try #require(try txn.value(forKey: k1, in: sites))
                    try txn.put(b, forKey: k0, in: sites)
                    try txn.put(a, forKey: k1, in: sites)
                default:
                    #expect(try txn.delete(forKey: k0, in: sites))
                }
            }
            let report = try log.verify(session: info.id)
            #expect(report.failure?.seq == 5, "\(mode)")
            #expect(report.failure?.check == .checksum, "\(mode)")
            let reason = mode == "deleted" ? "call site 0 is missing" : "call site 0: at byte"
            #expect(report.failure?.message.contains(reason) == true, "\(mode): \(report.failure?.message ?? "")")
            #expect(throws: LMDBEventLogError.self) { _ = try log.events(info.id) }
            do {
                _ = try log.events(info.id)
            } catch let LMDBEventLogError.corruptRecord(session, seq, reason) {
                #expect(session == info.id && seq == 5, "\(mode)")
                #expect(reason.contains("call site 0"), "\(reason)")
            }
            // Events before it still read.
            #expect(try log.events(info.id, through: 4).count == 4)
            // A log without the session's head in memory rebuilds it, and refuses to append.
            let other = try LMDBEventLog.open(at: dir.path, options: testOptions(format: 3))
            #expect(throws: LMDBEventLogError.self, "\(mode)") {
                try other.append(generatedEvents(1, seed: 1), to: info.id, expectedSeq: 20)
            }
            #expect(try other.session(info.id).eventCount == 20)
        }
    }
}

@Suite("LMDBEventLog keys", .tags(.appleLocks))
struct EventKeyTests {
    @Test func keysSortBySessionThenSeqAndTheBoundPastTheLastSeq() {
        let a = StoreKey.number(7), b = StoreKey.number(8)
        let seqs: [UInt64] = [0, 1, 255, 256, 65_536, 1 << 32, StoreKey.maxSeq - 1, StoreKey.maxSeq]
        let keys = seqs.map { StoreKey.event(a, $0) }
        #expect(keys.allSatisfy { $0.count == StoreKey.eventKeySize })
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        for (seq, key) in zip(seqs, keys) {
            #expect(key.withUnsafeBytes { StoreKey.seq($0, session: a) } == seq)
            #expect(key.withUnsafeBytes { StoreKey.seq($0, session: b) } == nil)
            var reused = StoreKey.event(a, 1)
            StoreKey.setSeq(seq, in: &reused)
            #expect(reused == key)
        }
        // A seq past the largest: after every key of the session, before the next session's.
        for past in [StoreKey.maxSeq + 1, UInt64.max] {
            let bound = StoreKey.event(a, past)
            #expect(keys.last!.lexicographicallyPrecedes(bound))
            #expect(bound.lexicographicallyPrecedes(StoreKey.event(b, 0)))
            #expect(bound.withUnsafeBytes { StoreKey.seq($0, session: a) } == nil)
        }
    }
}
