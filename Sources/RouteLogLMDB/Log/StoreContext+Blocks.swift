import Foundation
@_spi(Tools) import RouteLogCore

// Reading the blocks of events of a format-4 store (see BlockCodec), each against the checksum
// chain of its session. A block stores the outcome of each event and the digest after its last
// one: the digests of the events before it are folded here, from the session's latest snapshot.

extension StoreContext {
    /// The first seq of the block of session `id` (key prefix `prefix`) that holds `seq`, and
    /// the checksum of the block before it (zero for the session's first block).
    func block(holding seq: UInt64, _ txn: LMDBReadTransaction, session id: SessionID, prefix: [UInt8]) throws -> (first: UInt64, previous: Digest) {
        let found = try txn.withLastEntry(in: databases.events, before: StoreKey.event(prefix, seq + 1)) { k, _ in
            StoreKey.seq(k, session: prefix)
        } ?? nil
        guard let first = found, first >= 1 else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: 1, reason: "record is missing (no block holds seq 1)")
        }
        guard first > 1 else { return (1, .zero) }
        let before = try txn.withLastEntry(in: databases.events, before: StoreKey.event(prefix, first)) { k, v -> (UInt64, Digest?)? in
            guard let s = StoreKey.seq(k, session: prefix) else { return nil }
            return (s, BlockCodec.storedChecksum(v))
        } ?? nil
        guard let (at, sum) = before else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: 1, reason: "record is missing (no block holds seq 1)")
        }
        guard let sum else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: at, reason: "truncated: shorter than a block")
        }
        return (first, sum)
    }

    /// Parses a stored block and checks its checksum, chained to `previous`.
    func checkedBlock(_ bytes: UnsafeRawBufferPointer, session: SessionID, first: UInt64, previous: Digest) throws -> RawBlock {
        let raw: RawBlock
        do { raw = try BlockCodec.parse(bytes, previous: previous) } catch {
            throw LMDBEventLogError.corruptRecord(session: session, seq: first, reason: "\(error)")
        }
        guard raw.computedChecksum == raw.storedChecksum else {
            throw LMDBEventLogError.corruptRecord(session: session, seq: first, reason: "checksum mismatch (the block of seq \(first) on)")
        }
        return raw
    }

    /// Decodes the events of a block whose checksum was checked, calling `each` with each one's
    /// seq, the event and its stored outcome, and moves `chain` past the block.
    func decodeBlock(_ raw: RawBlock, first: UInt64, session id: SessionID, chain: inout RecordChain, _ txn: LMDBReadTransaction,
                     _ each: (UInt64, RecordedEvent, Outcome) throws -> Void) throws {
        var r = BinaryReader(raw.body)
        var base = chain.createdAt
        for i in 0..<raw.count {
            let seq = first + UInt64(i)
            let outcome: Outcome
            let recorded: RecordedEvent
            do throws(BinaryDecodingError) {
                let at = r.offset
                let code = try r.readByte()
                guard let o = Outcome(wireCode: code) else { throw r.error("unknown outcome \(code)", at: at) }
                outcome = o
                recorded = try StoredPayload.read(&r, base: base) { index throws(BinaryDecodingError) in
                    try callSite(index, chain: &chain, txn)
                }
            } catch {
                throw LMDBEventLogError.corruptRecord(session: id, seq: seq, reason: "undecodable event payload: \(error)")
            }
            base = StoredPayload.advance(base, time: recorded.meta.timestamp)
            try each(seq, recorded, outcome)
        }
        guard r.isAtEnd else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: first + UInt64(raw.count) - 1,
                                                 reason: "the block has \(r.remaining) bytes after its last event")
        }
        chain.timeBase = base
        chain.previous = raw.storedChecksum
    }

    /// Reads the blocks of session `id` in `txn` from the block whose first seq is `first` (the
    /// block before it chained in `chain.previous`), calling `each` with every event, until a
    /// block ends at or after `last` or `enough()` says so after a block (`blockDigest` is the
    /// digest the block stores when the event is its last, else nil); returns the first seq of
    /// the block after the last one read. A block that does not follow the one before it
    /// (a gap, or one beyond `last` missing) is a corrupt record.
    func forEachBlock(_ txn: LMDBReadTransaction, session id: SessionID, from first: UInt64, through last: UInt64,
                      chain: inout RecordChain, enough: () -> Bool = { false },
                      _ each: (_ seq: UInt64, _ event: RecordedEvent, _ outcome: Outcome, _ blockDigest: Digest?) throws -> Void) throws -> UInt64 {
        var expected = first
        guard first <= last else { return first }
        let prefix = chain.prefix
        try txn.forEach(in: databases.events, from: StoreKey.event(prefix, first)) { k, v in
            guard let f = StoreKey.seq(k, session: prefix), f <= last else { return false }
            guard f == expected else {
                throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing (the next block starts at seq \(f))")
            }
            let raw = try checkedBlock(v, session: id, first: f, previous: chain.previous)
            let end = f + UInt64(raw.count) - 1
            try decodeBlock(raw, first: f, session: id, chain: &chain, txn) { seq, event, outcome in
                try each(seq, event, outcome, seq == end ? raw.digest : nil)
            }
            expected = end + 1
            return expected <= last && !enough()
        }
        guard expected > last || enough() else {
            throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
        }
        return expected
    }

    /// The latest snapshot of the session with `prefix` at or before `seq`, as `txn` sees it.
    func snapshot(_ txn: LMDBReadTransaction, session id: SessionID, prefix: [UInt8], atOrBefore seq: UInt64) throws -> Snapshot? {
        try txn.withLastEntry(in: databases.snapshots, before: StoreKey.event(prefix, seq == .max ? seq : seq + 1)) { k, v -> Snapshot? in
            guard let at = StoreKey.seq(k, session: prefix) else { return nil }
            do { return Snapshot(seq: at, state: try SnapshotCodec.decode(v)) } catch {
                throw LMDBEventLogError.corruptValue(database: "snapshots", key: "\(id) seq \(at)", reason: "\(error)")
            }
        } ?? nil
    }

    /// What ``foldBlocks(_:from:through:reading:_:)`` does with the events it reads.
    enum BlockRead {
        /// Folds every event from the latest snapshot before `from` and hands each one from `from`
        /// on over with the digest after it.
        case digests
        /// Folds every event from the latest snapshot before `through` without its digest (the
        /// digest is computed once at the end) and hands nothing over.
        case state
        /// Folds nothing: hands each event from `from` on over with the digest its block stores
        /// when it is the block's last, ``Digest/zero`` otherwise (a reader that folds the events
        /// itself and checks its fold against the stored digests, or needs none of their states).
        case events
    }

    /// Reads the stored events of session `id` through `through` as `reading` says, in read
    /// transactions of a few hundred events, handing events to `body` (`body` returning false
    /// ends the read). Returns the state after `through` for ``BlockRead/state`` (the state
    /// folded so far otherwise: of no use when `body` ended the read or nothing was folded).
    @discardableResult
    func foldBlocks(_ id: SessionID, from: UInt64, through: UInt64, reading: BlockRead = .digests,
                    _ body: (StoredEvent) throws -> Bool = { _ in true }) throws -> NavigationState {
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        let from = max(from, 1)
        var last: UInt64?
        var chain: RecordChain?
        var state = NavigationState()
        var folded: UInt64 = 0
        var position: UInt64 = 0
        while true {
            let (chunk, done, failure): ([StoredEvent], Bool, (any Error)?) = try withRead("reading session \(id)") { txn in
                // Checked in every chunk: a session deleted meanwhile is gone, not corrupt.
                guard let row = try readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                if last == nil { last = min(through, row.info.eventCount) }
                let last = last!
                if chain == nil {
                    // Nothing to hand over (a follower asking past the head): no fold.
                    guard last >= 1, reading == .state || from <= last else { return ([], true, nil) }
                    let prefix = row.eventPrefix
                    if reading == .events {
                        folded = from - 1
                    } else if let snap = (try? snapshot(txn, session: id, prefix: prefix, atOrBefore: min(from - 1, last))) ?? nil {
                        // An unreadable snapshot is not the events' damage: fold from the start instead.
                        state = snap.state
                        folded = snap.seq
                    }
                    if folded >= last { return ([], true, nil) }
                    let (first, previous) = try block(holding: folded + 1, txn, session: id, prefix: prefix)
                    chain = RecordChain(prefix: prefix, createdAt: row.info.createdAt, previous: previous, timeBase: row.info.createdAt)
                    position = first
                }
                var out: [StoredEvent] = []
                let end = last
                // A damaged block ends the read after the events before it.
                var failure: (any Error)?
                do {
                    position = try forEachBlock(txn, session: id, from: position, through: end, chain: &chain!,
                                                enough: { out.count >= Self.readChunk }) { seq, event, outcome, blockDigest in
                        guard seq > folded, seq <= end else { return }
                        folded = seq
                        switch reading {
                        case .digests:
                            state.apply(event.event, seq: seq)
                            if seq >= from { out.append(StoredEvent(seq: seq, recorded: event, outcome: outcome, digest: state.digest)) }
                        case .state:
                            state.applyWithoutDigest(event.event, seq: seq)
                        case .events:
                            out.append(StoredEvent(seq: seq, recorded: event, outcome: outcome, digest: blockDigest ?? .zero))
                        }
                    }
                } catch {
                    // The events before the damage are handed over, then the error (as a read of
                    // format 3 does).
                    failure = error
                }
                return (out, position > end, failure)
            }
            // By index: the events are lent to `body` from the chunk, not copied out of it.
            for i in chunk.indices where try !body(chunk[i]) { return state }
            if let failure { throw failure }
            if done { break }
        }
        if reading == .state { state.refreshDigest() }
        return state
    }
}
