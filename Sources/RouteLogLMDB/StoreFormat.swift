import Foundation
import RouteLogCore

// The byte layout of a RouteLog store, format 1. Every integer is big-endian.
//
// Databases (named, in one LMDB environment):
// - `meta`:      "format" → UInt32 format version.
// - `sessions`:  session id (16 UUID bytes) → session row.
// - `events`:    session id (16) ‖ seq (UInt64) → event record.
// - `snapshots`: session id (16) ‖ seq (UInt64) → snapshot.
//
// Event record:
//   u8 format (1) | u8 event kind | u8 outcome | u8 rejection reason (0 unless rejected)
//   | 16 hash of the previous record (zero for seq 1) | 16 digest of the state after the event
//   | u32 payload length | payload | 16 checksum
// The payload is the event with its metadata (the core's binary codec). The checksum is the
// `StableHasher` hash of every byte before it; it is also the record's hash, which the next
// record stores, so the records of a session form a hash chain.
//
// Session row:
//   u8 format (1) | i64 createdAt | u64 event count | u8 has last time | i64 last time
//   | 16 head digest | 16 head hash (checksum of the last record) | string label
//   | optional string app name | optional string app version | 16 checksum
//   (string = u32 length + UTF-8; optional = u8 0/1 + string)
//
// Snapshot: u8 format (1) | 16 digest | u32 state length | state | 16 checksum.

/// The store format this build writes and the newest it reads.
let storeFormatVersion: UInt32 = 1
let recordFormat: UInt8 = 1

struct ByteSink {
    var bytes: [UInt8] = []
    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func digest(_ d: Digest) { u64(d.hi); u64(d.lo) }
    mutating func string(_ s: String) { u32(UInt32(s.utf8.count)); bytes.append(contentsOf: s.utf8) }
    mutating func optionalString(_ s: String?) {
        if let s { u8(1); string(s) } else { u8(0) }
    }
    mutating func raw(_ b: [UInt8]) { bytes.append(contentsOf: b) }
    /// Appends the checksum of everything written so far.
    mutating func seal() { digest(checksum(bytes)) }
}

/// A read past the end or a malformed field.
struct ByteSourceError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

struct ByteSource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func take(_ n: Int, _ what: String) throws(ByteSourceError) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= remaining else {
            throw ByteSourceError(message: "truncated: \(what) needs \(n) bytes at offset \(offset), \(remaining) left")
        }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }
    mutating func u8(_ what: String) throws(ByteSourceError) -> UInt8 { try take(1, what)[0] }
    mutating func u32(_ what: String) throws(ByteSourceError) -> UInt32 {
        let b = try take(4, what)
        return UInt32(bigEndian: b.loadUnaligned(as: UInt32.self))
    }
    mutating func u64(_ what: String) throws(ByteSourceError) -> UInt64 {
        let b = try take(8, what)
        return UInt64(bigEndian: b.loadUnaligned(as: UInt64.self))
    }
    mutating func i64(_ what: String) throws(ByteSourceError) -> Int64 { Int64(bitPattern: try u64(what)) }
    mutating func digest(_ what: String) throws(ByteSourceError) -> Digest {
        let hi = try u64(what)
        return Digest(hi: hi, lo: try u64(what))
    }
    mutating func string(_ what: String) throws(ByteSourceError) -> String {
        let n = try u32("\(what) length")
        let b = try take(Int(n), what)
        guard let s = String(validating: b.bindMemory(to: UInt8.self), as: UTF8.self) else {
            throw ByteSourceError(message: "\(what) is not valid UTF-8")
        }
        return s
    }
    mutating func optionalString(_ what: String) throws(ByteSourceError) -> String? {
        switch try u8("\(what) flag") {
        case 0: return nil
        case 1: return try string(what)
        case let f: throw ByteSourceError(message: "\(what) flag is \(f), expected 0 or 1")
        }
    }
    /// Checks that the last 16 bytes are the checksum of the bytes before them.
    static func verifySeal(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) {
        guard bytes.count >= 16 else { throw ByteSourceError(message: "truncated: \(bytes.count) bytes, too short for a checksum") }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var s = ByteSource(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 16)...]))
        let stored = try s.digest("checksum")
        guard checksum(body) == stored else { throw ByteSourceError(message: "checksum mismatch") }
    }
}

