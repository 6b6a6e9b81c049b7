import Foundation
@_spi(Tools) import RouteLogCore

// Decoding stored event records, each against the checksum chain of its session.

extension StoreContext {
    /// Parses a stored event record and checks its checksum, chained to `chain.previous`.
    func checkedRecord(_ bytes: UnsafeRawBufferPointer, session: SessionID, seq: UInt64, previous: Digest) throws -> RawRecord {
        let raw: RawRecord
        do { raw = try RecordCodec.parse(bytes, previous: previous) } catch {
            throw LMDBEventLogError.corruptRecord(session: session, seq: seq, reason: "\(error)")
        }
        guard raw.computedChecksum == raw.storedChecksum else {
            throw LMDBEventLogError.corruptRecord(session: session, seq: seq, reason: "checksum mismatch")
        }
        return raw
    }

    /// Decodes a stored event record, the next of `chain`, checking its structure and its
    /// checksum, and moves `chain` past it.
    func decodeRecord(_ bytes: UnsafeRawBufferPointer, session: SessionID, seq: UInt64, chain: inout RecordChain,
                      _ txn: LMDBReadTransaction) throws -> (StoredEvent, RawRecord) {
        let raw = try checkedRecord(bytes, session: session, seq: seq, previous: chain.previous)
        let recorded: RecordedEvent
        do { recorded = try decodePayload(raw, seq: seq, chain: &chain, txn) } catch {
            throw LMDBEventLogError.corruptRecord(session: session, seq: seq, reason: "undecodable event payload: \(error)")
        }
        return (StoredEvent(seq: seq, recorded: recorded, outcome: raw.outcome, digest: raw.digest), raw)
    }

    /// Decodes the payload of a record whose checksum was checked, and moves `chain` past it.
    func decodePayload(_ raw: RawRecord, seq: UInt64, chain: inout RecordChain, _ txn: LMDBReadTransaction) throws(BinaryDecodingError) -> RecordedEvent {
        let base = StoredPayload.timeBase(seq: seq, running: chain.timeBase, createdAt: chain.createdAt)
        let recorded = try StoredPayload.decode(raw.payload, base: base) { index throws(BinaryDecodingError) in
            try callSite(index, chain: &chain, txn)
        }
        chain.timeBase = StoredPayload.advance(base, time: recorded.meta.timestamp)
        chain.previous = raw.storedChecksum
        return recorded
    }

    /// The call site `index` of the chain's session, from its cache or the `sites` database.
    func callSite(_ index: UInt32, chain: inout RecordChain, _ txn: LMDBReadTransaction) throws(BinaryDecodingError) -> CallSite {
        if let site = chain.sites[index] { return site }
        let key = SiteCodec.key(chain.prefix, index)
        let found: Result<CallSite, BinaryDecodingError>?
        do {
            found = try txn.withValue(forKey: key, in: databases.sites) { bytes in
                do throws(BinaryDecodingError) { return .success(try SiteCodec.decode(bytes, key: key)) } catch { return .failure(error) }
            }
        } catch {
            throw BinaryDecodingError(offset: 0, message: "call site \(index) cannot be read: \(error)")
        }
        guard let found else { throw BinaryDecodingError(offset: 0, message: "call site \(index) is missing") }
        switch found {
        case .success(let site):
            chain.sites[index] = site
            return site
        case .failure(let error):
            throw BinaryDecodingError(offset: 0, message: "call site \(index): \(error)")
        }
    }

    /// A chain positioned before record `seq` of the session with `row`: it reads the records
    /// from the time anchor before `seq` (checking their checksums, chained to the checksum of the
    /// record before the anchor) for the time base and the previous checksum.
    func chain(_ txn: LMDBReadTransaction, session id: SessionID, row: SessionRow, before seq: UInt64) throws -> RecordChain {
        let prefix = row.eventPrefix
        var chain = RecordChain(prefix: prefix, createdAt: row.info.createdAt, previous: .zero, timeBase: row.info.createdAt)
        guard seq > 1 else { return chain }
        let anchor = StoredPayload.anchor(before: seq)
        if anchor > 1 {
            let before = anchor - 1
            guard let sum = try txn.withValue(forKey: StoreKey.event(prefix, before), in: databases.events, { RecordCodec.storedChecksum($0) }) else {
                throw LMDBEventLogError.corruptRecord(session: id, seq: before, reason: "record is missing")
            }
            guard let sum else {
                throw LMDBEventLogError.corruptRecord(session: id, seq: before, reason: "truncated: shorter than a record")
            }
            chain.previous = sum
        }
        var expected = anchor
        if anchor < seq {
            try txn.forEach(in: databases.events, from: StoreKey.event(prefix, anchor)) { k, v in
                guard let s = StoreKey.seq(k, session: prefix), s < seq else { return false }
                guard s == expected else { throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing") }
                let raw = try checkedRecord(v, session: id, seq: s, previous: chain.previous)
                let base = StoredPayload.timeBase(seq: s, running: chain.timeBase, createdAt: chain.createdAt)
                do {
                    chain.timeBase = StoredPayload.advance(base, time: try StoredPayload.time(raw.payload, base: base))
                } catch {
                    throw LMDBEventLogError.corruptRecord(session: id, seq: s, reason: "undecodable event payload: \(error)")
                }
                chain.previous = raw.storedChecksum
                expected += 1
                return true
            }
        }
        guard expected == seq else { throw LMDBEventLogError.corruptRecord(session: id, seq: expected, reason: "record is missing") }
        return chain
    }
}
