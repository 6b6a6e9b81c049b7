@_spi(Tools) import RouteLogCore

/// Verification: reads a session's records (`events`), snapshots (`snapshots`) and call sites
/// (`sites`) as they are stored and checks them against their checksum chain and a fresh replay.
struct StoreVerifier {
    let context: StoreContext

    /// Checks session `id` against a replay with `reducer` (see
    /// ``LMDBEventLog/verify(session:reducer:)``).
    func verify(
        session id: SessionID,
        reducer: NavigationState.Reducer
    ) throws -> VerificationReport {
        guard let rowKey = StoreKey.sessionBytes(id) else { throw EventLogError.sessionNotFound(id) }
        guard let row = try context.withRead("verifying session \(id)", { try context.readRow($0, id, rowKey) }) else {
            throw EventLogError.sessionNotFound(id)
        }
        let key = row.eventPrefix
        let count = row.info.eventCount
        var report = VerificationReport(session: id, eventsChecked: 0, snapshotsChecked: 0, failure: nil)
        var state = NavigationState()
        var folded: UInt64 = 0
        // The previous checksum, the time base and the call sites, from record to record.
        var chain = RecordChain(prefix: key, createdAt: row.info.createdAt, previous: .zero, timeBase: row.info.createdAt)
        var snapshotDigests: [UInt64: Digest] = [:]
        var snapshotFailure: VerificationFailure?

        // Snapshots are few: collect their digests (or the first unreadable one) up front.
        try context.withRead("verifying session \(id)") { txn in
            try txn.forEach(in: context.databases.snapshots, from: StoreKey.event(key, 0)) { k, v in
                guard let seq = StoreKey.seq(k, session: key) else { return false }
                do {
                    snapshotDigests[seq] = try SnapshotCodec.decode(v).digest
                } catch {
                    if snapshotFailure == nil {
                        snapshotFailure = VerificationFailure(seq: seq, check: .snapshot, message: "snapshot unreadable: \(error)")
                    }
                }
                return true
            }
        }

        func fail(_ seq: UInt64, _ check: VerificationFailure.Check, _ message: String, stored: Digest? = nil, replayed: Digest? = nil) {
            if report.failure == nil {
                report.failure = VerificationFailure(seq: seq, check: check, storedDigest: stored, replayedDigest: replayed, message: message)
            }
        }

        // A failure found by a fresh replay: the event and the states around it go in the report.
        func failReplay(_ seq: UInt64, _ check: VerificationFailure.Check, _ message: String, stored: Digest?, replayed: Digest,
                        event: RecordedEvent, storedOutcome: Outcome, outcome: Outcome, before: NavigationState) {
            fail(seq, check, message, stored: stored, replayed: replayed)
            report.failure?.event = event
            report.failure?.storedOutcome = storedOutcome
            report.failure?.replayedOutcome = outcome
            report.failure?.stateBefore = before
            report.failure?.replayedState = state
        }
        /// Checks the replay of event `seq` (`replayed` digest and `outcome`) against what the store
        /// holds for it and against the snapshot stored there, if any; false after the first failure.
        func checkReplay(_ seq: UInt64, _ event: RecordedEvent, stored: Digest, storedOutcome: Outcome, replayed: Digest, outcome: Outcome,
                         before: NavigationState) -> Bool {
            guard replayed == stored && outcome == storedOutcome else {
                let message = replayed != stored
                    ? "stored digest \(stored.short), replay gives \(replayed.short)"
                    : "stored outcome \(storedOutcome), replay gives \(outcome)"
                failReplay(seq, replayed != stored ? .digest : .outcome, message, stored: stored, replayed: replayed,
                           event: event, storedOutcome: storedOutcome, outcome: outcome, before: before)
                return false
            }
            guard let snap = snapshotDigests[seq] else { return true }
            if snap != replayed {
                fail(seq, .snapshot, "snapshot digest \(snap.short), replay gives \(replayed.short)", stored: snap, replayed: replayed)
                return false
            }
            report.snapshotsChecked += 1
            return true
        }

        if context.databases.blocks {
            // Format 4: block by block, each against the chain, its events' stored outcomes and the
            // digest stored after its last event.
            var position: UInt64 = 1
            var derived = NavigationState()
            while report.failure == nil && position <= count {
                let read = try context.withRead("verifying session \(id)") { txn -> Int in
                    var blocks = 0
                    try txn.forEach(in: context.databases.events, from: StoreKey.event(key, position)) { k, v in
                        guard let first = StoreKey.seq(k, session: key), first <= count else { return false }
                        guard first == position else {
                            fail(position, .chain, "record is missing (the next block starts at seq \(first))")
                            return false
                        }
                        let raw: RawBlock
                        do { raw = try BlockCodec.parse(v, previous: chain.previous) } catch {
                            fail(first, .checksum, "block unreadable: \(error)")
                            return false
                        }
                        guard raw.computedChecksum == raw.storedChecksum else {
                            if let other = try blockChainedAfter(v, txn: txn, prefix: key, excluding: first) {
                                fail(first, .chain, "the block of seq \(first) on is out of place: its checksum chains it after \(other == 0 ? "the start of a session" : "the block ending at seq \(other)"), not after seq \(first - 1)")
                            } else {
                                fail(first, .checksum, "the block of seq \(first) on does not match its checksum")
                            }
                            return false
                        }
                        let end = first + UInt64(raw.count) - 1
                        do {
                            try context.decodeBlock(raw, first: first, session: id, chain: &chain, txn) { seq, recorded, stored in
                                guard report.failure == nil, seq <= count else { return }
                                // The digest the store implies for this event: the fold of the
                                // current reducer, checked against the stored one at the block's end.
                                derived.apply(recorded.event, seq: seq)
                                let storedDigest = derived.digest
                                let before = state
                                folded += 1
                                let outcome = reducer(&state, recorded.event, folded)
                                let digest = state.digest
                                if seq == end, storedDigest != raw.digest {
                                    failReplay(seq, .digest, "stored digest \(raw.digest.short) after seq \(seq) (the last of the block of seq \(first) on), the block's events fold to \(storedDigest.short)",
                                               stored: raw.digest, replayed: storedDigest, event: recorded, storedOutcome: stored, outcome: outcome, before: before)
                                } else if checkReplay(seq, recorded, stored: storedDigest, storedOutcome: stored, replayed: digest, outcome: outcome,
                                                      before: before) {
                                    report.eventsChecked = seq
                                }
                            }
                        } catch let LMDBEventLogError.corruptRecord(_, seq, reason) {
                            fail(seq, .checksum, "payload unreadable: \(reason)")
                        }
                        if report.failure != nil { return false }
                        position = end + 1
                        blocks += 1
                        return blocks < 64
                    }
                    return blocks
                }
                if report.failure != nil { break }
                if read == 0 {
                    fail(position, .chain, "record is missing (the session's head is seq \(count))")
                    break
                }
            }
        } else {
            var next: UInt64 = 1
            while report.failure == nil && next <= count {
                let end = min(count, next &+ StoreContext.readChunk - 1)
                try context.withRead("verifying session \(id)") { txn in
                    var expected = next
                    try txn.forEach(in: context.databases.events, from: StoreKey.event(key, next)) { k, v in
                        guard let seq = StoreKey.seq(k, session: key), seq <= end else { return false }
                        guard seq == expected else {
                            fail(expected, .chain, "record is missing (the next stored one is seq \(seq))")
                            return false
                        }
                        let raw: RawRecord
                        do { raw = try RecordCodec.parse(v, previous: chain.previous) } catch {
                            fail(seq, .checksum, "record unreadable: \(error)")
                            return false
                        }
                        guard raw.computedChecksum == raw.storedChecksum else {
                            // The checksum covers the previous record's too: an intact record out of
                            // its place still matches when chained to the record it followed.
                            if let other = try chainedAfter(v, txn: txn, prefix: key, count: count, excluding: seq) {
                                fail(seq, .chain, "the record is out of place: its checksum chains it after \(other == 0 ? "the start of a session" : "the record stored as seq \(other)"), not after seq \(seq - 1)")
                            } else {
                                fail(seq, .checksum, "the record's bytes do not match its checksum")
                            }
                            return false
                        }
                        let recorded: RecordedEvent
                        do { recorded = try context.decodePayload(raw, seq: seq, chain: &chain, txn) } catch {
                            fail(seq, .checksum, "payload unreadable: \(error)")
                            return false
                        }
                        let before = state
                        folded += 1
                        let outcome = reducer(&state, recorded.event, folded)
                        let digest = state.digest
                        guard checkReplay(seq, recorded, stored: raw.digest, storedOutcome: raw.outcome, replayed: digest, outcome: outcome,
                                          before: before) else { return false }
                        report.eventsChecked = seq
                        expected += 1
                        return true
                    }
                }
                if report.failure != nil { break }
                if folded < end {
                    fail(folded + 1, .chain, "record is missing (the session's head is seq \(count))")
                    break
                }
                next = end + 1
            }
        }
        // Events appended (by any process) while verifying are not checked, but a record or a
        // snapshot beyond the head the session has now is damage: read both in one transaction.
        var head = count
        if report.failure == nil {
            let beyond: UInt64?
            (head, beyond) = try context.withRead("verifying session \(id)") { txn in
                let current = try context.readRow(txn, id, rowKey)?.info.eventCount ?? count
                var found: UInt64?
                if context.databases.blocks {
                    // The last block ends at the head; no block starts after it.
                    try txn.withLastEntry(in: context.databases.events, before: StoreKey.event(key, StoreKey.maxSeq + 1)) { k, v in
                        guard let first = StoreKey.seq(k, session: key), let raw = try? BlockCodec.parse(v, previous: .zero) else { return }
                        let end = first + UInt64(raw.count) - 1
                        if end > current { found = max(first, current + 1) }
                    }
                } else {
                    try txn.forEach(in: context.databases.events, from: StoreKey.event(key, current &+ 1)) { k, _ in
                        found = StoreKey.seq(k, session: key)
                        return false
                    }
                }
                return (current, found)
            }
            if let beyond, head < .max { fail(beyond, .chain, "record beyond the session's head (seq \(head))") }
        }
        // A block the session's writer rewrote since it was read (events appended meanwhile) has
        // another checksum: the head hash is checked when the head did not move.
        if report.failure == nil, chain.previous != row.headHash, !context.databases.blocks || head == count {
            fail(count, .chain, "the session's head hash does not match its last record")
        }
        if report.failure == nil, let snapshotFailure { report.failure = snapshotFailure }
        if report.failure == nil, let beyond = snapshotDigests.keys.filter({ $0 > head }).min() {
            fail(beyond, .snapshot, "snapshot beyond the session's head (seq \(head))")
        }
        return report
    }