/// The `StableHasher` hash of `bytes`: record checksums, record hashes and seals.
func checksum(_ bytes: UnsafeRawBufferPointer) -> Digest {
    var h = StableHasher()
    h.combine(bytes: bytes.bindMemory(to: UInt8.self))
    return h.finalize()
}

func checksum(_ bytes: [UInt8]) -> Digest {
    bytes.withUnsafeBytes { checksum($0) }
}

// MARK: Keys

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

    static func event(_ session: [UInt8], _ seq: UInt64) -> [UInt8] {
        var k = session
        k.reserveCapacity(24)
        withUnsafeBytes(of: seq.bigEndian) { k.append(contentsOf: $0) }
        return k
    }

    /// Overwrites the seq of an event key made by ``event(_:_:)``, in place.
    static func setSeq(_ seq: UInt64, in key: inout [UInt8]) {
        precondition(key.count == 24, "an event key has 24 bytes")
        key.withUnsafeMutableBytes { $0.storeBytes(of: seq.bigEndian, toByteOffset: 16, as: UInt64.self) }
    }

    /// The seq of an event or snapshot key, if it belongs to `session`.
    static func seq(_ key: UnsafeRawBufferPointer, session: [UInt8]) -> UInt64? {
        guard key.count == 24, let base = key.baseAddress else { return nil }
        let same = session.withUnsafeBytes { s in memcmp(base, s.baseAddress!, 16) == 0 }
        guard same else { return nil }
        return UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    }

    static let format: [UInt8] = Array("format".utf8)
}

// MARK: Event kind and outcome codes (fixed: never renumber)

enum Codes {
    static func kind(_ k: Event.Kind) -> UInt8 {
        switch k {
        case .push: 1
        case .pop: 2
        case .popToRoot: 3
        case .show: 4
        case .dismiss: 5
        case .interactiveDismiss: 6
        case .setTabs: 7
        case .selectTab: 8
        case .reset: 9
        }
    }

    static func reason(_ r: RejectionReason) -> UInt8 {
        switch r {
        case .emptyRouteID: 1
        case .invalidCount: 2
        case .invalidTabs: 3
        case .invalidState: 4
        case .unknownTab: 5
        case .unknownFrame: 6
        case .unknownToken: 7
        case .stale: 8
        case .blockedByAlert: 9
        case .stackTooShort: 10
        case .alreadyAtRoot: 11
        case .nothingToDismiss: 12
        case .notInteractive: 13
        case .notDismissible: 14
        case .chainTooDeep: 15
        }
    }

    /// Indexed by code: an array, so decoding a rejected record's outcome hashes nothing.
    static let reasonsByCode: [RejectionReason?] = {
        var m = [RejectionReason?](repeating: nil, count: 256)
        for r in RejectionReason.allCases { m[Int(reason(r))] = r }
        return m
    }()

    static func outcome(_ o: Outcome) -> (UInt8, UInt8) {
        switch o {
        case .applied(.changed): (0, 0)
        case .applied(.updatedInPlace): (1, 0)
        case .rejected(let r): (2, reason(r))
        }
    }

    static func outcome(_ tag: UInt8, _ reason: UInt8) throws(ByteSourceError) -> Outcome {
        switch tag {
        case 0: return .applied(.changed)
        case 1: return .applied(.updatedInPlace)
        case 2:
            guard let r = reasonsByCode[Int(reason)] else { throw ByteSourceError(message: "unknown rejection reason code \(reason)") }
            return .rejected(r)
        default: throw ByteSourceError(message: "unknown outcome code \(tag)")
        }
    }
}

// MARK: Event records

/// An event record as stored, parsed but with its payload still encoded.
struct RawRecord {
    var kind: UInt8
    var outcome: Outcome
    var previousHash: Digest
    var digest: Digest
    var payload: UnsafeRawBufferPointer
    var storedChecksum: Digest
    /// The checksum recomputed from the bytes.
    var computedChecksum: Digest
}

