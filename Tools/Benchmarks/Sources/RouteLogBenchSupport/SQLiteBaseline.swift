import CSQLite

/// SQLite in WAL mode through the system libsqlite3, for the baselines: the same records as
/// blobs keyed by (session, seq).
public final class SQLiteBaseline {
    let db: OpaquePointer
    var insert: OpaquePointer?

    /// Opens (creating) the database file at `path` in WAL mode with the given `synchronous`
    /// setting (`FULL` or `NORMAL`).
    public init(path: String, synchronous: String) throws {
        var d: OpaquePointer?
        let rc = sqlite3_open_v2(path, &d, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard rc == SQLITE_OK, let d else {
            let message = d.map { String(cString: sqlite3_errmsg($0)) } ?? "code \(rc)"
            sqlite3_close(d)
            throw BenchError("sqlite3_open \(path): \(message)")
        }
        db = d
        do {
            try exec("PRAGMA journal_mode=WAL")
            try exec("PRAGMA synchronous=\(synchronous)")
            try exec("CREATE TABLE IF NOT EXISTS events (session BLOB NOT NULL, seq INTEGER NOT NULL, record BLOB NOT NULL, PRIMARY KEY (session, seq)) WITHOUT ROWID")
            try check(sqlite3_prepare_v2(db, "INSERT INTO events (session, seq, record) VALUES (?1, ?2, ?3)", -1, &insert, nil), "prepare")
        } catch {
            sqlite3_finalize(insert)
            sqlite3_close(db)
            throw error
        }
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(db)
    }

    func check(_ rc: Int32, _ what: String) throws {
        if rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW {
            throw BenchError("sqlite \(what): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func exec(_ sql: String) throws { try check(sqlite3_exec(db, sql, nil, nil, nil), sql) }

    /// Inserts `records[range]`, `batch` rows per transaction (`batch == 1`: one autocommit per row).
    /// The key's first 16 bytes are the session, the last 8 the big-endian seq.
    public func insert(_ records: RecordSet, range: Range<Int>? = nil, batch: Int) throws {
        let range = range ?? 0..<records.count
        try records.keys.withUnsafeBytes { keys in
            try records.values.withUnsafeBytes { values in
                var i = range.lowerBound
                while i < range.upperBound {
                    let end = min(range.upperBound, i + batch)
                    if batch > 1 { try exec("BEGIN") }
                    for r in i..<end {
                        let key = keys.baseAddress! + r * records.keyLength
                        var seq: Int64 = 0
                        for b in 0..<8 { seq = (seq << 8) | Int64(key.load(fromByteOffset: records.keyLength - 8 + b, as: UInt8.self)) }
                        let start = records.valueStarts[r]
                        sqlite3_bind_blob(insert, 1, key, Int32(records.keyLength - 8), nil)
                        sqlite3_bind_int64(insert, 2, seq)
                        sqlite3_bind_blob(insert, 3, values.baseAddress! + start, Int32(records.valueStarts[r + 1] - start), nil)
                        try check(sqlite3_step(insert), "insert")
                        sqlite3_reset(insert)
                    }
                    if batch > 1 { try exec("COMMIT") }
                    i = end
                }
            }
        }
    }

    /// Moves the WAL into the database file and syncs both (`PRAGMA wal_checkpoint(FULL)`).
    public func checkpoint() throws { try exec("PRAGMA wal_checkpoint(FULL)") }

    /// The number of rows, to check the inserts.
    public func count() throws -> Int {
        var s: OpaquePointer?
        try check(sqlite3_prepare_v2(db, "SELECT count(*) FROM events", -1, &s, nil), "prepare count")
        defer { sqlite3_finalize(s) }
        try check(sqlite3_step(s), "count")
        return Int(sqlite3_column_int64(s, 0))
    }
}
