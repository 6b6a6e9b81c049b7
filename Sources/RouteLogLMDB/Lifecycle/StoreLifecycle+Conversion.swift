import Foundation
@_spi(Tools) import RouteLogCore

// Converting a format-3 store (a record per event) to format 4 (events in blocks), in a copy of
// the store that nothing else has open (see `compactCopy(to:format:)`).

extension StoreLifecycle {
    /// How many records one transaction of a conversion moves into blocks.
    static let conversionChunk: UInt64 = 65_536

    /// Rewrites the `events` of the format-3 store in `directory`, which only this process uses
    /// (a copy not yet in place), as format-4 blocks, then its format version. Each record's
    /// checksum is checked against its chain as it is read (a damaged store is refused, with the
    /// first bad seq); the blocks store each event's outcome and the digest after its last event
    /// as the records stored them, and every other value (rows but their head hash, snapshots,
    /// call sites, runs, screen records) is kept as it is.
    /// `chunk` records a transaction (a test makes blocks straddle transactions).
    static func convertToBlocks(at directory: String, options: LMDBEventLog.Options, chunk: UInt64 = conversionChunk) throws {
        var options = options
        options.readOnly = false
        options.durability = .grouped(maxDelay: .milliseconds(100))
        let environment = try StoreOpener.openEnvironment(directory, options: options)
        let databases = try StoreOpener.openExistingStore(environment, path: directory)
        guard !databases.blocks else { return }
        let context = StoreContext(path: directory, options: options, environment: environment, databases: databases, writer: nil, locks: nil)
        let rows: [(key: [UInt8], row: SessionRow)] = try context.withRead("converting \(directory)") { txn in
            var out: [([UInt8], SessionRow)] = []
            try txn.forEach(in: databases.sessions) { k, v in
                let id = StoreKey.sessionID(k)
                do { out.append((Array(k), try SessionRow.decode(v, id: id))) } catch {
                    throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "\(error)")
                }
                return true
            }
            return out
        }
        do {
            for (key, row) in rows { try convertSession(row, rowKey: key, context, chunk: chunk) }
            var format = BinaryWriter()
            format.writeBigEndian(UInt32(4))
            try environment.withWriteTransaction(syncOnCommit: true) { txn in
                try txn.put(format.bytes, forKey: StoreKey.format, in: databases.meta)
            }
        } catch let error as LMDBError {
            throw LMDBEventLogError.storage(error, operation: "converting \(directory) to format 4")
        }
    }

    /// Moves one session's records into blocks, a chunk of records a transaction: the records of
    /// a chunk are deleted and the blocks they filled written in their place (a block's key is
    /// its first event's, so a block never lands on a record not yet read); the last block is
    /// written with the session's last chunk, and the row takes its checksum as head hash.
    private static func convertSession(_ row: SessionRow, rowKey: [UInt8], _ context: StoreContext, chunk: UInt64) throws {
        let id = row.info.id
        let prefix = row.eventPrefix
        let count = row.info.eventCount
        let createdAt = row.info.createdAt
        guard count > 0 else { return }
        var previous3 = Digest.zero
        var base3 = createdAt
        var open = OpenBlock(first: 1, count: 0, body: [], previous: .zero)
        var base4 = createdAt
        var digest = Digest.zero
        var hash = Digest.zero
        var next: UInt64 = 1
        while next <= count {
            let end = min(count, next + chunk - 1)
            try context.environment.withWriteTransaction { txn in
                var closed: [(first: UInt64, bytes: [UInt8])] = []
                var expected = next
                try txn.forEach(in: context.databases.events, from: StoreKey.event(prefix, next)) { k, v in
                    guard let seq = StoreKey.seq(k, session: prefix), seq <= end else { return false }
                    guard seq == expected else {
                        throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                    }
                    let raw = try context.checkedRecord(v, session: id, seq: seq, previous: previous3)
                    previous3 = raw.storedChecksum
                    // The payload again, against the block's time base: its metadata re-encoded,
                    // the event's bytes as they are.
                    var r = BinaryReader(raw.payload)
                    let base = StoredPayload.timeBase(seq: seq, running: base3, createdAt: createdAt)
                    let meta: EventMetadata, site: UInt32?
                    do { (meta, site) = try StoredPayload.readMeta(&r, base: base) } catch {
                        throw LMDBEventLogError.corruptRecord(session: id, seq: seq, reason: "undecodable event payload: \(error)")
                    }
                    base3 = StoredPayload.advance(base, time: meta.timestamp)
                    let event = Array(UnsafeRawBufferPointer(rebasing: raw.payload[r.offset...]))
                    func appendEntry() -> Int? {
                        let entryBase = open.count == 0 ? createdAt : base4
                        return open.appendEntry { w in
                            w.writeByte(raw.outcome.wireCode)
                            StoredPayload.write(meta, base: entryBase, site: site, event: event[...], into: &w)
                        }
                    }
                    if appendEntry() == nil {
                        let block = BlockCodec.encode(count: open.count, digest: digest, body: open.body, previous: open.previous)
                        closed.append((open.first, block.bytes))
                        hash = block.checksum
                        open = OpenBlock(first: seq, count: 0, body: [], previous: hash)
                        _ = appendEntry()
                    }
                    base4 = StoredPayload.advance(open.count == 0 ? createdAt : base4, time: meta.timestamp)
                    open.count += 1
                    digest = raw.digest
                    expected += 1
                    return true
                }
                guard expected == end + 1 else {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                }
                var key = StoreKey.event(prefix, next)
                for seq in next...end {
                    StoreKey.setSeq(seq, in: &key)
                    _ = try txn.delete(forKey: key, in: context.databases.events)
                }
                if end == count {
                    let block = BlockCodec.encode(count: open.count, digest: digest, body: open.body, previous: open.previous)
                    closed.append((open.first, block.bytes))
                    hash = block.checksum
                }
                for (first, bytes) in closed {
                    try txn.put(bytes, forKey: StoreKey.event(prefix, first), in: context.databases.events, options: .noOverwrite)
                }
                if end == count {
                    guard previous3 == row.headHash else {
                        throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "the head hash does not match the last record")
                    }
                    var converted = row
                    converted.headHash = hash
                    try txn.put(converted.encode(), forKey: rowKey, in: context.databases.sessions)
                }
            }
            next = end + 1
        }
    }
}
