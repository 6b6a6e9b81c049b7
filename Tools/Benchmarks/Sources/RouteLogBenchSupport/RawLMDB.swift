import CRawLMDB

/// Raw LMDB, for the baselines: `mdb_put` of prepared bytes and a raw cursor scan, with none of
/// the store's checks.
public final class RawLMDB {
    let env: OpaquePointer
    var dbi: MDB_dbi = 0

    /// Opens (creating) an environment in the directory `path` with one named database `events`.
    /// - Parameter noSync: `MDB_NOSYNC`: commits are not flushed (not durable).
    public init(path: String, mapSize: Int = 8 << 30, noSync: Bool = false) throws {
        var e: OpaquePointer?
        try Self.check(mdb_env_create(&e), "mdb_env_create")
        env = e!
        try Self.check(mdb_env_set_mapsize(env, mapSize), "mdb_env_set_mapsize")
        try Self.check(mdb_env_set_maxdbs(env, 4), "mdb_env_set_maxdbs")
        var flags = UInt32(MDB_NOTLS)
        if noSync { flags |= UInt32(MDB_NOSYNC) }
        do {
            try Self.check(mdb_env_open(env, path, flags, 0o600), "mdb_env_open \(path)")
            try write { txn in
                try Self.check(mdb_dbi_open(txn, "events", UInt32(MDB_CREATE), &dbi), "mdb_dbi_open")
            }
        } catch {
            mdb_env_close(env)
            throw error
        }
    }

    deinit { mdb_env_close(env) }

    static func check(_ rc: Int32, _ what: String) throws {
        if rc != 0 { throw BenchError("\(what): \(String(cString: mdb_strerror(rc)))") }
    }

    func write(_ body: (OpaquePointer) throws -> Void) throws {
        var t: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, 0, &t), "mdb_txn_begin")
        do { try body(t!) } catch { mdb_txn_abort(t); throw error }
        try Self.check(mdb_txn_commit(t), "mdb_txn_commit")
    }

    /// Puts `records[range]`, `batch` per transaction (one commit each). With `append`, uses
    /// `MDB_APPEND` (keys must come in order), otherwise `MDB_NOOVERWRITE`.
    public func put(_ records: RecordSet, range: Range<Int>? = nil, batch: Int, append: Bool = true) throws {
        let range = range ?? 0..<records.count
        let flags = append ? UInt32(MDB_APPEND) : UInt32(MDB_NOOVERWRITE)
        try records.keys.withUnsafeBytes { keys in
            try records.values.withUnsafeBytes { values in
                var i = range.lowerBound
                while i < range.upperBound {
                    let end = min(range.upperBound, i + batch)
                    try write { txn in
                        for r in i..<end {
                            var k = MDB_val(mv_size: records.keyLength, mv_data: UnsafeMutableRawPointer(mutating: keys.baseAddress! + r * records.keyLength))
                            let start = records.valueStarts[r]
                            var v = MDB_val(mv_size: records.valueStarts[r + 1] - start, mv_data: UnsafeMutableRawPointer(mutating: values.baseAddress! + start))
                            try Self.check(mdb_put(txn, dbi, &k, &v, flags), "mdb_put")
                        }
                    }
                    i = end
                }
            }
        }
    }

    /// Flushes everything committed to disk (`mdb_env_sync` forced).
    public func sync() throws { try Self.check(mdb_env_sync(env, 1), "mdb_env_sync") }

    /// Scans every record in key order in one read transaction. `body` sees bytes valid only
    /// during the call.
    public func scan(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        var t: OpaquePointer?
        try Self.check(mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &t), "mdb_txn_begin")
        defer { mdb_txn_abort(t) }
        var c: OpaquePointer?
        try Self.check(mdb_cursor_open(t, dbi, &c), "mdb_cursor_open")
        defer { mdb_cursor_close(c) }
        var k = MDB_val(), v = MDB_val()
        var rc = mdb_cursor_get(c, &k, &v, MDB_FIRST)
        while rc == 0 {
            try body(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size), UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
            rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)
        }
        if rc != MDB_NOTFOUND { try Self.check(rc, "mdb_cursor_get") }
    }

    /// Copies every key and value of the named database `name` of the LMDB environment at `path`
    /// (opened read-only), in key order.
    public static func copyRecords(fromEnvironment path: String, database name: String, keyLength: Int? = nil, limit: Int = .max) throws -> RecordSet {
        var e: OpaquePointer?
        try check(mdb_env_create(&e), "mdb_env_create")
        defer { mdb_env_close(e) }
        try check(mdb_env_set_maxdbs(e, 16), "mdb_env_set_maxdbs")
        try check(mdb_env_open(e, path, UInt32(MDB_RDONLY | MDB_NOTLS), 0o600), "mdb_env_open \(path)")
        var t: OpaquePointer?
        try check(mdb_txn_begin(e, nil, UInt32(MDB_RDONLY), &t), "mdb_txn_begin")
        defer { mdb_txn_abort(t) }
        var d: MDB_dbi = 0
        try check(mdb_dbi_open(t, name, 0, &d), "mdb_dbi_open \(name)")
        var c: OpaquePointer?
        try check(mdb_cursor_open(t, d, &c), "mdb_cursor_open")
        defer { mdb_cursor_close(c) }
        var k = MDB_val(), v = MDB_val()
        var rc = mdb_cursor_get(c, &k, &v, MDB_FIRST)
        var set: RecordSet?
        while rc == 0, (set?.count ?? 0) < limit {
            if set == nil { set = RecordSet(keyLength: keyLength ?? k.mv_size) }
            guard k.mv_size == set!.keyLength else { throw BenchError("\(name): keys of different lengths (\(k.mv_size) and \(set!.keyLength))") }
            set!.append(key: UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
                        value: UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size))
            rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)
        }
        if rc != 0 && rc != MDB_NOTFOUND { try check(rc, "mdb_cursor_get") }
        return set ?? RecordSet(keyLength: keyLength ?? 0)
    }
}
