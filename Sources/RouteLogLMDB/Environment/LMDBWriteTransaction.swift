#if BundledLMDB
import LMDB
#else
import CSystemLMDB
#endif
import Foundation

/// A write transaction, valid only inside ``LMDBEnvironment/withWriteTransaction(syncOnCommit:_:)``.
@_spi(Tools) public final class LMDBWriteTransaction: LMDBReadTransaction {
    /// Stores `value` under `key`.
    ///
    /// - Throws: ``LMDBError/keyExists`` with ``LMDBPutOptions/noOverwrite`` when the key is
    ///   taken (or with ``LMDBPutOptions/append`` when it is out of order); ``LMDBError/mapFull``.
    public func put(_ value: [UInt8], forKey key: [UInt8], in db: LMDBDatabase, options: LMDBPutOptions = []) throws(LMDBError) {
        checkValid()
        let rc = key.withUnsafeBytes { k in
            value.withUnsafeBytes { v in
                var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
                var dv = MDB_val(mv_size: v.count, mv_data: UnsafeMutableRawPointer(mutating: v.baseAddress))
                return LMDBProgress.call { mdb_put(txn, db.handle, &kv, &dv, options.rawValue) }
            }
        }
        try LMDBError.check(rc)
    }

    /// Runs `body` with a write cursor on `db`, closed when `body` returns. Puts through one cursor
    /// skip the tree search that every `mdb_put` starts with: the fast way to append many records.
    public func withCursor<R>(in db: LMDBDatabase, _ body: (LMDBWriteCursor) throws -> R) throws -> R {
        checkValid()
        var cursorp: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.handle, &cursorp))
        let cursor = LMDBWriteCursor(cursorp!)
        defer {
            cursor.invalidate()
            mdb_cursor_close(cursorp)
        }
        return try body(cursor)
    }

    /// Reserves `count` bytes under `key` (`MDB_RESERVE`) and lets `fill` write them in place.
    public func put(count: Int, forKey key: [UInt8], in db: LMDBDatabase, options: LMDBPutOptions = [],
                    _ fill: (UnsafeMutableRawBufferPointer) -> Void) throws(LMDBError) {
        checkValid()
        var data = MDB_val(mv_size: count, mv_data: nil)
        let rc = key.withUnsafeBytes { k in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return LMDBProgress.call { mdb_put(txn, db.handle, &kv, &data, options.rawValue | UInt32(MDB_RESERVE)) }
        }
        try LMDBError.check(rc)
        fill(UnsafeMutableRawBufferPointer(start: data.mv_data, count: count))
    }

    /// Deletes the value under `key`; returns whether there was one.
    @discardableResult
    public func delete(forKey key: [UInt8], in db: LMDBDatabase) throws(LMDBError) -> Bool {
        checkValid()
        let rc = key.withUnsafeBytes { k in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_del(txn, db.handle, &kv, nil)
        }
        if rc == MDB_NOTFOUND { return false }
        try LMDBError.check(rc)
        return true
    }
}

@_spi(Tools) extension LMDBWriteTransaction {
    /// Deletes every entry whose key starts with `prefix`; returns how many.
    @discardableResult
    public func deleteAll(withPrefix prefix: [UInt8], in db: LMDBDatabase) throws(LMDBError) -> Int {
        checkValid()
        var cursorp: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(txn, db.handle, &cursorp))
        defer { mdb_cursor_close(cursorp) }
        var deleted = 0
        while true {
            // A fresh search after each delete: where a cursor rests after `mdb_cursor_del`
            // differs between LMDB releases.
            let rc: Int32 = prefix.withUnsafeBytes { p in
                var key = MDB_val(mv_size: p.count, mv_data: UnsafeMutableRawPointer(mutating: p.baseAddress))
                var data = MDB_val()
                let rc = LMDBProgress.call { mdb_cursor_get(cursorp, &key, &data, MDB_SET_RANGE) }
                guard rc == 0 else { return rc }
                guard key.mv_size >= p.count, memcmp(key.mv_data, p.baseAddress!, p.count) == 0 else { return MDB_NOTFOUND }
                return mdb_cursor_del(cursorp, 0)
            }
            if rc == MDB_NOTFOUND { break }
            try LMDBError.check(rc)
            deleted += 1
        }
        return deleted
    }
}

/// A write cursor, valid only inside ``LMDBWriteTransaction/withCursor(in:_:)``.
@_spi(Tools) public final class LMDBWriteCursor {
    let cursor: OpaquePointer
    private var isValid = true

    init(_ cursor: OpaquePointer) { self.cursor = cursor }

    func invalidate() { isValid = false }

    /// Reserves `count` bytes under `key` (`mdb_cursor_put` with `MDB_RESERVE`) and lets `fill`
    /// write them in place; the same contract as ``LMDBWriteTransaction/put(count:forKey:in:options:_:)``.
    public func put(count: Int, forKey key: [UInt8], options: LMDBPutOptions = [],
                    _ fill: (UnsafeMutableRawBufferPointer) -> Void) throws(LMDBError) {
        precondition(isValid, "an LMDB cursor was used after its closure returned")
        var data = MDB_val(mv_size: count, mv_data: nil)
        let rc = key.withUnsafeBytes { k in
            var kv = MDB_val(mv_size: k.count, mv_data: UnsafeMutableRawPointer(mutating: k.baseAddress))
            return mdb_cursor_put(cursor, &kv, &data, options.rawValue | UInt32(MDB_RESERVE))
        }
        try LMDBError.check(rc)
        fill(UnsafeMutableRawBufferPointer(start: data.mv_data, count: count))
    }
}
