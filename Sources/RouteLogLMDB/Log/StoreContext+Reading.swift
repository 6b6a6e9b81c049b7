import Foundation
@_spi(Tools) import RouteLogCore

// Reading a session's stored events and snapshots (see `EventLog/read(_:from:through:_:)`).

extension StoreContext {
    /// How many events one read transaction decodes before handing them to the caller.
    static let readChunk: UInt64 = 512

    /// Calls `body` with the stored events `from ... through`, in order (see
    /// ``LMDBEventLog/read(_:from:through:_:)``).
    ///
    /// Events are read in short read transactions of a few hundred records, so a slow `body` never
    /// holds one open. Each record's checksum is checked. Without `digests`, a format-4 store's
    /// events are not folded: a block's last event has the digest the block stores, the others
    /// ``Digest/zero`` (a format-3 record's digest is stored, and given).
    func read(_ id: SessionID, from: UInt64, through: UInt64, digests: Bool = true, _ body: (StoredEvent) throws -> Bool) throws {
        if databases.blocks {
            try foldBlocks(id, from: from, through: through, reading: digests ? .digests : .events, body)
            return
        }
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        var next = max(from, 1)
        var last: UInt64?
        // The checksum stored by the record before `next` (each record's checksum is chained to
        // it), the time base and the call sites read so far.
        var chain: RecordChain?
        while next <= through {
            let chunk: [StoredEvent] = try withRead("reading session \(id)") { txn in
                // Checked in every chunk: a session deleted meanwhile is gone, not corrupt.
                guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                if last == nil { last = min(through, row.info.eventCount) }
                let prefix = row.eventPrefix
                let end = min(last!, next &+ Self.readChunk - 1)
                guard next <= end else { return [] }
                var out: [StoredEvent] = []
                var expected = next
                if chain == nil { chain = try self.chain(txn, session: id, row: row, before: next) }
                try txn.forEach(in: databases.events, from: StoreKey.event(prefix, next)) { k, v in
                    guard let seq = StoreKey.seq(k, session: prefix), seq <= end else { return false }
                    guard seq == expected else {
                        throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                    }
                    out.append(try decodeRecord(v, session: id, seq: seq, chain: &chain!, txn).0)
                    expected += 1
                    return true
                }
                guard expected == end + 1 else {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                }
                return out
            }
            if chunk.isEmpty { return }
            // By index: the events are lent to `body` from the chunk, not copied out of it.
            for i in chunk.indices where try !body(chunk[i]) { return }
            next = chunk[chunk.count - 1].seq + 1
        }
    }

    /// The latest stored snapshot at or before `seq` (see ``EventLog/snapshot(_:atOrBefore:)``).
    func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        return try withRead("reading a snapshot of session \(id)") { txn in
            guard let prefix = try readRow(txn, id, key)?.eventPrefix else { throw EventLogError.sessionNotFound(id) }
            return try snapshot(txn, session: id, prefix: prefix, atOrBefore: seq)
        }
    }

    /// The stored state of `id` after event `seq` (0: before any event), as
    /// `EventLog.state(of:at:)` gives it for the stored events alone: the latest snapshot at or
    /// before `seq`, and the events after it folded.
    func state(of id: SessionID, at seq: UInt64) throws -> NavigationState {
        let count = try session(id).eventCount
        guard seq <= count else { throw EventLogError.seqOutOfRange(session: id, seq: seq, count: count) }
        // Blocks: one fold from the latest snapshot, without the digest of each event.
        if databases.blocks { return try foldBlocks(id, from: seq + 1, through: seq, reading: .state) }
        var replayer = try snapshot(id, atOrBefore: seq).map { Replayer(state: $0.state, seq: $0.seq) } ?? Replayer()
        if seq > replayer.seq {
            try read(id, from: replayer.seq + 1, through: seq) { replayer.apply($0.event); return true }
        }
        return replayer.state
    }
}
