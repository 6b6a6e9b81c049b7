// The compact binary codec (format version 1) for events, metadata, states, outcomes and digests.
// The layout is specified in RouteLogCore.docc/BinaryFormat.md; keep the two in step.

/// A failure to decode RouteLog binary data: what is wrong and at which byte.
public struct BinaryDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset, from the start of the decoded buffer, of the value that is wrong.
    public var offset: Int
    /// What is wrong there.
    public var message: String

    /// An error at `offset` from the start of the decoded buffer.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `at byte 17: string length 4294967295 exceeds the 12 bytes left`.
    public var description: String { "at byte \(offset): \(message)" }
}

/// The binary codec: compact, versioned and length-checked encodings of ``RecordedEvent``,
/// ``Event``, ``NavigationState``, ``Outcome`` and ``Digest``.
///
/// Every encoding starts with the format version byte. Decoding never traps: a truncated,
/// corrupted or oversized input, invalid UTF-8, an unknown tag, trailing bytes or data written by
/// a newer format all throw a ``BinaryDecodingError`` naming the byte offset, and a length field
/// is checked against the bytes left before anything is allocated.
///
/// ```swift
/// let bytes = BinaryCodec.encode(RecordedEvent(.push(RouteRef(id: "inbox"))))
/// let event = try BinaryCodec.decodeRecordedEvent(bytes)
/// ```
public enum BinaryCodec {
    /// The format version this build writes, and the newest it reads.
    public static let formatVersion: UInt8 = 1

    /// The deepest chain of nested frames (a root and the contents of presentations on it) a
    /// decoder accepts: a root plus ``NavigationState/maxChainDepth`` presentations.
    public static let maxNesting = NavigationState.maxChainDepth + 1

    // MARK: Recorded events

    /// Encodes an event with its metadata, starting with the format version.
    public static func encode(_ e: RecordedEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        encode(e, into: &out)
        return out
    }

    /// Appends the encoding of an event with its metadata (starting with the format version) to `out`.
    public static func encode(_ e: RecordedEvent, into out: inout [UInt8]) {
        BinaryWriter.appending(to: &out) { w in
            w.writeFormatVersion()
            w.write(e)
        }
    }

