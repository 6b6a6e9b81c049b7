/// The `meta` key that marks a session as imported (`imp` + the session's number): its
/// `SessionInfo.imported` flag, written with the session by an import or a move of an imported
/// session, and removed with it.
enum ImportMark {
    static func key(_ sessionPrefix: [UInt8]) -> [UInt8] { Array("imp".utf8) + sessionPrefix }

    /// Marks the session numbered `prefix` as imported, in `txn`.
    static func write(_ txn: LMDBWriteTransaction, _ prefix: [UInt8], in meta: LMDBDatabase) throws {
        try txn.put([1], forKey: key(prefix), in: meta)
    }
}
