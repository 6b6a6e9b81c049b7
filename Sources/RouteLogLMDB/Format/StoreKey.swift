import Foundation
@_spi(Tools) import RouteLogCore

/// The keys of the store's databases: session ids as 16 bytes, session numbers, and event and
/// snapshot keys (a session's number and a seq).
enum StoreKey {
    /// The 16 bytes of a UUID session id, or `nil` if `id` is not a UUID.
    static func sessionBytes(_ id: SessionID) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        var high: UInt8?
        for c in id.rawValue.utf8 {
            if c == UInt8(ascii: "-") { continue }
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        guard out.count == 16, high == nil, id.rawValue.utf8.count == 36 else { return nil }
        return out
    }

    /// The canonical lowercase UUID text of 16 bytes.
    static func sessionID(_ bytes: UnsafeRawBufferPointer) -> SessionID {
        let digits = Array("0123456789abcdef".utf8)
        var s: [UInt8] = []
        for (i, b) in bytes.prefix(16).enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { s.append(UInt8(ascii: "-")) }
            s.append(digits[Int(b >> 4)])
            s.append(digits[Int(b & 15)])
        }
        return SessionID(String(decoding: s, as: UTF8.self))
    }

    /// The 4 bytes of a session number: the prefix of its event and snapshot keys.
    static func number(_ n: UInt32) -> [UInt8] {
        withUnsafeBytes(of: n.bigEndian) { Array($0) }
    }

    /// The bytes of the seq in an event or snapshot key.
    static let seqSize = 5
    /// The length of an event or snapshot key: session number (4) and seq (5).
    static let eventKeySize = 4 + seqSize
    /// The largest seq a key holds (2⁴⁰ − 1): the most events a session can have.
    static let maxSeq: UInt64 = 1 << (8 * UInt64(seqSize)) - 1

    /// An event or snapshot key: the session's prefix (``number(_:)``) and the big-endian seq in
    /// ``seqSize`` bytes. A seq above ``maxSeq`` gives a key that sorts after every key of the
    /// session and before the next session's (one byte longer, so ``seq(_:session:)`` reads
    /// none from it): a bound for searches.
    static func event(_ prefix: [UInt8], _ seq: UInt64) -> [UInt8] {
        var k = prefix
        k.reserveCapacity(prefix.count + seqSize + 1)
        let s = min(seq, maxSeq)
        for i in (0..<seqSize).reversed() { k.append(UInt8(truncatingIfNeeded: s >> (8 * UInt64(i)))) }
        if seq > maxSeq { k.append(0) }
        return k
    }

    /// Overwrites the seq of an event key made by ``event(_:_:)``, in place.
    static func setSeq(_ seq: UInt64, in key: inout [UInt8]) {
        precondition(key.count == eventKeySize && seq <= maxSeq, "an event key has \(eventKeySize) bytes and a seq up to \(maxSeq)")
        key.withUnsafeMutableBufferPointer { k in
            for i in 0..<seqSize { k[eventKeySize - 1 - i] = UInt8(truncatingIfNeeded: seq >> (8 * UInt64(i))) }
        }
    }

    /// The seq of an event or snapshot key, if it belongs to the session with `prefix`.
    static func seq(_ key: UnsafeRawBufferPointer, session prefix: [UInt8]) -> UInt64? {
        guard key.count == prefix.count + seqSize, let base = key.baseAddress else { return nil }
        let same = prefix.withUnsafeBytes { s in memcmp(base, s.baseAddress!, s.count) == 0 }
        guard same else { return nil }
        var seq: UInt64 = 0
        for i in prefix.count..<key.count { seq = seq << 8 | UInt64(key[i]) }
        return seq
    }

    /// The key prefix of a session's events and snapshots (its entry order, which format 3 keeps
    /// under 2³²).
    static func eventPrefix(_ info: SessionInfo) -> [UInt8] { number(UInt32(truncatingIfNeeded: info.entryOrder)) }

    static let format: [UInt8] = Array("format".utf8)
    /// The meta key of the session entry counter.
    static let entries: [UInt8] = Array("entries".utf8)
}
