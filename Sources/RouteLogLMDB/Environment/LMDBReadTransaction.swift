#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

/// A read transaction, valid only inside ``LMDBEnvironment/withReadTransaction(_:)``.
///
/// Values are handed out as owned copies (``value(forKey:in:)``) or as buffers valid only inside a
/// closure (``withValue(forKey:in:_:)``, ``forEach(in:from:_:)``).
@_spi(Tools) public class LMDBReadTransaction {
    let txn: OpaquePointer
    private var isValid = true

    init(_ txn: OpaquePointer) { self.txn = txn }

    func invalidate() { isValid = false }

    @inline(__always) func checkValid() {
        precondition(isValid, "an LMDB transaction was used after its closure returned")
    }

    /// The transaction's id (`mdb_txn_id`): for a read transaction, the id of the commit it
    /// sees; 0 when no write transaction was ever committed to the environment.
    public var transactionID: Int {
        checkValid()
        return mdb_txn_id(txn)
    }

    /// A copy of the value stored under `key`, or `nil`.
    public func value(forKey key: [UInt8], in db: LMDBDatabase) throws(LMDBError) -> [UInt8]? {
        try withValue(forKey: key, in: db) { [UInt8]($0) }
    }

    /// Calls `body` with the value stored under `key` (memory-mapped, valid only inside `body`);
    /// returns `nil` when there is none.
    public func withValue<R>(forKey key: [UInt8], in db: LMDBDatabase, _ body: (UnsafeRawBufferPointer) throws(LMDBError) -> R) throws(LMDBError) -> R? {
        checkValid()
        var data = MDB_val()
        let rc = key.withUnsafeBytes { k in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return LMDBProgress.call { mdb_get(txn, db.handle, &kv, &data) }
        }
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc)
        return try body(UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
    }

    /// Runs `body` with a cursor on `db`, closed when `body` returns.
    private func withCursor<R>(on db: LMDBDatabase, _ body: (OpaquePointer) throws -> R) throws -> R {
        checkValid()
        var cursorp: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.handle, &cursorp))
        defer { mdb_cursor_close(cursorp) }
        return try body(cursorp!)
    }

    /// Positions `cursor` at the first key ≥ `start` (`MDB_SET_RANGE`), or by `op` when `start` is
    /// `nil`; `key` and `data` receive the entry. Returns LMDB's code.
    private static func seek(_ cursor: OpaquePointer, to start: [UInt8]?, orElse op: MDB_cursor_op,
                             key: inout MDB_val, data: inout MDB_val) -> Int32 {
        guard let start else { return LMDBProgress.call { mdb_cursor_get(cursor, &key, &data, op) } }
        return start.withUnsafeBytes { s in
            key = MDB_val(mv_size: s.count, mv_data: UnsafeMutableRawPointer(mutating: s.baseAddress))
            return LMDBProgress.call { mdb_cursor_get(cursor, &key, &data, MDB_SET_RANGE) }
        }
    }

    /// Iterates over the database in key order, starting at the first key ≥ `start` (or the
    /// first key). `body` gets the key and value, valid only during the call; return `false` to
    /// stop.
    public func forEach(in db: LMDBDatabase, from start: [UInt8]? = nil,
                        _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) throws {
        try withCursor(on: db) { cursor in
            var key = MDB_val()
            var data = MDB_val()
            var rc = Self.seek(cursor, to: start, orElse: MDB_FIRST, key: &key, data: &data)
            while rc == 0 {
                let k = UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size)
                let v = UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size)
                guard try body(k, v) else { return }
                rc = LMDBProgress.call { mdb_cursor_get(cursor, &key, &data, MDB_NEXT) }
            }
            if rc != MDB_NOTFOUND { throw LMDBError(rawValue: rc) }
        }
    }

    /// Calls `body` with the last entry whose key sorts before `key` (or the database's last
    /// entry when `key` is `nil`); returns `nil` when there is none. The buffers are valid only
    /// inside `body`.
    public func withLastEntry<R>(in db: LMDBDatabase, before key: [UInt8]?,
                                 _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> R) throws -> R? {
        try withCursor(on: db) { cursor in
            var k = MDB_val()
            var data = MDB_val()
            var rc = Self.seek(cursor, to: key, orElse: MDB_LAST, key: &k, data: &data)
            if key != nil {
                if rc == 0 {
                    rc = LMDBProgress.call { mdb_cursor_get(cursor, &k, &data, MDB_PREV) }
                } else if rc == MDB_NOTFOUND {
                    rc = LMDBProgress.call { mdb_cursor_get(cursor, &k, &data, MDB_LAST) }
                }
            }
            if rc == MDB_NOTFOUND { return nil }
            try LMDBError.check(rc)
            return try body(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size),
                            UnsafeRawBufferPointer(start: data.mv_data, count: data.mv_size))
        }
    }

    /// A copy of the database's last key, or `nil` when it is empty.
    public func lastKey(in db: LMDBDatabase) throws(LMDBError) -> [UInt8]? {
        checkValid()
        var cursorp: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.handle, &cursorp))
        defer { mdb_cursor_close(cursorp) }
        var key = MDB_val()
        var data = MDB_val()
        let rc = LMDBProgress.call { mdb_cursor_get(cursorp, &key, &data, MDB_LAST) }
        if rc == MDB_NOTFOUND { return nil }
        try LMDBError.check(rc)
        return [UInt8](UnsafeRawBufferPointer(start: key.mv_data, count: key.mv_size))
    }

    /// The number of pages on LMDB's free list (the values of its internal free database are
    /// page lists whose first word is their length), as `mdb_stat -f` counts them.
    public func freePageCount() throws(LMDBError) -> Int {
        checkValid()
        var cursorp: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, 0, &cursorp))
        defer { mdb_cursor_close(cursorp) }
        var key = MDB_val()
        var data = MDB_val()
        var pages = 0
        var rc = LMDBProgress.call { mdb_cursor_get(cursorp, &key, &data, MDB_FIRST) }
        while rc == 0 {
            if data.mv_size >= MemoryLayout<Int>.size, let p = data.mv_data {
                pages += p.loadUnaligned(as: Int.self)
            }
            rc = LMDBProgress.call { mdb_cursor_get(cursorp, &key, &data, MDB_NEXT) }
        }
        if rc != MDB_NOTFOUND { throw LMDBError(rawValue: rc) }
        return pages
    }

    /// The database's counts (`mdb_stat`).
    public func statistics(of db: LMDBDatabase) throws(LMDBError) -> LMDBDatabase.Statistics {
        checkValid()
        var st = MDB_stat()
        try LMDBError.check(mdb_stat(txn, db.handle, &st))
        return .init(entries: st.ms_entries, depth: Int(st.ms_depth), branchPages: st.ms_branch_pages,
                     leafPages: st.ms_leaf_pages, overflowPages: st.ms_overflow_pages, pageSize: Int(st.ms_psize))
    }
}
