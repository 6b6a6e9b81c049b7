@_spi(Tools) import RouteLogCore

// Appending: a session's head, loaded or kept by the writer, and the records, call sites, snapshots
// and row an append writes in its transaction.

extension StoreContext {
    /// The head of `info`'s session, its row created with `info`'s id and metadata when the store
    /// does not hold it (a move from an extension's store, an early journal's recovery); `created`
    /// runs in the same transaction after a new row is written.
    func loadOrCreateHead(_ txn: LMDBWriteTransaction, _ info: SessionInfo, _ rowKey: [UInt8], _ heads: Writer.Heads,
                          created: (SessionRow) throws -> Void = { _ in }) throws -> SessionHead {
        if try readRow(txn, info.id, rowKey) != nil { return try loadHead(txn, info.id, rowKey, heads) }
        let fresh = SessionInfo(id: info.id, label: info.label, appName: info.appName, appVersion: info.appVersion,
                                createdAt: info.createdAt, enteredAt: options.clock())
        let row = try numberedRow(txn, fresh)
        try txn.put(row.encode(), forKey: rowKey, in: databases.sessions, options: .noOverwrite)
        try created(row)
        return SessionHead(emptySession: row)
    }

    /// The head of a session as stored, the writer's (`heads`) when it is current.
    func loadHead(_ txn: LMDBReadTransaction, _ id: SessionID, _ rowKey: [UInt8], _ heads: Writer.Heads) throws -> SessionHead {
        guard let row = try readRow(txn, id, rowKey) else { throw EventLogError.sessionNotFound(id) }
        if let cached = heads[id], cached.row.info == row.info, cached.row.headHash == row.headHash {
            return cached
        }
        // Another handle or process wrote since: rebuild from the latest snapshot.
        let key = row.eventPrefix
        let count = row.info.eventCount
        var replayer = Replayer()
        let snapshot = try self.snapshot(txn, session: id, prefix: key, atOrBefore: count)
        if let snapshot { replayer = Replayer(state: snapshot.state, seq: snapshot.seq) }
        var timeBase = row.info.createdAt
        var open: OpenBlock?
        if databases.blocks {
            if count > 0 {
                // The last block is the open one: found first, then read again once folded to.
                let (lastFirst, lastPrevious) = try block(holding: count, txn, session: id, prefix: key)
                let (first, previous) = try block(holding: min(replayer.seq + 1, count), txn, session: id, prefix: key)
                var chain = RecordChain(prefix: key, createdAt: row.info.createdAt, previous: previous, timeBase: row.info.createdAt)
                _ = try forEachBlock(txn, session: id, from: first, through: count, chain: &chain) { seq, event, _, _ in
                    if seq > replayer.seq { replayer.apply(event.event) }
                }
                guard replayer.seq == count else {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: replayer.seq + 1, reason: "record is missing")
                }
                guard chain.previous == row.headHash else {
                    throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "the head hash does not match the last block")
                }
                timeBase = chain.timeBase
                open = try txn.withValue(forKey: StoreKey.event(key, lastFirst), in: databases.events) { v in
                    guard let raw = try? BlockCodec.parse(v, previous: lastPrevious) else { return nil }
                    return OpenBlock(first: lastFirst, count: raw.count, body: Array(raw.body), previous: lastPrevious)
                } ?? nil
                guard open != nil else {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: lastFirst, reason: "the last block cannot be read again")
                }
            }
        } else {
            var chain = try chain(txn, session: id, row: row, before: replayer.seq + 1)
            var expected = replayer.seq + 1
            if expected <= count {
                try txn.forEach(in: databases.events, from: StoreKey.event(key, expected)) { k, v in
                    guard let seq = StoreKey.seq(k, session: key), seq <= count else { return false }
                    guard seq == expected else {
                        throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing")
                    }
                    let (event, _) = try decodeRecord(v, session: id, seq: seq, chain: &chain, txn)
                    replayer.apply(event.event)
                    expected += 1
                    return true
                }
            }
            guard replayer.seq == count else {
                throw LMDBEventLogError.corruptRecord(session: id, seq: replayer.seq + 1, reason: "record is missing")
            }
            guard chain.previous == row.headHash else {
                throw LMDBEventLogError.corruptValue(database: "sessions", key: id.rawValue, reason: "the head hash does not match the last record")
            }
            timeBase = chain.timeBase
        }
        // The session's call sites, to give the next events' call sites their indexes: numbered
        // from 0 without a gap, each once (the next one takes the next number).
        var sites: [CallSite: UInt32] = [:]
        try txn.forEach(in: databases.sites, from: SiteCodec.key(key, 0)) { k, v in
            guard let index = SiteCodec.index(k, session: key) else { return false }
            let keyBytes = Array(k)
            let site: CallSite
            do { site = try SiteCodec.decode(v, key: keyBytes) } catch {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(index)", reason: "\(error)")
            }
            guard index == UInt32(sites.count) else {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(sites.count)", reason: "missing (the next entry is \(index))")
            }
            guard sites.updateValue(index, forKey: site) == nil else {
                throw LMDBEventLogError.corruptValue(database: "sites", key: "\(id) call site \(index)", reason: "the same call site as an earlier entry")
            }
            return true
        }
        return SessionHead(replayer: replayer, row: row, timeBase: timeBase, sites: sites, open: open)
    }

    /// Appends a batch in one transaction (see ``LMDBEventLog/append(_:to:expectedSeq:)``), with
    /// `also` writing more in the same transaction (given the session's key prefix): the events are
    /// written in the writer's transaction after the session's head (format 3's bodies encoded
    /// here first), and the writer keeps the head they leave once it commits.
    ///
    /// With `digests` (an append that takes its caller's fold, see
    /// ``LMDBEventLog/appendFolded(_:digests:to:expectedSeq:)``), `digests[k]` is the caller's digest
    /// after event `expectedSeq + 1 + k`: `appendRecords` checks the batch against them, and
    /// nothing is collected (the result is empty).
    func append(_ events: [RecordedEvent], to id: SessionID, expectedSeq: UInt64, digests: [Digest]? = nil,
                also: ((LMDBWriteTransaction, [UInt8]) throws -> Void)? = nil) throws -> [StoredEvent] {
        precondition(digests.map { $0.count == events.count } ?? true, "one digest an event")
        let writer = try requireWriter()
        guard let key = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        try locks?.hold(id)
        // Format 3 encodes the events' bodies here, on the caller's thread, so concurrent appenders
        // share the work. A block store encodes each event in place, in its block, in the
        // transaction: a batch copied out of the array once, and its bodies never copied, cost
        // 12 % fewer instructions an event than bodies encoded beforehand and copied in.
        let bodies = databases.blocks ? nil : StoredPayload.Bodies(events)
        var result: [StoredEvent] = []
        var written = false
        defer {
            // A session that is not there (deleted meanwhile) is not claimed.
            if !written && !events.isEmpty, (try? session(id)) == nil { locks?.release(id) }
        }
        try writer.perform(weight: max(1, events.count)) { [self] txn, heads in
            var head = try loadHead(txn, id, key, heads)
            let actual = head.row.info.eventCount
            guard actual == expectedSeq else {
                throw EventLogError.conflict(session: id, expected: expectedSeq, actual: actual)
            }
            // A key holds a seq of 40 bits.
            guard UInt64(events.count) <= StoreKey.maxSeq - min(actual, StoreKey.maxSeq) else {
                throw LMDBEventLogError.corruptValue(database: "events", key: id.rawValue,
                                                    reason: "the session has \(actual) events; a session holds at most \(StoreKey.maxSeq)")
            }
            // Nothing above wrote; from here on only LMDB errors and a batch that does not fold to
            // its caller's digests can throw (and abort the group, which is then retried job by job).
            let stored = try appendRecords(txn, &head, events, bodies: bodies, id: id, key: key, digests: digests, collect: digests == nil)
            try also?(txn, head.row.eventPrefix)
            heads[id] = head
            result = stored
            written = true
        }
        return result
    }

    /// Writes `events` after `head` in `txn` (their records, call sites and snapshots, and the
    /// session's row, unless `writeRow` is false) and advances `head`; `bodies` are the events'
    /// encoded bodies when the caller encoded them beforehand (an import encodes its next batch
    /// while the writer writes the last), else `nil`. Returns the stored events when `collect` is
    /// true, else nothing.
    ///
    /// With `digests` (the caller's fold, `digests[k]` after `events[k]`), the events are folded
    /// without keeping the digest (the reducer's outcomes, without hashing the terms each event
    /// adds and removes) and each record stores the caller's digest; the digest is computed from
    /// scratch after the batch's last event and after each event a snapshot is stored for, and the
    /// first that is not the caller's throws ``FoldMismatch`` (as a ``Writer/Abort``: the group's
    /// transaction is aborted, so nothing of the batch is stored).
    ///
    /// What that catches: a wrong digest for the batch's last event or for a snapshot's event, and
    /// any event (or earlier digest) whose lie leaves a different state at those points. What it
    /// cannot: a wrong digest for an event in between whose state the later events make right
    /// again (`verify`, which replays every event, names it); every stored outcome is the writer's own.
    func appendRecords(_ txn: LMDBWriteTransaction, _ head: inout SessionHead, _ events: [RecordedEvent], bodies: StoredPayload.Bodies?,
                       id: SessionID, key: [UInt8], digests: [Digest]? = nil, writeRow: Bool = true, collect: Bool = true) throws -> [StoredEvent] {
        if databases.blocks {
            return try appendBlocks(txn, &head, events, bodies: bodies, id: id, key: key, digests: digests, writeRow: writeRow, collect: collect)
        }
        let bodies = bodies ?? StoredPayload.Bodies(events)
        let actual = head.row.info.eventCount
        let interval = options.snapshotInterval
        var stored: [StoredEvent] = []
        if collect { stored.reserveCapacity(events.count) }
        var hash = head.row.headHash
        let firstKey = StoreKey.event(head.row.eventPrefix, actual + 1)
        let inOrder = try txn.lastKey(in: databases.events).map { $0.lexicographicallyPrecedes(firstKey) } ?? true
        let putOptions: LMDBPutOptions = inOrder ? .append : .noOverwrite
        // One key buffer for the whole batch: only its seq bytes change from event to event.
        var eventKey = firstKey
        let prefix = head.row.eventPrefix
        let createdAt = head.row.info.createdAt
        var payload = BinaryWriter()
        // The fold of a batch with its caller's digests: the state without its digest kept.
        var light: NavigationState? = digests == nil ? nil : head.replayer.state
        // One cursor for the batch: consecutive appends skip the tree search of each mdb_put.
        try txn.withCursor(in: databases.events) { cursor in
            for i in events.indices {
                let event = events[i].event
                let step = try fold(event, at: i, of: events.count, &head, light: &light, digests: digests, session: id,
                                    check: { $0 % interval == 0 })
                StoreKey.setSeq(step.seq, in: &eventKey)
                var sum = Digest.zero
                let meta = events[i].meta
                let site = try siteIndex(meta.callSite, txn, &head, prefix: prefix)
                let base = StoredPayload.timeBase(seq: step.seq, running: head.timeBase, createdAt: createdAt)
                payload.bytes.removeAll(keepingCapacity: true)
                StoredPayload.write(meta, base: base, site: site, event: bodies[i], into: &payload)
                head.timeBase = StoredPayload.advance(base, time: meta.timestamp)
                try cursor.put(count: RecordCodec.size(payload: payload.bytes.count), forKey: eventKey, options: putOptions) { out in
                    sum = RecordCodec.write(into: out, kind: event.kind, outcome: step.outcome,
                                            previous: hash, digest: step.digest, payload: payload.bytes)
                }
                hash = sum
                if step.seq % interval == 0 {
                    try txn.put(SnapshotCodec.encode(light ?? head.replayer.state), forKey: eventKey, in: databases.snapshots, options: .noOverwrite)
                }
                if collect { stored.append(StoredEvent(seq: step.seq, recorded: events[i], outcome: step.outcome, digest: step.digest)) }
            }
        }
        try advance(&head, after: events, light: light, hash: hash, txn, writeRow ? key : nil)
        return stored
    }
}