    /// The last seq of the stored block of the session whose checksum `block` chains to (0 for the
    /// start of a session), if any. Only called once a checksum failed.
    private func blockChainedAfter(_ block: UnsafeRawBufferPointer, txn: LMDBReadTransaction, prefix: [UInt8], excluding: UInt64) throws -> UInt64? {
        func matches(_ previous: Digest) -> Bool {
            guard let raw = try? BlockCodec.parse(block, previous: previous) else { return false }
            return raw.computedChecksum == raw.storedChecksum
        }
        if matches(.zero) { return 0 }
        var found: UInt64?
        try txn.forEach(in: context.databases.events, from: StoreKey.event(prefix, 1)) { k, v in
            guard let first = StoreKey.seq(k, session: prefix) else { return false }
            if let raw = try? BlockCodec.parse(v, previous: .zero) {
                let end = first + UInt64(raw.count) - 1
                if end + 1 != excluding, matches(raw.storedChecksum) { found = end }
            }
            return found == nil
        }
        return found
    }

    /// The seq of the stored record of the session whose checksum `record` chains to (0 for the
    /// start of a session), if any: tells a record out of place from one whose bytes changed.
    /// Only called once a checksum failed.
    private func chainedAfter(_ record: UnsafeRawBufferPointer, txn: LMDBReadTransaction, prefix: [UInt8], count: UInt64, excluding: UInt64) throws -> UInt64? {
        func matches(_ previous: Digest) -> Bool {
            guard let raw = try? RecordCodec.parse(record, previous: previous) else { return false }
            return raw.computedChecksum == raw.storedChecksum
        }
        if matches(.zero) { return 0 }
        var found: UInt64?
        try txn.forEach(in: context.databases.events, from: StoreKey.event(prefix, 1)) { k, v in
            guard let seq = StoreKey.seq(k, session: prefix) else { return false }
            if seq + 1 != excluding, let sum = RecordCodec.storedChecksum(v), matches(sum) { found = seq }
            return found == nil
        }
        return found
    }
}
