import Foundation
import RouteLogCore

// The byte layout of a RouteLog store, format 3, written with the core's `BinaryWriter` and read
// with its `BinaryReader` (an event record's fixed part is stored and loaded in place, in the same
// byte order, because every append and replay goes through it). Fixed-width integers are big-endian; `varint` and `string` (a varint
// length and UTF-8) are the binary codec's. The code tables (event kinds, outcomes) are the core's
// wire tables. StoreFormat.md in the RouteLogLMDB catalog documents the same layout.
//
// Databases (named, in one LMDB environment):
// - `meta`:      "format" → UInt32 format version.
// - `sessions`:  session id (16 UUID bytes) → session row.
// - `events`:    session number (u32) ‖ seq (40 bits, big-endian) → event record.
// - `snapshots`: session number (u32) ‖ seq (40 bits) → snapshot.
// - `sites`:     session number (u32) ‖ index (u32) → a call site of the session's events.
// The session number is the session's entry order (its row's `entry order`): unique in the store
// and never reused, 4 bytes where the id takes 16. A seq takes 5 bytes: a session holds at most
// 2⁴⁰ − 1 events.
//
// Event record:
//   u8 format (3) | u8 event kind | u8 outcome | 16 digest of the state after the event
//   | payload | 16 checksum
// The payload (its length is the record's less the 35 fixed bytes) is the event's metadata,
// relative to the session, then the event (the core's binary codec, without its version byte):
//   u8 flags (origin in bits 0-1, 1<<2 time, 1<<3 call site, 1<<4 note)
//   | zigzag time − time base (if flagged) | varint call-site index (if flagged)
//   | string note (if flagged) | event
// The time base of seq s is the session's creation time when s − 1 is a multiple of 64 (an
// anchor, so a read from any seq decodes at most 63 records before it), else the base of s − 1,
// replaced by the time of s − 1 when it has one: mostly the delta from the previous event. The
// call-site index names an entry of `sites`, numbered from 0 in the order the session first used
// them, written in the transaction of the event that first uses it.
//
// Call site: u8 format (3) | string file | zigzag line | 16 checksum of its key and the bytes
// before it (so an entry moved to another key fails too).
//
// An event record's checksum is the `StableHasher` hash of the previous
// record's checksum (zero for seq 1) followed by every byte of the record before it, so the
// records of a session form a hash chain without storing the previous hash: a record altered,
// moved or missing fails the checksum of the first record after the damage.
//
// Session row:
//   u8 format (3) | i64 createdAt | u64 event count | u8 has last time | i64 last time
//   | 16 head digest | 16 head hash (checksum of the last record) | string label
//   | optional string app name | optional string app version
//   | u64 entry order | i64 entered-at time | 16 checksum
//   (string = varint length + UTF-8; optional = u8 0/1 + string; entry order and entered-at:
//   the order and the log's clock when the session was created or imported)
// Meta key "entries" → u64: the entry order given to the last session created or imported.
//
// Snapshot: u8 format (3) | 16 digest | varint state length | state | 16 checksum.
//
// Format 2 keyed events and snapshots by the 16-byte session id and gave each record a reserved
// byte and a u32 payload length; format 1 also numbered rejection reasons in a table of its own and
// wrote strings with u32 lengths. An older store is refused at open (`LMDBEventLogError.olderFormat`):
// export its sessions with the release that wrote it, then `routelog import` them.

/// The store format this build writes, and the only one it reads.
let storeFormatVersion: UInt32 = 3
/// The format byte of event records, session rows and snapshots.
let recordFormat: UInt8 = 3

extension BinaryWriter {
    /// Appends the checksum of everything written so far.
    mutating func seal() { write(checksum(bytes)) }

    mutating func writeOptionalString(_ s: String?) {
        if let s { writeByte(1); writeString(s) } else { writeByte(0) }
    }
}

