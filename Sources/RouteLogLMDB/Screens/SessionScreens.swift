@_spi(Tools) import RouteLogCore

/// A session's screen records (``/RouteLogCore/ScreenRecord``): in `meta`, under `scr` + the
/// session's number (4 bytes) + the record's number (8 bytes, big-endian, from 1), so a session's
/// records sort together in the order they were made. Each value is the record format byte, the
/// record in the core's binary form and a checksum of the key and the bytes before it (a record
/// altered or moved to another key fails). Like runs, they are metadata beside the event chain:
/// they change no record, checksum, digest, snapshot or replay, and an older reader never reads
/// them (it looks up `meta` only by its own keys).
struct SessionScreens {
    let context: StoreContext

    static let keyPrefix: [UInt8] = Array("scr".utf8)

    static func prefix(_ sessionPrefix: [UInt8]) -> [UInt8] { keyPrefix + sessionPrefix }

    static func key(_ sessionPrefix: [UInt8], _ number: UInt64) -> [UInt8] {
        prefix(sessionPrefix) + withUnsafeBytes(of: number.bigEndian) { Array($0) }
    }

    static func encode(_ record: ScreenRecord, key: [UInt8]) -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.write(record)
        w.write(checksum(key + w.bytes))
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> ScreenRecord {
        guard bytes.count >= 17 else { throw BinaryDecodingError(offset: 0, message: "\(bytes.count) bytes, too short for a screen record") }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var seal = BinaryReader(bytes, offset: body.count)
        guard checksum(Array(key) + Array(body)) == (try seal.readDigest()) else {
            throw BinaryDecodingError(offset: body.count, message: "checksum mismatch")
        }
        var r = BinaryReader(body)
        try r.readRecordFormat("screen record")
        let record = try r.readScreenRecord()
        try r.expectEnd()
        return record
    }

    /// Appends `records` after the session's last screen record, in one write transaction.
    func append(_ records: [ScreenRecord], to id: SessionID) throws {
        guard !records.isEmpty else { return }
        let writer = try context.requireWriter()
        let key = try context.sessionKey(id)
        try writer.perform(weight: records.count) { [self] txn, _ in
            guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            try write(records, prefix: row.eventPrefix, txn)
        }
    }

    /// The number of the session's last screen record, 0 when it has none.
    static func lastNumber(_ txn: LMDBReadTransaction, _ sessionPrefix: [UInt8], in meta: LMDBDatabase) throws -> UInt64 {
        let p = prefix(sessionPrefix)
        let n = try txn.withLastEntry(in: meta, before: p + [UInt8](repeating: 0xFF, count: 9)) { k, _ -> UInt64 in
            guard k.count == p.count + 8, k.starts(with: p) else { return 0 }
            return k[p.count...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        return n ?? 0
    }

    /// Calls `body` with the session's screen records, oldest first, in read transactions of at
    /// most 4,096 records. A record that does not decode throws
    /// ``LMDBEventLogError/corruptValue(database:key:reason:)`` naming it.
    func read(_ id: SessionID, _ body: (ScreenRecord) throws -> Bool) throws {
        let key = try context.sessionKey(id)
        let meta = context.databases.meta
        var after: UInt64 = 0
        while true {
            let (batch, more): ([ScreenRecord], Bool) = try context.withRead("reading the screen records of session \(id)") { txn in
                guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
                let p = Self.prefix(row.eventPrefix)
                var out: [ScreenRecord] = []
                var more = false
                try txn.forEach(in: meta, from: Self.key(row.eventPrefix, after + 1)) { k, v in
                    guard k.count == p.count + 8, k.starts(with: p) else { return false }
                    if out.count == 4_096 { more = true; return false }
                    let n = k[p.count...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    do { out.append(try Self.decode(v, key: k)) } catch {
                        throw LMDBEventLogError.corruptValue(database: "meta", key: "screen record \(n) of \(id)", reason: "\(error)")
                    }
                    after = n
                    return true
                }
                return (out, more)
            }
            for r in batch where try !body(r) { return }
            if !more { return }
        }
    }

    /// Writes `records` as the screen records of the session numbered `sessionPrefix` in `txn`
    /// (a moved session's), after those it has.
    func write(_ records: [ScreenRecord], prefix sessionPrefix: [UInt8], _ txn: LMDBWriteTransaction) throws {
        var next = try Self.lastNumber(txn, sessionPrefix, in: context.databases.meta) + 1
        for record in records {
            let k = Self.key(sessionPrefix, next)
            try txn.put(Self.encode(record, key: k), forKey: k, in: context.databases.meta)
            next += 1
        }
    }

    /// Removes the screen records of the session numbered `sessionPrefix` (with the session, in `txn`).
    static func remove(prefix sessionPrefix: [UInt8], _ txn: LMDBWriteTransaction, in meta: LMDBDatabase) throws {
        try txn.deleteAll(withPrefix: prefix(sessionPrefix), in: meta)
    }
}

extension SessionScreens {
    /// How many screen records the session has.
    func count(_ id: SessionID) throws -> Int {
        let key = try context.sessionKey(id)
        let meta = context.databases.meta
        return try context.withRead("counting the screen records of session \(id)") { txn in
            guard let row = try context.readRow(txn, id, key) else { throw EventLogError.sessionNotFound(id) }
            return Int(clamping: try Self.lastNumber(txn, row.eventPrefix, in: meta))
        }
    }

    /// The session's screen records, oldest first.
    func all(_ id: SessionID) throws -> [ScreenRecord] {
        var out: [ScreenRecord] = []
        try read(id) { out.append($0); return true }
        return out
    }
}

@_spi(Tools) extension LMDBEventLog: ScreenRecordingEventLog {
    /// Appends screen records to a session, in one write transaction of their own (see
    /// ``/RouteLogCore/ScreenRecord``; the store format guide says how they are kept).
    public func appendScreenRecords(_ records: [ScreenRecord], to session: SessionID) throws {
        try SessionScreens(context: context).append(records, to: session)
    }

    /// How many screen records the session has: the number of its last one (records are numbered
    /// from 1 without a gap), one lookup.
    public func screenRecordCount(_ session: SessionID) throws -> Int {
        try SessionScreens(context: context).count(session)
    }

    /// Calls `body` with the session's screen records, oldest first.
    public func readScreenRecords(_ session: SessionID, _ body: (ScreenRecord) throws -> Bool) throws {
        try SessionScreens(context: context).read(session, body)
    }
}