extension StoreContext {
    /// The index of `callSite` in the session's `sites`, its entry written in `txn` when this is
    /// its first use; `nil` for no call site.
    func siteIndex(_ callSite: CallSite?, _ txn: LMDBWriteTransaction, _ head: inout SessionHead, prefix: [UInt8]) throws -> UInt32? {
        guard let callSite else { return nil }
        if let known = head.sites[callSite] { return known }
        // First used here: its entry is written in this transaction.
        let index = UInt32(truncatingIfNeeded: head.sites.count)
        let siteKey = SiteCodec.key(prefix, index)
        try txn.put(SiteCodec.encode(callSite, key: siteKey), forKey: siteKey, in: databases.sites, options: .noOverwrite)
        head.sites[callSite] = index
        return index
    }

    /// Folds event `i` of a batch of `count` after `head`: with the head's replayer, or with the
    /// caller's `digests` into `light` (the state without its digest kept), whose digest is
    /// computed and checked against the caller's after the batch's last event and after each seq
    /// `check` names (a ``FoldMismatch`` aborts the group).
    @inline(__always)
    func fold(_ event: Event, at i: Int, of count: Int, _ head: inout SessionHead, light: inout NavigationState?, digests: [Digest]?,
              session id: SessionID, check: (UInt64) -> Bool) throws -> (seq: UInt64, outcome: Outcome, digest: Digest) {
        guard let digests else {
            let applied = head.replayer.apply(event)
            return (applied.seq, applied.outcome, applied.digest)
        }
        let seq = head.replayer.seq + 1 + UInt64(i)
        let outcome = light!.applyWithoutDigest(event, seq: seq)
        if i == count - 1 || check(seq) { try checkFold(&light, digests[i], seq: seq, session: id) }
        return (seq, outcome, digests[i])
    }

