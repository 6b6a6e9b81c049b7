import Foundation
import RouteLogCore

// Reading a session's events (see `EventLog/read(_:from:through:_:)`).

extension LMDBEventLog {
    // MARK: Reading

    /// How many events one read transaction decodes before handing them to the caller.
    static let readChunk: UInt64 = 512

    /// Calls `body` with the events `from ... through`, in order (see ``EventLog/read(_:from:through:_:)``).
    ///
    /// Events are read in short read transactions of a few hundred records, so a slow `body` never
    /// holds one open. Each record's checksum is checked.
    ///
    /// - Throws: `EventLogError.sessionNotFound`; ``LMDBEventLogError/corruptRecord(session:seq:reason:)``
    ///   for a record that is garbled, truncated or missing.
    public func read(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        guard let pending = overlay?.sessions[id]?.events else { return try readStored(id, from: from, through: through, body) }
        // A read-only log goes on with the journaled events after the stored ones.
        var next = max(from, 1)
        var stopped = false
        try readStored(id, from: from, through: through) { e in
            next = e.seq + 1
            if try !body(e) { stopped = true; return false }
            return true
        }
        guard !stopped, next <= through, let stored = storedCount(id), next > stored else { return }
        for e in pending where e.seq >= next && e.seq <= through {
            guard e.seq == next else { return }
            if try !body(e) { return }
            next += 1
        }
    }

    private func readStored(_ id: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
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
                try txn.forEach(in: eventsDB, from: StoreKey.event(prefix, next)) { k, v in
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
            for event in chunk where try !body(event) { return }
            next = chunk[chunk.count - 1].seq + 1
        }
    }

    /// The latest stored snapshot at or before `seq` (see ``EventLog/snapshot(_:atOrBefore:)``).
    public func snapshot(_ id: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        return try withRead("reading a snapshot of session \(id)") { txn in
            guard let prefix = try readRow(txn, id, key)?.eventPrefix else { throw EventLogError.sessionNotFound(id) }
            return try txn.withLastEntry(in: snapshotsDB, before: StoreKey.event(prefix, seq == .max ? seq : seq + 1)) { k, v -> Snapshot? in
                guard let at = StoreKey.seq(k, session: prefix) else { return nil }
                do { return Snapshot(seq: at, state: try SnapshotCodec.decode(v)) } catch {
                    throw LMDBEventLogError.corruptValue(database: "snapshots", key: "\(id) seq \(at)", reason: "\(error)")
                }
            } ?? nil
        }
    }
}