extension BinaryReader {
    /// A reader over the body of a sealed value, after checking that its last 16 bytes are the
    /// checksum of the bytes before them.
    static func unsealing(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> BinaryReader {
        guard bytes.count >= 16 else {
            throw BinaryDecodingError(offset: 0, message: "\(bytes.count) bytes, too short for a checksum")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var seal = BinaryReader(bytes, offset: body.count)
        guard checksum(body) == (try seal.readDigest()) else {
            throw BinaryDecodingError(offset: body.count, message: "checksum mismatch")
        }
        return BinaryReader(body)
    }

    mutating func readOptionalString(_ what: String) throws(BinaryDecodingError) -> String? {
        let at = offset
        switch try readByte() {
        case 0: return nil
        case 1: return try readString()
        case let f: throw error("\(what) flag is \(f), expected 0 or 1", at: at)
        }
    }

    /// Reads a format byte that must be ``recordFormat``.
    mutating func readRecordFormat(_ what: String) throws(BinaryDecodingError) {
        let at = offset
        let format = try readByte()
        guard format == recordFormat else {
            throw error("\(what) format \(format) is \(format > recordFormat ? "newer" : "older") than \(recordFormat)", at: at)
        }
    }
}

/// The checksum of an event record: the `StableHasher` hash of the previous record's checksum
/// (``Digest/zero`` before seq 1) and the record's bytes before its checksum.
func chainedChecksum(previous: Digest, _ bytes: UnsafeRawBufferPointer) -> Digest {
    var h = StableHasher()
    h.combine(previous.hi)
    h.combine(previous.lo)
    h.combine(bytes: bytes.bindMemory(to: UInt8.self))
    return h.finalize()
}

/// The `StableHasher` hash of `bytes`: the seals of session rows and snapshots.
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

// MARK: Event records

/// An event record as stored, parsed but with its payload still encoded.
struct RawRecord {
    var kind: Event.Kind
    var outcome: Outcome
    var digest: Digest
    var payload: UnsafeRawBufferPointer
    var storedChecksum: Digest
    /// The checksum recomputed from the bytes and the previous record's checksum.
    var computedChecksum: Digest
}

enum RecordCodec {
    static let headerSize = 3 + 16
    static let checksumSize = 16

    static func size(payload: Int) -> Int { headerSize + payload + checksumSize }

    /// Writes a record into `out` (exactly ``size(payload:)`` bytes, LMDB's reserved space for the
    /// value) and returns its checksum, chained to `previous` (the previous record's checksum). The fixed fields are stored in place rather than through a
    /// `BinaryWriter`: appending goes through here once per event, and the copy a writer's array
    /// needs cost a quarter of the append rate.
    static func write(into out: UnsafeMutableRawBufferPointer, kind: Event.Kind, outcome: Outcome,
                      previous: Digest, digest: Digest, payload: [UInt8]) -> Digest {
        out[0] = recordFormat
        out[1] = kind.wireCode
        out[2] = outcome.wireCode
        store(digest, at: 3, in: out)
        let end = headerSize + payload.count
        payload.withUnsafeBytes { p in
            UnsafeMutableRawBufferPointer(rebasing: out[headerSize..<end]).copyMemory(from: p)
        }
        let sum = chainedChecksum(previous: previous, UnsafeRawBufferPointer(rebasing: out[0..<end]))
        store(sum, at: end, in: out)
        return sum
    }

    /// Stores a digest as `BinaryWriter.write(_:)` writes one: 16 big-endian bytes.
    private static func store(_ d: Digest, at offset: Int, in out: UnsafeMutableRawBufferPointer) {
        out.storeBytes(of: d.hi.bigEndian, toByteOffset: offset, as: UInt64.self)
        out.storeBytes(of: d.lo.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }

    /// A record as one array, and its checksum.
    static func encode(kind: Event.Kind, outcome: Outcome, previous: Digest, digest: Digest, payload: [UInt8]) -> (bytes: [UInt8], checksum: Digest) {
        var sum = Digest.zero
        let bytes = [UInt8](unsafeUninitializedCapacity: size(payload: payload.count)) { buf, count in
            sum = write(into: UnsafeMutableRawBufferPointer(buf), kind: kind, outcome: outcome, previous: previous, digest: digest, payload: payload)
            count = buf.count
        }
        return (bytes, sum)
    }

    /// Parses the structure of a record (not its checksum: see ``RawRecord/computedChecksum``,
    /// computed with `previous`, the checksum stored by the record before it).
    /// Every replay reads each record through here, so the fixed part is read in place once its
    /// size is checked, with the codec's `BinaryReader` only for the variable fields.
    static func parse(_ bytes: UnsafeRawBufferPointer, previous: Digest) throws(BinaryDecodingError) -> RawRecord {
        guard bytes.count >= headerSize + checksumSize, let base = bytes.baseAddress else {
            throw BinaryDecodingError(offset: 0, message: "truncated: \(bytes.count) bytes, shorter than the \(headerSize + checksumSize) bytes of a record without payload")
        }
        var r = BinaryReader(bytes)
        try r.readRecordFormat("record")
        let code = bytes[1]
        guard let kind = Event.Kind(wireCode: code) else { throw r.error("unknown event kind \(code)", at: 1) }
        guard let outcome = Outcome(wireCode: bytes[2]) else { throw r.error("unknown outcome \(bytes[2])", at: 2) }
        func u64(_ at: Int) -> UInt64 { UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        // The payload is what lies between the fixed header and the checksum.
        let n = bytes.count - headerSize - checksumSize
        let end = headerSize + n
        return RawRecord(kind: kind, outcome: outcome, digest: Digest(hi: u64(3), lo: u64(11)),
                         payload: UnsafeRawBufferPointer(start: base + headerSize, count: n),
                         storedChecksum: Digest(hi: u64(end), lo: u64(end + 8)),
                         computedChecksum: chainedChecksum(previous: previous, UnsafeRawBufferPointer(start: base, count: end)))
    }

    /// The checksum a record stores (its last 16 bytes), or `nil` if it is too short to be a
    /// record: the `previous` of the record after it.
    static func storedChecksum(_ bytes: UnsafeRawBufferPointer) -> Digest? {
        guard bytes.count >= headerSize + checksumSize else { return nil }
        let end = bytes.count - checksumSize
        return Digest(hi: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)),
                      lo: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: end + 8, as: UInt64.self)))
    }
}