    /// Computes the digest of `light` (a state folded without it) and throws ``FoldMismatch`` (as
    /// a ``Writer/Abort``) unless it is `given`, the caller's.
    func checkFold(_ light: inout NavigationState?, _ given: Digest, seq: UInt64, session id: SessionID) throws {
        let folded = light!.refreshDigest()
        guard folded == given else {
            throw Writer.Abort(error: FoldMismatch(session: id, seq: seq, given: given, folded: folded))
        }
    }

    /// ``appendRecords(_:_:_:bodies:id:key:digests:writeRow:collect:)`` in a format-4 store: the
    /// events join the session's open block (``SessionHead/open``) until it is full, then fill new
    /// ones; each block touched is written whole, once, at the end of the batch or when it fills.
    /// A block closes after ``BlockCodec/maxEvents`` events, or before an event that would take
    /// it past ``BlockCodec/capacity`` bytes. With the caller's `digests`, the digest is also
    /// computed and checked at the end of every block, which stores it.
    func appendBlocks(_ txn: LMDBWriteTransaction, _ head: inout SessionHead, _ events: [RecordedEvent], bodies: StoredPayload.Bodies?,
                      id: SessionID, key: [UInt8], digests: [Digest]?, writeRow: Bool, collect: Bool) throws -> [StoredEvent] {
        let actual = head.row.info.eventCount
        let interval = options.snapshotInterval
        let prefix = head.row.eventPrefix
        let createdAt = head.row.info.createdAt
        var stored: [StoredEvent] = []
        if collect { stored.reserveCapacity(events.count) }
        var assembly = BlockAssembly(open: head.open ?? OpenBlock(first: actual + 1, count: 0, body: [], previous: head.row.headHash),
                                     hash: head.row.headHash, digest: head.replayer.state.digest, actual: actual,
                                     lastStored: try txn.lastKey(in: databases.events), prefix: prefix)
        // Its entries are added to in place, not copied.
        head.open = nil
        var light: NavigationState? = digests == nil ? nil : head.replayer.state
        // The next seq a snapshot is stored after (a multiple of the interval).
        var snapshotSeq = (actual / interval + 1) * interval
        try txn.withCursor(in: databases.events) { cursor in
            for i in events.indices {
                let seq = actual + 1 + UInt64(i)
                // One copy of the event and its metadata, which everything below borrows.
                let recorded = events[i]
                let site = try siteIndex(recorded.meta.callSite, txn, &head, prefix: prefix)
                // The entry is written at the end of the open block (its outcome byte, the same
                // size whatever the outcome, is set once folded); when it does not fit, the full
                // block closes, and the entry starts a new one, from the creation time.
                var entryAt = assembly.write(recorded, base: assembly.open.count == 0 ? createdAt : head.timeBase, site: site, body: bodies?[i])
                if entryAt == nil {
                    // A block this batch did not add to (full already) stays as it is stored.
                    if assembly.touched {
                        // The caller's digest after the block's last event is checked before it is stored.
                        if digests != nil { try checkFold(&light, assembly.digest, seq: seq - 1, session: id) }
                        try assembly.put(cursor)
                    }
                    assembly.start(at: seq)
                    head.timeBase = createdAt
                    entryAt = assembly.write(recorded, base: createdAt, site: site, body: bodies?[i])
                }
                let step = try fold(recorded.event, at: i, of: events.count, &head, light: &light, digests: digests, session: id,
                                    check: { $0 == snapshotSeq })
                // An empty block takes any entry.
                assembly.added(outcome: step.outcome.wireCode, at: entryAt!, digest: step.digest)
                head.timeBase = StoredPayload.advance(assembly.open.count == 1 ? createdAt : head.timeBase, time: recorded.meta.timestamp)
                if step.seq == snapshotSeq {
                    snapshotSeq += interval
                    try txn.put(SnapshotCodec.encode(light ?? head.replayer.state), forKey: StoreKey.event(prefix, step.seq),
                                in: databases.snapshots, options: .noOverwrite)
                }
                if collect { stored.append(StoredEvent(seq: step.seq, recorded: recorded, outcome: step.outcome, digest: step.digest)) }
            }
            if assembly.touched { try assembly.put(cursor) }
        }
        head.open = assembly.open.count > 0 ? assembly.open : nil
        try advance(&head, after: events, light: light, hash: assembly.hash, txn, writeRow ? key : nil)
        return stored
    }