enum RecordCodec {
    static let headerSize = 4 + 16 + 16 + 4
    static let checksumSize = 16

    static func size(payload: Int) -> Int { headerSize + payload + checksumSize }

    /// Writes a record into `out` (exactly ``size(payload:)`` bytes) and returns its checksum.
    static func write(into out: UnsafeMutableRawBufferPointer, kind: Event.Kind, outcome: Outcome,
                      previousHash: Digest, digest: Digest, payload: [UInt8]) -> Digest {
        let (tag, reason) = Codes.outcome(outcome)
        out[0] = recordFormat
        out[1] = Codes.kind(kind)
        out[2] = tag
        out[3] = reason
        out.storeBytes(of: previousHash.hi.bigEndian, toByteOffset: 4, as: UInt64.self)
        out.storeBytes(of: previousHash.lo.bigEndian, toByteOffset: 12, as: UInt64.self)
        out.storeBytes(of: digest.hi.bigEndian, toByteOffset: 20, as: UInt64.self)
        out.storeBytes(of: digest.lo.bigEndian, toByteOffset: 28, as: UInt64.self)
        out.storeBytes(of: UInt32(payload.count).bigEndian, toByteOffset: 36, as: UInt32.self)
        let end = headerSize + payload.count
        payload.withUnsafeBytes { p in
            UnsafeMutableRawBufferPointer(rebasing: out[headerSize..<end]).copyMemory(from: p)
        }
        let sum = checksum(UnsafeRawBufferPointer(rebasing: out[0..<end]))
        out.storeBytes(of: sum.hi.bigEndian, toByteOffset: end, as: UInt64.self)
        out.storeBytes(of: sum.lo.bigEndian, toByteOffset: end + 8, as: UInt64.self)
        return sum
    }

    static func encode(kind: Event.Kind, outcome: Outcome, previousHash: Digest, digest: Digest, payload: [UInt8]) -> (bytes: [UInt8], checksum: Digest) {
        var sum = Digest.zero
        let bytes = [UInt8](unsafeUninitializedCapacity: size(payload: payload.count)) { buf, count in
            sum = write(into: UnsafeMutableRawBufferPointer(buf), kind: kind, outcome: outcome, previousHash: previousHash, digest: digest, payload: payload)
            count = buf.count
        }
        return (bytes, sum)
    }

    /// Parses the structure of a record (not its checksum: see ``RawRecord/computedChecksum``).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> RawRecord {
        guard bytes.count >= headerSize + checksumSize, let base = bytes.baseAddress else { return try parseChecked(bytes) }
        // The whole fixed part is there, so no field can be truncated: read it in place, with the
        // same checks in the same order (and the same messages) as `parseChecked`.
        let format = bytes[0]
        guard format == recordFormat else {
            throw ByteSourceError(message: format > recordFormat ? "record format \(format) is newer than \(recordFormat)" : "unknown record format \(format)")
        }
        let kind = bytes[1]
        guard (1...9).contains(kind) else { throw ByteSourceError(message: "unknown event kind code \(kind)") }
        let outcome = try Codes.outcome(bytes[2], bytes[3])
        func u64(_ at: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        let previous = Digest(hi: u64(4), lo: u64(12))
        let digest = Digest(hi: u64(20), lo: u64(28))
        let n = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
        guard Int(n) + checksumSize == bytes.count - headerSize else {
            throw ByteSourceError(message: "payload length \(n) does not match the record size \(bytes.count)")
        }
        let end = headerSize + Int(n)
        let payload = UnsafeRawBufferPointer(start: base + headerSize, count: Int(n))
        let stored = Digest(hi: u64(end), lo: u64(end + 8))
        return RawRecord(kind: kind, outcome: outcome, previousHash: previous, digest: digest, payload: payload,
                         storedChecksum: stored, computedChecksum: checksum(UnsafeRawBufferPointer(start: base, count: end)))
    }