// MARK: Payloads

/// The payload of an event record: the metadata relative to the session (time from the time base,
/// call site as an index of the session's `sites`), then the event.
enum StoredPayload {
    /// Every record whose seq − 1 is a multiple of this takes the session's creation time as its
    /// time base.
    static let timeAnchorInterval: UInt64 = 64

    /// The time base of the record `seq`: the creation time at an anchor, else `running` (the
    /// base after the record before it: see ``advance(_:time:)``).
    @inline(__always)
    static func timeBase(seq: UInt64, running: Int64, createdAt: Int64) -> Int64 {
        (seq &- 1) % timeAnchorInterval == 0 ? createdAt : running
    }

    /// The running base after a record with base `base` and time `time` (0: none).
    @inline(__always)
    static func advance(_ base: Int64, time: Int64) -> Int64 { time != 0 ? time : base }

    /// The first seq whose time base does not depend on earlier records, for reading from `seq`.
    static func anchor(before seq: UInt64) -> UInt64 { seq - (seq &- 1) % timeAnchorInterval }

    /// Writes a payload: `meta` against `base`, the call site as `site` (its index), and the
    /// event's codec body (``BinaryWriter/write(_:)-event``, encoded beforehand).
    static func write(_ meta: EventMetadata, base: Int64, site: UInt32?, event: [UInt8], into w: inout BinaryWriter) {
        var flags = meta.origin.wireCode
        if meta.timestamp != 0 { flags |= 1 << 2 }
        if site != nil { flags |= 1 << 3 }
        if meta.note != nil { flags |= 1 << 4 }
        w.writeByte(flags)
        if meta.timestamp != 0 { w.writeZigZag(meta.timestamp &- base) }
        if let site { w.writeVarint(UInt64(site)) }
        if let note = meta.note { w.writeString(note) }
        w.bytes.append(contentsOf: event)
    }