    /// Moves `head` past the batch `events` just written: the state (`light`'s, when the batch was
    /// folded without digests), the row's count, digest, head hash and last time, and the row
    /// written under `rowKey` when one is given.
    private func advance(_ head: inout SessionHead, after events: [RecordedEvent], light: NavigationState?, hash: Digest,
                         _ txn: LMDBWriteTransaction, _ rowKey: [UInt8]?) throws {
        if let light { head.replayer = Replayer(state: light, seq: head.row.info.eventCount + UInt64(events.count)) }
        head.row.info.eventCount = head.replayer.seq
        head.row.info.headDigest = head.replayer.state.digest
        head.row.headHash = hash
        if let last = events.last { head.row.info.lastEventAt = last.meta.timestamp }
        if let rowKey { try txn.put(head.row.encode(), forKey: rowKey, in: databases.sessions) }
    }
}

/// The blocks a batch of ``StoreContext/appendBlocks(_:_:_:bodies:id:key:digests:writeRow:collect:)``
/// fills: the session's open block, the checksum of the last block written, and the digest after
/// the open block's last event.
struct BlockAssembly {
    var open: OpenBlock
    /// The checksum of the last block written (the chain's head).
    var hash: Digest
    /// The digest after the open block's last event.
    var digest: Digest
    /// The session's last stored seq before the batch.
    let actual: UInt64
    /// The last key of the events database before the batch.
    let lastStored: [UInt8]?
    /// The open block's key.
    var key: [UInt8]

