@_spi(Tools) @testable import RouteLogLMDB

extension LMDBEventLog {
    /// Calls `body` with each entry of `db` whose key starts with `prefix`, in key order, in one
    /// read transaction; the key and value are valid only during the call.
    func forEachEntry(in db: LMDBDatabase, prefix: [UInt8],
                      _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Void) throws {
        try environment.withReadTransaction { txn in
            try txn.forEach(in: db, from: prefix) { k, v in
                guard k.starts(with: prefix) else { return false }
                try body(k, v)
                return true
            }
        }
    }

    /// How many entries of `db` have keys that start with `prefix`; for the `events` of a
    /// format-4 store, how many events its blocks there hold.
    func entryCount(in db: LMDBDatabase, prefix: [UInt8]) throws -> Int {
        var n = 0
        let blocks = db == databases.events && databases.blocks
        try forEachEntry(in: db, prefix: prefix) { _, v in n += blocks && v.count > 1 ? Int(v[1]) : 1 }
        return n
    }
}