    /// The codec body of an event, as ``write(_:base:site:event:into:)`` takes it.
    static func eventBody(_ e: Event) -> [UInt8] {
        var w = BinaryWriter()
        w.write(e)
        return w.bytes
    }

    /// Reads the metadata part: the metadata without its call site, and the call site's index.
    static func readMeta(_ r: inout BinaryReader, base: Int64) throws(BinaryDecodingError) -> (EventMetadata, site: UInt32?) {
        let at = r.offset
        let flags = try r.readByte()
        guard flags & ~0b1_1111 == 0 else { throw r.error("invalid metadata flags 0x\(String(flags, radix: 16))", at: at) }
        guard let origin = Origin(wireCode: flags & 3) else { throw r.error("unknown origin \(flags & 3)", at: at) }
        var m = EventMetadata(origin: origin)
        if flags & (1 << 2) != 0 {
            let t = r.offset
            m.timestamp = base &+ (try r.readZigZag())
            if m.timestamp == 0 { throw r.error("time flagged as present but 0", at: t) }
        }
        var site: UInt32?
        if flags & (1 << 3) != 0 {
            let s = r.offset
            guard let index = UInt32(exactly: try r.readVarint()) else { throw r.error("call-site index out of range", at: s) }
            site = index
        }
        if flags & (1 << 4) != 0 { m.note = try r.readString() }
        return (m, site)
    }

    /// Decodes a payload; `site` gives the call site of an index.
    static func decode(_ bytes: UnsafeRawBufferPointer, base: Int64,
                       site: (UInt32) throws(BinaryDecodingError) -> CallSite) throws(BinaryDecodingError) -> RecordedEvent {
        var r = BinaryReader(bytes)
        var (meta, index) = try readMeta(&r, base: base)
        if let index { meta.callSite = try site(index) }
        let event = try r.readEvent()
        try r.expectEnd()
        return RecordedEvent(event, meta: meta)
    }

    /// The time of a payload (0: none), reading only its metadata.
    static func time(_ bytes: UnsafeRawBufferPointer, base: Int64) throws(BinaryDecodingError) -> Int64 {
        var r = BinaryReader(bytes)
        return try readMeta(&r, base: base).0.timestamp
    }
}

/// What decoding a session's records in order carries from one record to the next.
struct RecordChain {
    /// The session's key prefix.
    let prefix: [UInt8]
    let createdAt: Int64
    /// The checksum stored by the last record read (zero before seq 1).
    var previous: Digest
    /// The running time base after the last record read.
    var timeBase: Int64
    /// The call sites looked up so far, by index.
    var sites: [UInt32: CallSite] = [:]
}

// MARK: Call sites

/// The entries of the `sites` database: the call sites of a session's events, by index.
enum SiteCodec {
    /// The key of a session's call site: the session's prefix and the big-endian index.
    static func key(_ prefix: [UInt8], _ index: UInt32) -> [UInt8] { prefix + StoreKey.number(index) }

    /// The index of a call-site key, if it belongs to the session with `prefix`.
    static func index(_ key: UnsafeRawBufferPointer, session prefix: [UInt8]) -> UInt32? {
        guard key.count == prefix.count + 4, key.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        return UInt32(bigEndian: key.loadUnaligned(fromByteOffset: prefix.count, as: UInt32.self))
    }