    /// ``parse(_:)`` field by field, for records too short to hold the fixed part (it names what is missing).
    static func parseChecked(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> RawRecord {
        var s = ByteSource(bytes)
        let format = try s.u8("format")
        guard format == recordFormat else {
            throw ByteSourceError(message: format > recordFormat ? "record format \(format) is newer than \(recordFormat)" : "unknown record format \(format)")
        }
        let kind = try s.u8("kind")
        guard (1...9).contains(kind) else { throw ByteSourceError(message: "unknown event kind code \(kind)") }
        let tag = try s.u8("outcome")
        let reason = try s.u8("rejection reason")
        let outcome = try Codes.outcome(tag, reason)
        let previous = try s.digest("previous hash")
        let digest = try s.digest("digest")
        let n = try s.u32("payload length")
        guard Int(n) + checksumSize == s.remaining else {
            throw ByteSourceError(message: "payload length \(n) does not match the record size \(bytes.count)")
        }
        let payload = try s.take(Int(n), "payload")
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<s.offset])
        let stored = try s.digest("checksum")
        return RawRecord(kind: kind, outcome: outcome, previousHash: previous, digest: digest, payload: payload,
                         storedChecksum: stored, computedChecksum: checksum(body))
    }
}

// MARK: Session rows

struct SessionRow {
    var info: SessionInfo
    var headHash: Digest

    func encode() -> [UInt8] {
        var w = ByteSink(capacity: 96 + info.label.utf8.count)
        w.u8(1)
        w.i64(info.createdAt)
        w.u64(info.eventCount)
        if let t = info.lastEventAt { w.u8(1); w.i64(t) } else { w.u8(0); w.i64(0) }
        w.digest(info.headDigest)
        w.digest(headHash)
        w.string(info.label)
        w.optionalString(info.appName)
        w.optionalString(info.appVersion)
        w.seal()
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, id: SessionID) throws(ByteSourceError) -> SessionRow {
        try ByteSource.verifySeal(bytes)
        var r = ByteSource(UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16]))
        let version = try r.u8("format")
        guard version == 1 else { throw ByteSourceError(message: "unknown session row format \(version)") }
        let created = try r.i64("creation time")
        let count = try r.u64("event count")
        let hasLast = try r.u8("last time flag")
        let last = try r.i64("last time")
        // One encoding per row: the flag is 0 or 1, and without a last time the field is 0.
        guard hasLast <= 1 else { throw ByteSourceError(message: "last time flag is \(hasLast), expected 0 or 1") }
        guard hasLast == 1 || last == 0 else { throw ByteSourceError(message: "last time \(last) given with its flag 0") }
        let digest = try r.digest("head digest")
        let hash = try r.digest("head hash")
        let label = try r.string("label")
        let app = try r.optionalString("app name")
        let version2 = try r.optionalString("app version")
        guard r.remaining == 0 else { throw ByteSourceError(message: "\(r.remaining) unexpected trailing bytes") }
        let info = SessionInfo(id: id, label: label, appName: app, appVersion: version2, createdAt: created,
                               eventCount: count, lastEventAt: hasLast == 1 ? last : nil, headDigest: digest)
        return SessionRow(info: info, headHash: hash)
    }
}

// MARK: Snapshots

enum SnapshotCodec {
    static func encode(_ state: NavigationState) -> [UInt8] {
        let payload = PayloadCodec.encode(state)
        var w = ByteSink(capacity: payload.count + 40)
        w.u8(1)
        w.digest(state.digest)
        w.u32(UInt32(payload.count))
        w.raw(payload)
        w.seal()
        return w.bytes
    }

    /// Decodes a snapshot and checks its checksum and that the state's digest is the stored one.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ByteSourceError) -> NavigationState {
        try ByteSource.verifySeal(bytes)
        var r = ByteSource(UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16]))
        let version = try r.u8("format")
        guard version == 1 else { throw ByteSourceError(message: "unknown snapshot format \(version)") }
        let digest = try r.digest("digest")
        let n = try r.u32("state length")
        let payload = try r.take(Int(n), "state")
        guard r.remaining == 0 else { throw ByteSourceError(message: "\(r.remaining) unexpected trailing bytes") }
        let state = try PayloadCodec.decodeState(payload)
        guard state.digest == digest else { throw ByteSourceError(message: "state digest \(state.digest.short) differs from the stored \(digest.short)") }
        return state
    }
}
