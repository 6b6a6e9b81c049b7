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
                    guard digest == raw.digest && outcome == raw.outcome else {
                        let message = digest != raw.digest
                            ? "stored digest \(raw.digest.short), replay gives \(digest.short)"
                            : "stored outcome \(raw.outcome), replay gives \(outcome)"
                        fail(seq, digest != raw.digest ? .digest : .outcome, message, stored: raw.digest, replayed: digest)
                        report.failure?.event = recorded
                        report.failure?.storedOutcome = raw.outcome
                        report.failure?.replayedOutcome = outcome
                        report.failure?.stateBefore = before
                        report.failure?.replayedState = state
                        return false
                    }
                    if let snap = snapshotDigests[seq] {
                        if snap != digest {
                            fail(seq, .snapshot, "snapshot digest \(snap.short), replay gives \(digest.short)", stored: snap, replayed: digest)
                            return false
                        }
                        report.snapshotsChecked += 1
                    }
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
        // Events appended (by any process) while verifying are not checked, but a record or a
        // snapshot beyond the head the session has now is damage: read both in one transaction.
        var head = count
        if report.failure == nil {
            let beyond: UInt64?
            (head, beyond) = try context.withRead("verifying session \(id)") { txn in
                let current = try context.readRow(txn, id, rowKey)?.info.eventCount ?? count
                var found: UInt64?
                try txn.forEach(in: context.databases.events, from: StoreKey.event(key, current &+ 1)) { k, _ in
                    found = StoreKey.seq(k, session: key)
                    return false
                }
                return (current, found)
            }
            if let beyond, head < .max { fail(beyond, .chain, "record beyond the session's head (seq \(head))") }
        }
        if report.failure == nil, chain.previous != row.headHash {
            fail(count, .chain, "the session's head hash does not match its last record")
        }
        if report.failure == nil, let snapshotFailure { report.failure = snapshotFailure }
        if report.failure == nil, let beyond = snapshotDigests.keys.filter({ $0 > head }).min() {
            fail(beyond, .snapshot, "snapshot beyond the session's head (seq \(head))")
        }
        return report
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