    init(open: OpenBlock, hash: Digest, digest: Digest, actual: UInt64, lastStored: [UInt8]?, prefix: [UInt8]) {
        self.open = open
        self.hash = hash
        self.digest = digest
        self.actual = actual
        self.lastStored = lastStored
        key = StoreKey.event(prefix, open.first)
    }

    /// Whether the open block took an event of this batch (and must be written): its last seq is
    /// past the stored head.
    var touched: Bool { open.count > 0 && open.first &+ UInt64(open.count) > actual &+ 1 }

    /// Writes an entry at the end of the open block's body, in place (``OpenBlock/appendEntry(_:)``):
    /// an outcome byte (0 until ``added(outcome:at:digest:)`` sets it), then the payload, with the
    /// event's `body` when it was encoded beforehand, else the event encoded here. Returns where
    /// the entry starts, or `nil` when the block is full (and left as it was).
    mutating func write(_ recorded: RecordedEvent, base: Int64, site: UInt32?, body: ArraySlice<UInt8>?) -> Int? {
        open.appendEntry { w in
            w.writeByte(0)
            if let body {
                StoredPayload.write(recorded.meta, base: base, site: site, event: body, into: &w)
            } else {
                StoredPayload.write(recorded.meta, base: base, site: site, event: recorded.event, into: &w)
            }
        }
    }

    /// The entry written at `offset` of the open block's body is its last: its outcome byte is
    /// set, and `digest` is the digest after its event.
    mutating func added(outcome: UInt8, at offset: Int, digest: Digest) {
        open.body[offset] = outcome
        open.count += 1
        self.digest = digest
    }

    /// Opens a new block at `seq`, chained to the last one written.
    mutating func start(at seq: UInt64) {
        open = OpenBlock(first: seq, count: 0, body: [], previous: hash)
        open.body.reserveCapacity(BlockCodec.capacity)
        StoreKey.setSeq(seq, in: &key)
    }

    /// Writes the open block whole: a block stored before this batch is rewritten in place; a new
    /// one is put with MDB_APPEND when it sorts after every key stored (no later session has events).
    mutating func put(_ cursor: LMDBWriteCursor) throws {
        let isNew = open.first > actual
        let inOrder = lastStored.map { $0.lexicographicallyPrecedes(key) } ?? true
        let options: LMDBPutOptions = !isNew ? [] : (inOrder ? .append : .noOverwrite)
        var sum = Digest.zero
        try cursor.put(count: BlockCodec.size(body: open.body.count), forKey: key, options: options) { [open, digest] out in
            sum = BlockCodec.write(into: out, count: open.count, digest: digest, body: open.body, previous: open.previous)
        }
        hash = sum
    }
}