    /// Decodes an ``encode(_:)-(RecordedEvent)`` result. The whole buffer must be one event.
    /// - Throws: ``BinaryDecodingError`` for anything but a complete, valid encoding.
    public static func decodeRecordedEvent(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> RecordedEvent {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let e = try r.readRecordedEvent()
        try r.expectEnd()
        return e
    }

    /// Decodes an encoded ``RecordedEvent`` from an array.
    public static func decodeRecordedEvent(_ bytes: [UInt8]) throws(BinaryDecodingError) -> RecordedEvent {
        try withBuffer(bytes) { (b) throws(BinaryDecodingError) in try decodeRecordedEvent(b) }
    }

    // MARK: Events

    /// Encodes an event without metadata, starting with the format version.
    public static func encode(_ e: Event) -> [UInt8] {
        var w = BinaryWriter()
        w.writeFormatVersion()
        w.write(e)
        return w.bytes
    }

    /// Decodes an ``encode(_:)-(Event)`` result.
    public static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Event {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let e = try r.readEvent()
        try r.expectEnd()
        return e
    }

    /// Decodes an encoded ``Event`` from an array.
    public static func decodeEvent(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Event {
        try withBuffer(bytes) { (b) throws(BinaryDecodingError) in try decodeEvent(b) }
    }

    // MARK: States

    /// Encodes a state, starting with the format version.
    public static func encode(_ s: NavigationState) -> [UInt8] {
        var w = BinaryWriter()
        w.writeFormatVersion()
        w.write(s)
        return w.bytes
    }

    /// Decodes an ``encode(_:)-(NavigationState)`` result and checks its invariants.
    /// - Throws: ``BinaryDecodingError``, also when the state breaks an invariant
    ///   (``NavigationState/validate()``).
    public static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> NavigationState {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let s = try r.readState()
        try r.expectEnd()
        return s
    }

    /// Decodes an encoded ``NavigationState`` from an array.
    public static func decodeState(_ bytes: [UInt8]) throws(BinaryDecodingError) -> NavigationState {
        try withBuffer(bytes) { (b) throws(BinaryDecodingError) in try decodeState(b) }
    }

    // MARK: Outcomes and digests

    /// Encodes an outcome (the version byte and one byte).
    public static func encode(_ o: Outcome) -> [UInt8] {
        var w = BinaryWriter()
        w.writeFormatVersion()
        w.write(o)
        return w.bytes
    }

    /// Decodes an ``encode(_:)-(Outcome)`` result.
    public static func decodeOutcome(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Outcome {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let o = try r.readOutcome()
        try r.expectEnd()
        return o
    }

    /// Decodes an encoded ``Outcome`` from an array.
    public static func decodeOutcome(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Outcome {
        try withBuffer(bytes) { (b) throws(BinaryDecodingError) in try decodeOutcome(b) }
    }

    /// Encodes a digest (the version byte and 16 bytes).
    public static func encode(_ d: Digest) -> [UInt8] {
        var w = BinaryWriter()
        w.writeFormatVersion()
        w.write(d)
        return w.bytes
    }

    /// Decodes an ``encode(_:)-(Digest)`` result.
    public static func decodeDigest(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Digest {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let d = try r.readDigest()
        try r.expectEnd()
        return d
    }

    /// Decodes an encoded ``Digest`` from an array.
    public static func decodeDigest(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Digest {
        try withBuffer(bytes) { (b) throws(BinaryDecodingError) in try decodeDigest(b) }
    }

    static func withBuffer<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(BinaryDecodingError) -> R) throws(BinaryDecodingError) -> R {
        let result: Result<R, BinaryDecodingError> = bytes.withUnsafeBytes { b in
            do throws(BinaryDecodingError) { return .success(try body(b)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // Fixed code tables: the numbers are part of the format and never change meaning.
    static let styles: [PresentationStyle] = [.sheet, .fullScreenCover, .popover, .alert, .confirmationDialog]
    static let reasons: [RejectionReason] = [
        .emptyRouteID, .unknownFrame, .blockedByAlert, .invalidCount, .stackTooShort, .alreadyAtRoot,
        .nothingToDismiss, .unknownToken, .stale, .notDismissible, .notInteractive, .invalidTabs,
        .unknownTab, .invalidState, .chainTooDeep,
    ]

    @inline(__always) static func code(_ s: PresentationStyle) -> UInt8 {
        switch s {
        case .sheet: 0
        case .fullScreenCover: 1
        case .popover: 2
        case .alert: 3
        case .confirmationDialog: 4
        }
    }

    static func code(_ r: RejectionReason) -> UInt8 {
        // The table is complete (a test checks it), so the search always succeeds.
        UInt8(reasons.firstIndex(of: r) ?? 0)
    }
}

// MARK: - Writer

/// Appends RouteLog binary primitives and values to a byte array.
///
/// The primitives (varints, fixed-width integers, length-prefixed bytes and strings) are public so
/// that a store can encode its own record envelope with the same rules as the codec.
public struct BinaryWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// A writer that appends to `bytes`.
    public init(bytes: [UInt8] = []) { self.bytes = bytes }

    /// Runs `body` with a writer that appends to `out` in place (no copy of `out`).
    public static func appending<R>(to out: inout [UInt8], _ body: (inout BinaryWriter) throws -> R) rethrows -> R {
        var w = BinaryWriter()
        swap(&w.bytes, &out)
        defer { swap(&w.bytes, &out) }
        return try body(&w)
    }

    /// Writes ``BinaryCodec/formatVersion``.
    public mutating func writeFormatVersion() { bytes.append(BinaryCodec.formatVersion) }

    /// Writes one byte.
    @inline(__always) public mutating func writeByte(_ b: UInt8) { bytes.append(b) }

    /// Writes an unsigned LEB128 varint (1 to 10 bytes).
    @inline(__always) public mutating func writeVarint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Writes a signed integer as a zigzag varint (small magnitudes take few bytes).
    @inline(__always) public mutating func writeZigZag(_ v: Int64) {
        writeVarint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    /// Writes a fixed-width integer, most significant byte first.
    public mutating func writeBigEndian<T: FixedWidthInteger>(_ v: T) {
        var be = v.bigEndian
        withUnsafeBytes(of: &be) { bytes.append(contentsOf: $0) }
    }

    /// Writes a fixed-width integer, least significant byte first.
    public mutating func writeLittleEndian<T: FixedWidthInteger>(_ v: T) {
        var le = v.littleEndian
        withUnsafeBytes(of: &le) { bytes.append(contentsOf: $0) }
    }

    /// Writes bytes as they are, without a length.
    public mutating func writeRaw(_ b: UnsafeRawBufferPointer) { bytes.append(contentsOf: b) }

    /// Writes bytes as they are, without a length.
    public mutating func writeRaw(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    /// Writes a varint length and the bytes.
    public mutating func writeBytes(_ b: UnsafeRawBufferPointer) {
        writeVarint(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    /// Writes a varint length and the bytes.
    public mutating func writeBytes(_ b: [UInt8]) {
        writeVarint(UInt64(b.count))
        bytes.append(contentsOf: b)
    }

    /// Writes a varint length and the string's UTF-8 bytes.
    @inline(__always) public mutating func writeString(_ s: String) {
        let u = s.utf8
        writeVarint(UInt64(u.count))
        if u.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: u)
        }
    }

    // MARK: Values (bodies, without the version byte)

    /// Writes an event and its metadata.
    public mutating func write(_ e: RecordedEvent) {
        write(e.event)
        write(e.meta)
    }

    /// Writes event metadata.
    public mutating func write(_ m: EventMetadata) {
        var flags: UInt8 = switch m.origin {
        case .app: 0
        case .user: 1
        case .system: 2
        }
        if m.timestamp != 0 { flags |= 1 << 2 }
        if m.callSite != nil { flags |= 1 << 3 }
        if m.note != nil { flags |= 1 << 4 }
        writeByte(flags)
        if m.timestamp != 0 { writeZigZag(m.timestamp) }
        if let site = m.callSite {
            writeString(site.file)
            writeZigZag(Int64(site.line))
        }
        if let note = m.note { writeString(note) }
    }

    /// Writes an event.
    public mutating func write(_ e: Event) {
        switch e {
        case .push(let route, let frame):
            writeByte(1)
            write(route)
            write(frame)
        case .pop(let count, let frame):
            writeByte(2)
            writeZigZag(Int64(count))
            write(frame)
        case .popToRoot(let frame):
            writeByte(3)
            write(frame)
        case .show(let route, let style, let dismissible, let placement):
            writeByte(4)
            var flags = BinaryCodec.code(style)
            if dismissible { flags |= 1 << 3 }
            let p: UInt8 = switch placement {
            case .replacingTop: 0
            case .onTop: 1
            case .in(.root): 2
            case .in(.presentation): 3
            }
            writeByte(flags | p << 4)
            write(route)
            if case .in(.presentation(let token)) = placement { writeVarint(token) }
        case .dismiss(let target):
            writeByte(5)
            switch target {
            case .top: writeByte(0)
            case .all: writeByte(1)
            case .token(let t):
                writeByte(2)
                writeVarint(t)
            }
        case .interactiveDismiss(let token):
            writeByte(6)
            if let token {
                writeByte(1)
                writeVarint(token)
            } else {
                writeByte(0)
            }
        case .setTabs(let ids, let selected):
            writeByte(7)
            writeVarint(UInt64(ids.count))
            for id in ids { writeString(id) }
            if let selected {
                writeByte(1)
                writeString(selected)
            } else {
                writeByte(0)
            }
        case .selectTab(let id):
            writeByte(8)
            writeString(id)
        case .reset(let state):
            writeByte(9)
            write(state)
        }
    }

    mutating func write(_ f: FrameRef?) {
        switch f {
        case nil: writeByte(0)
        case .root: writeByte(1)
        case .presentation(let t):
            writeByte(2)
            writeVarint(t)
        }
    }

    /// Writes a route reference.
    public mutating func write(_ r: RouteRef) {
        writeByte((r.type != nil ? 1 : 0) | (r.payload != nil ? 2 : 0))
        writeString(r.id)
        if let t = r.type { writeString(t) }
        if let p = r.payload { writeString(p.text) }
    }

    /// Writes a state (as it is: a broken state is written faithfully).
    public mutating func write(_ s: NavigationState) {
        if s.hasTabs {
            writeByte(1)
            writeVarint(UInt64(s.roots.count))
            for tab in s.roots {
                writeString(tab.id)
                write(tab.root)
            }
            writeVarint(s.roots.indices.contains(s.selectedIndex) ? UInt64(s.selectedIndex + 1) : 0)
        } else {
            writeByte(0)
            write(s.roots.first?.root ?? Frame())
        }
    }

    /// Writes a frame and, iteratively, the chain of presentations nested in it.
    public mutating func write(_ frame: Frame) {
        var f = frame
        while true {
            writeVarint(UInt64(f.path.count))
            for r in f.path { write(r) }
            guard let p = f.presented else {
                writeByte(0)
                return
            }
            var flags: UInt8 = 1 | BinaryCodec.code(p.style) << 1
            if p.dismissible { flags |= 1 << 4 }
            if p.content != nil { flags |= 1 << 5 }
            writeByte(flags)
            writeVarint(p.token)
            write(p.route)
            guard let c = p.content else { return }
            f = c
        }
    }

    /// Writes an outcome as one byte.
    public mutating func write(_ o: Outcome) {
        switch o {
        case .applied(.changed): writeByte(0)
        case .applied(.updatedInPlace): writeByte(1)
        case .rejected(let r): writeByte(2 + BinaryCodec.code(r))
        }
    }

    /// Writes a digest as 16 big-endian bytes.
    public mutating func write(_ d: Digest) {
        writeBigEndian(d.hi)
        writeBigEndian(d.lo)
    }
}

// MARK: - Reader

/// Reads RouteLog binary primitives and values from a buffer, checking every length against the
/// bytes left and reporting failures with their offset.
///
/// The reader does not own the buffer: it must stay valid while the reader is used. Values it
/// returns (strings, events, states) are owned copies.
public struct BinaryReader {
    @usableFromInline let base: UnsafeRawPointer?
    /// The number of bytes in the buffer.
    public let count: Int
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// A reader over `buffer`, starting at `offset`.
    public init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        base = buffer.baseAddress
        count = buffer.count
        self.offset = min(max(0, offset), buffer.count)
    }

    /// The number of bytes not read yet.
    public var remaining: Int { count - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= count }

    /// An error at `offset`.
    public func error(_ message: String, at offset: Int? = nil) -> BinaryDecodingError {
        BinaryDecodingError(offset: offset ?? self.offset, message: message)
    }

    /// Throws unless every byte has been read.
    public func expectEnd() throws(BinaryDecodingError) {
        if offset < count { throw error("\(count - offset) unexpected trailing byte\(count - offset == 1 ? "" : "s")") }
    }

    /// Reads the format version byte and checks this build can read it.
    public mutating func readFormatVersion() throws(BinaryDecodingError) {
        let at = offset
        let v = try readByte()
        if v > BinaryCodec.formatVersion {
            throw error("written by a newer format (version \(v)); this build reads up to \(BinaryCodec.formatVersion)", at: at)
        }
        if v == 0 { throw error("invalid format version 0", at: at) }
    }

    // MARK: Primitives

    /// Reads one byte.
    @inline(__always) public mutating func readByte() throws(BinaryDecodingError) -> UInt8 {
        guard offset < count, let base else { throw error("unexpected end of data: expected 1 more byte") }
        let b = base.load(fromByteOffset: offset, as: UInt8.self)
        offset += 1
        return b
    }

    /// Reads an unsigned LEB128 varint. Overlong encodings and values over 64 bits are errors.
    @inline(__always) public mutating func readVarint() throws(BinaryDecodingError) -> UInt64 {
        guard offset < count, let base else { throw error("unexpected end of data: expected a varint") }
        let first = base.load(fromByteOffset: offset, as: UInt8.self)
        if first < 0x80 {
            offset += 1
            return UInt64(first)
        }
        return try readLongVarint()
    }

    @inline(never) mutating func readLongVarint() throws(BinaryDecodingError) -> UInt64 {
        let start = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < count, let base else { throw error("unexpected end of data inside a varint", at: start) }
            let b = base.load(fromByteOffset: offset, as: UInt8.self)
            offset += 1
            if shift == 63 && b > 1 { throw error("varint overflows 64 bits", at: start) }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 {
                if b == 0 && shift > 0 { throw error("overlong varint", at: start) }
                return result
            }
            shift += 7
        }
    }

    /// Reads a zigzag varint as a signed integer.
    @inline(__always) public mutating func readZigZag() throws(BinaryDecodingError) -> Int64 {
        let u = try readVarint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// Reads a varint that must fit in `Int` and be at most `limit`.
    public mutating func readInt(limit: Int, _ what: String) throws(BinaryDecodingError) -> Int {
        let at = offset
        let v = try readVarint()
        guard v <= UInt64(max(0, limit)) else { throw error("\(what) \(v) is out of range (at most \(limit))", at: at) }
        return Int(v)
    }

    /// Reads a fixed-width integer, most significant byte first.
    public mutating func readBigEndian<T: FixedWidthInteger>(_: T.Type = T.self) throws(BinaryDecodingError) -> T {
        let raw = try readRaw(count: MemoryLayout<T>.size)
        return T(bigEndian: raw.loadUnaligned(as: T.self))
    }

    /// Reads a fixed-width integer, least significant byte first.
    public mutating func readLittleEndian<T: FixedWidthInteger>(_: T.Type = T.self) throws(BinaryDecodingError) -> T {
        let raw = try readRaw(count: MemoryLayout<T>.size)
        return T(littleEndian: raw.loadUnaligned(as: T.self))
    }

    /// Reads `n` bytes as a slice of the buffer (valid as long as the buffer is).
    public mutating func readRaw(count n: Int) throws(BinaryDecodingError) -> UnsafeRawBufferPointer {
        guard n >= 0, n <= count - offset else {
            throw error("unexpected end of data: expected \(n) more bytes, \(count - offset) left")
        }
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let slice = UnsafeRawBufferPointer(start: base + offset, count: n)
        offset += n
        return slice
    }

    /// Reads a length field and checks it against the bytes left, before anything is allocated.
    @inline(__always) mutating func readLength(_ what: StaticString) throws(BinaryDecodingError) -> Int {
        let at = offset
        let v = try readVarint()
        guard v <= UInt64(count - offset) else {
            throw error("\(what) length \(v) exceeds the \(count - offset) bytes left", at: at)
        }
        return Int(v)
    }

    /// Reads a count of items each at least `minSize` bytes long, checked against the bytes left.
    @inline(__always) mutating func readCount(_ what: StaticString, minSize: Int) throws(BinaryDecodingError) -> Int {
        let at = offset
        let v = try readVarint()
        guard v <= UInt64((count - offset) / minSize) else {
            throw error("\(what) count \(v) exceeds what the \(count - offset) bytes left can hold", at: at)
        }
        return Int(v)
    }

    /// Reads a varint length and that many bytes, as a slice of the buffer.
    public mutating func readBytes() throws(BinaryDecodingError) -> UnsafeRawBufferPointer {
        let n = try readLength("byte string")
        return try readRaw(count: n)
    }

    /// Reads a varint length and that many bytes of UTF-8 as a string.
    @inline(__always) public mutating func readString() throws(BinaryDecodingError) -> String {
        let at = offset
        let n = try readLength("string")
        if n == 0 { return "" }
        // `readLength` checked n <= remaining, so `base` is non-nil here.
        let start = base.unsafelyUnwrapped + offset
        let utf8 = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: n)
        // ASCII (the common case) is valid UTF-8 as it is; anything else is validated in full.
        let s: String
        if Self.isASCII(utf8) {
            s = String(decoding: utf8, as: UTF8.self)
        } else {
            guard let v = String(validating: utf8, as: UTF8.self) else {
                throw error("string of \(n) bytes at byte \(offset) is not valid UTF-8", at: at)
            }
            s = v
        }
        offset += n
        return s
    }

    @inline(__always) static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawPointer(b.baseAddress.unsafelyUnwrapped)
        var i = 0
        var acc: UInt64 = 0
        while i + 8 <= b.count {
            acc |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < b.count {
            acc |= UInt64(b[i])
            i += 1
        }
        return acc & 0x8080_8080_8080_8080 == 0
    }

    mutating func readFlags(_ what: StaticString, allowed mask: UInt8) throws(BinaryDecodingError) -> UInt8 {
        let at = offset
        let b = try readByte()
        if b & ~mask != 0 { throw error("invalid \(what) flags 0x\(String(b, radix: 16))", at: at) }
        return b
    }

    mutating func readStyle(_ code: UInt8, at: Int) throws(BinaryDecodingError) -> PresentationStyle {
        switch code {
        case 0: .sheet
        case 1: .fullScreenCover
        case 2: .popover
        case 3: .alert
        case 4: .confirmationDialog
        default: throw error("unknown presentation style \(code)", at: at)
        }
    }

    // MARK: Values (bodies, without the version byte)

    /// Reads an event and its metadata.
    public mutating func readRecordedEvent() throws(BinaryDecodingError) -> RecordedEvent {
        let e = try readEvent()
        return RecordedEvent(e, meta: try readMetadata())
    }

    /// Reads event metadata.
    public mutating func readMetadata() throws(BinaryDecodingError) -> EventMetadata {
        let at = offset
        let flags = try readFlags("metadata", allowed: 0b1_1111)
        var m = EventMetadata()
        switch flags & 3 {
        case 0: m.origin = .app
        case 1: m.origin = .user
        case 2: m.origin = .system
        default: throw error("unknown origin 3", at: at)
        }
        if flags & (1 << 2) != 0 {
            let t = offset
            m.timestamp = try readZigZag()
            if m.timestamp == 0 { throw error("timestamp flagged as present but 0", at: t) }
        }
        if flags & (1 << 3) != 0 {
            let file = try readString()
            let l = offset
            guard let line = Int(exactly: try readZigZag()) else { throw error("call-site line out of range", at: l) }
            m.callSite = CallSite(file: file, line: line)
        }
        if flags & (1 << 4) != 0 { m.note = try readString() }
        return m
    }

    /// Reads an event.
    public mutating func readEvent() throws(BinaryDecodingError) -> Event {
        let at = offset
        let tag = try readByte()
        switch tag {
        case 1:
            let route = try readRoute()
            return .push(route, frame: try readFrameRef())
        case 2:
            let c = offset
            guard let count = Int(exactly: try readZigZag()) else { throw error("pop count out of range", at: c) }
            return .pop(count: count, frame: try readFrameRef())
        case 3:
            return .popToRoot(frame: try readFrameRef())
        case 4:
            let f = offset
            let flags = try readFlags("show", allowed: 0b11_1111)
            let style = try readStyle(flags & 7, at: f)
            let route = try readRoute()
            let placement: Placement = switch flags >> 4 {
            case 0: .replacingTop
            case 1: .onTop
            case 2: .in(.root)
            default: .in(.presentation(try readVarint()))
            }
            return .show(route, style: style, dismissible: flags & (1 << 3) != 0, placement: placement)
        case 5:
            let t = offset
            switch try readByte() {
            case 0: return .dismiss(.top)
            case 1: return .dismiss(.all)
            case 2: return .dismiss(.token(try readVarint()))
            case let b: throw error("unknown dismiss target \(b)", at: t)
            }
        case 6:
            let t = offset
            switch try readByte() {
            case 0: return .interactiveDismiss(token: nil)
            case 1: return .interactiveDismiss(token: try readVarint())
            case let b: throw error("invalid optional-token marker \(b)", at: t)
            }
        case 7:
            let n = try readCount("tab id", minSize: 1)
            var ids: [String] = []
            ids.reserveCapacity(n)
            for _ in 0..<n { ids.append(try readString()) }
            let t = offset
            switch try readByte() {
            case 0: return .setTabs(ids, selected: nil)
            case 1: return .setTabs(ids, selected: try readString())
            case let b: throw error("invalid optional-string marker \(b)", at: t)
            }
        case 8:
            return .selectTab(try readString())
        case 9:
            return .reset(try readState(validating: false))
        default:
            throw error("unknown event tag \(tag)", at: at)
        }
    }

    mutating func readFrameRef() throws(BinaryDecodingError) -> FrameRef? {
        let at = offset
        switch try readByte() {
        case 0: return nil
        case 1: return .root
        case 2: return .presentation(try readVarint())
        case let b: throw error("unknown frame reference \(b)", at: at)
        }
    }

    /// Reads a route reference. The payload must be valid UTF-8; it is trusted to be the
    /// canonical JSON it was written as (it is not parsed again).
    public mutating func readRoute() throws(BinaryDecodingError) -> RouteRef {
        let flags = try readFlags("route", allowed: 3)
        let id = try readString()
        let type = flags & 1 != 0 ? try readString() : nil
        var payload: RawJSON? = nil
        if flags & 2 != 0 {
            let at = offset
            let text = try readString()
            if text.isEmpty { throw error("empty route payload", at: at) }
            payload = RawJSON(uncheckedCanonical: text)
        }
        return RouteRef(id: id, type: type, payload: payload)
    }

    /// Reads a state.
    /// - Parameter validating: check the invariants (``NavigationState/validate()``) and throw
    ///   when one is broken. Only a `reset` event may carry a broken state (the reducer rejects it).
    public mutating func readState(validating: Bool = true) throws(BinaryDecodingError) -> NavigationState {
        let at = offset
        let kind = try readByte()
        var s = NavigationState()
        switch kind {
        case 0:
            s.roots = [Tab(id: "", root: try readFrame())]
            s.selectedIndex = 0
            s.hasTabs = false
        case 1:
            let n = try readCount("tab", minSize: 3)
            var tabs: [Tab] = []
            tabs.reserveCapacity(n)
            for _ in 0..<n {
                let id = try readString()
                tabs.append(Tab(id: id, root: try readFrame()))
            }
            let sel = try readInt(limit: n, "selected tab")
            s.roots = tabs
            s.selectedIndex = sel - 1
            s.hasTabs = true
        default:
            throw error("unknown state kind \(kind)", at: at)
        }
        s.digestSum = s.roots.indices.contains(s.selectedIndex) ? Digest.terms(of: s) : .zero
        if validating, let v = s.validate().first {
            throw error("invalid state: \(v)", at: at)
        }
        return s
    }

    struct Level {
        var path: [RouteRef]
        var presentation: Presentation
        var hasContent: Bool
    }

    mutating func readPath() throws(BinaryDecodingError) -> [RouteRef] {
        let n = try readCount("path", minSize: 2)
        if n == 0 { return [] }
        var path: [RouteRef] = []
        path.reserveCapacity(n)
        for _ in 0..<n { path.append(try readRoute()) }
        return path
    }

    /// Reads a frame and the chain of presentations nested in it, iteratively.
    public mutating func readFrame() throws(BinaryDecodingError) -> Frame {
        var levels: [Level] = []
        var innermost: Frame? = nil
        while true {
            let path = try readPath()
            let at = offset
            let flags = try readByte()
            if flags == 0 {
                innermost = Frame(path: path)
                break
            }
            if flags & 1 == 0 || flags & 0b1100_0000 != 0 { throw error("invalid presentation flags 0x\(String(flags, radix: 16))", at: at) }
            let style = try readStyle((flags >> 1) & 7, at: at)
            let token = try readVarint()
            let route = try readRoute()
            var p = Presentation(token: token, route: route, style: style, dismissible: flags & (1 << 4) != 0)
            p.content = nil
            let hasContent = flags & (1 << 5) != 0
            levels.append(Level(path: path, presentation: p, hasContent: hasContent))
            if !hasContent { break }
            if levels.count >= BinaryCodec.maxNesting {
                throw error("frames nested deeper than \(BinaryCodec.maxNesting)", at: at)
            }
        }
        var inner = innermost
        while let level = levels.popLast() {
            var p = level.presentation
            if level.hasContent { p.content = inner }
            inner = Frame(path: level.path, presented: p)
        }
        return inner ?? Frame()
    }

    /// Reads an outcome byte.
    public mutating func readOutcome() throws(BinaryDecodingError) -> Outcome {
        let at = offset
        let b = try readByte()
        switch b {
        case 0: return .applied(.changed)
        case 1: return .applied(.updatedInPlace)
        case let r where Int(r) - 2 < BinaryCodec.reasons.count: return .rejected(BinaryCodec.reasons[Int(r) - 2])
        default: throw error("unknown outcome \(b)", at: at)
        }
    }

    /// Reads a digest (16 big-endian bytes).
    public mutating func readDigest() throws(BinaryDecodingError) -> Digest {
        let hi = try readBigEndian(UInt64.self)
        return Digest(hi: hi, lo: try readBigEndian(UInt64.self))
    }
}