    static func encode(_ site: CallSite, key: [UInt8]) -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.writeString(site.file)
        w.writeZigZag(Int64(site.line))
        w.write(checksum(key + w.bytes))
        return w.bytes
    }

    /// Decodes an entry stored under `key`, checking its checksum.
    static func decode(_ bytes: UnsafeRawBufferPointer, key: [UInt8]) throws(BinaryDecodingError) -> CallSite {
        guard bytes.count >= 17 else {
            throw BinaryDecodingError(offset: 0, message: "\(bytes.count) bytes, too short for a call site")
        }
        let body = UnsafeRawBufferPointer(rebasing: bytes[0..<bytes.count - 16])
        var seal = BinaryReader(bytes, offset: body.count)
        guard checksum(key + Array(body)) == (try seal.readDigest()) else {
            throw BinaryDecodingError(offset: body.count, message: "checksum mismatch")
        }
        var r = BinaryReader(body)
        try r.readRecordFormat("call site")
        let file = try r.readString()
        let l = r.offset
        guard let line = Int(exactly: try r.readZigZag()) else { throw r.error("call-site line out of range", at: l) }
        try r.expectEnd()
        return CallSite(file: file, line: line)
    }
}

// MARK: Session rows

struct SessionRow {
    var info: SessionInfo
    var headHash: Digest

    /// The prefix of the session's event and snapshot keys: its number, the entry order.
    var eventPrefix: [UInt8] { StoreKey.eventPrefix(info) }

    func encode() -> [UInt8] {
        var w = BinaryWriter()
        w.bytes.reserveCapacity(112 + info.label.utf8.count)
        w.writeByte(recordFormat)
        w.writeBigEndian(info.createdAt)
        w.writeBigEndian(info.eventCount)
        w.writeByte(info.lastEventAt == nil ? 0 : 1)
        w.writeBigEndian(info.lastEventAt ?? 0)
        w.write(info.headDigest)
        w.write(headHash)
        w.writeString(info.label)
        w.writeOptionalString(info.appName)
        w.writeOptionalString(info.appVersion)
        w.writeBigEndian(info.entryOrder)
        w.writeBigEndian(info.enteredAt ?? info.createdAt)
        w.seal()
        return w.bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, id: SessionID) throws(BinaryDecodingError) -> SessionRow {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("session row")
        let created = try r.readBigEndian(Int64.self)
        let count = try r.readBigEndian(UInt64.self)
        let hasLast = try r.readByte()
        let last = try r.readBigEndian(Int64.self)
        // One encoding per row: the flag is 0 or 1, and without a last time the field is 0.
        guard hasLast <= 1 else { throw r.error("last time flag is \(hasLast), expected 0 or 1", at: r.offset - 9) }
        guard hasLast == 1 || last == 0 else { throw r.error("last time \(last) given with its flag 0", at: r.offset - 8) }
        let digest = try r.readDigest()
        let hash = try r.readDigest()
        let label = try r.readString()
        let app = try r.readOptionalString("app name")
        let appVersion = try r.readOptionalString("app version")
        let order = try r.readBigEndian(UInt64.self)
        let entered = try r.readBigEndian(Int64.self)
        try r.expectEnd()
        let info = SessionInfo(id: id, label: label, appName: app, appVersion: appVersion, createdAt: created,
                               eventCount: count, lastEventAt: hasLast == 1 ? last : nil, headDigest: digest,
                               entryOrder: order, enteredAt: entered)
        return SessionRow(info: info, headHash: hash)
    }
}

// MARK: Snapshots

enum SnapshotCodec {
    static func encode(_ state: NavigationState) -> [UInt8] {
        var w = BinaryWriter()
        w.writeByte(recordFormat)
        w.write(state.digest)
        w.writeBytes(BinaryCodec.encode(state))
        w.seal()
        return w.bytes
    }

    /// Decodes a snapshot and checks its checksum and that the state's digest is the stored one.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> NavigationState {
        var r = try BinaryReader.unsealing(bytes)
        try r.readRecordFormat("snapshot")
        let digest = try r.readDigest()
        let payload = try r.readBytes()
        let at = r.offset - payload.count
        try r.expectEnd()
        let state: NavigationState
        do { state = try BinaryCodec.decodeState(payload) } catch {
            throw BinaryDecodingError(offset: at + error.offset, message: "state: \(error.message)")
        }
        guard state.digest == digest else {
            throw r.error("state digest \(state.digest.short) differs from the stored \(digest.short)", at: 1)
        }
        return state
    }
}
