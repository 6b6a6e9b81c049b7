import RouteLogCore

extension LMDBEventLog.Head {
    /// The head of a new session with no events, whose row is `row`.
    init(emptySession row: SessionRow) {
        self.init(replayer: Replayer(), row: row, timeBase: row.info.createdAt, sites: [:])
    }
}

extension LMDBEventLog {
    /// Writes `events` after `head` in `txn` (their records, call sites and snapshots, and the
    /// session's row, unless `writeRow` is false) and advances `head`; `bodies` are the events'
    /// encoded bodies. Returns the stored events when `collect` is true, else nothing.
    func appendRecords(_ txn: LMDBWriteTransaction, _ head: inout Head, _ events: [RecordedEvent], bodies: [[UInt8]],
                       id: SessionID, key: [UInt8], writeRow: Bool = true, collect: Bool = true) throws -> [StoredEvent] {
        let actual = head.row.info.eventCount
        let interval = options.snapshotInterval
        var stored: [StoredEvent] = []
        if collect { stored.reserveCapacity(events.count) }
        var hash = head.row.headHash
        let firstKey = StoreKey.event(head.row.eventPrefix, actual + 1)
        let inOrder = try txn.lastKey(in: eventsDB).map { $0.lexicographicallyPrecedes(firstKey) } ?? true
        let putOptions: LMDBPutOptions = inOrder ? .append : .noOverwrite
        // One key buffer for the whole batch: only its seq bytes change from event to event.
        var eventKey = firstKey
        let prefix = head.row.eventPrefix
        let createdAt = head.row.info.createdAt
        var payload = BinaryWriter()
        // One cursor for the batch: consecutive appends skip the tree search of each mdb_put.
        try txn.withCursor(in: eventsDB) { cursor in
            for i in events.indices {
                let event = events[i].event
                let step = head.replayer.apply(event)
                StoreKey.setSeq(step.seq, in: &eventKey)
                var sum = Digest.zero
                let meta = events[i].meta
                var site: UInt32?
                if let callSite = meta.callSite {
                    if let known = head.sites[callSite] {
                        site = known
                    } else {
                        // First used here: its entry is written in this transaction.
                        let index = UInt32(truncatingIfNeeded: head.sites.count)
                        let siteKey = SiteCodec.key(prefix, index)
                        try txn.put(SiteCodec.encode(callSite, key: siteKey), forKey: siteKey, in: sitesDB, options: .noOverwrite)
                        head.sites[callSite] = index
                        site = index
                    }
                }
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
                    try txn.put(SnapshotCodec.encode(head.replayer.state), forKey: eventKey, in: snapshotsDB, options: .noOverwrite)
                }
                if collect { stored.append(StoredEvent(seq: step.seq, recorded: events[i], outcome: step.outcome, digest: step.digest)) }
            }
        }
        head.row.info.eventCount = head.replayer.seq
        head.row.info.headDigest = head.replayer.state.digest
        head.row.headHash = hash
        if let last = events.last { head.row.info.lastEventAt = last.meta.timestamp }
        if writeRow { try txn.put(head.row.encode(), forKey: key, in: sessionsDB) }
        return stored
    }
}
