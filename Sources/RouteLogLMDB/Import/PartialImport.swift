/// The `meta` key that marks a session being imported (`part` + the session's number; the value is
/// the session id's 16 bytes). An import writes its records in several transactions and the
/// session's row in the last one, which also removes this mark: until then no reader sees the
/// session. A mark whose import died (killed, or out of space) is found at the store's next
/// read-write open, and its records are removed.
enum PartialImport {
    static let keyPrefix: [UInt8] = Array("part".utf8)
    static func key(_ sessionPrefix: [UInt8]) -> [UInt8] { keyPrefix + sessionPrefix }
}
