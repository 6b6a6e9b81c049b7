@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// Damages the stored records of `session` one at a time (a flipped payload bit, which fails the
/// record's checksum), runs `check` with each one damaged, and puts the record back. In a
/// format-4 store the block holding each seq is damaged, and `check` gets the block's first seq,
/// where reads and `verify` find the damage.
func withEachRecordDamaged(_ log: LMDBEventLog, _ session: SessionInfo, seqs: [UInt64], _ check: (UInt64) throws -> Void) throws {
    let eventsDB = try log.environment.database(named: "events")
    let prefix = StoreKey.eventPrefix(session)
    for wanted in seqs {
        var seq = wanted
        if log.storeFormat >= 4 {
            seq = try #require(try log.environment.withReadTransaction { txn in
                try txn.withLastEntry(in: eventsDB, before: StoreKey.event(prefix, wanted + 1)) { k, _ in StoreKey.seq(k, session: prefix) }
            } ?? nil)
        }
        let key = StoreKey.event(prefix, seq)
        let original = try #require(try log.environment.withReadTransaction { try $0.value(forKey: key, in: eventsDB) })
        var damaged = original
        damaged[log.storeFormat >= 4 ? BlockCodec.headerSize + 1 : RecordCodec.headerSize] ^= 0x40
        try log.environment.withWriteTransaction { try $0.put(damaged, forKey: key, in: eventsDB) }
        try check(seq)
        try log.environment.withWriteTransaction { try $0.put(original, forKey: key, in: eventsDB) }
    }
}

/// Runs `body` on a new store in a temporary directory (removed when `body` returns) holding one
/// session, labelled `label`, of `events`; `body` gets the store and the session as stored.
func withStore<T>(label: String, events: [RecordedEvent], _ body: (LMDBEventLog, SessionInfo) throws -> T) throws -> T {
    let dir = try TempDir()
    defer { dir.cleanup() }
    let log = try LMDBEventLog.open(at: dir.path, options: .init(initialMapSize: 8 << 20))
    let info = try log.createSession(NewSession(label: label))
    try log.append(events, to: info.id, expectedSeq: 0)
    return try body(log, try log.session(info.id))
}
