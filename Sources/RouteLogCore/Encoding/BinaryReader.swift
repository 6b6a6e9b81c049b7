// The binary codec's reader: primitives and value bodies. See BinaryCodec.swift and BinaryFormat.md.

/// Reads RouteLog binary primitives and values from a buffer, checking every length against the
/// bytes left and reporting failures with their offset.
///
/// The reader does not own the buffer: it must stay valid while the reader is used. Values it
/// returns (strings, events, states) are owned copies.
@_spi(Tools) public struct BinaryReader {
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
            guard UTF8Validation.isValid(utf8) else {
                throw error("string of \(n) bytes at byte \(offset) is not valid UTF-8", at: at)
            }
            s = String(decoding: utf8, as: UTF8.self)
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
        guard let style = PresentationStyle(wireCode: code) else { throw error("unknown presentation style \(code)", at: at) }
        return style
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
        guard let origin = Origin(wireCode: flags & 3) else { throw error("unknown origin \(flags & 3)", at: at) }
        m.origin = origin
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
        guard let kind = Event.Kind(wireCode: tag) else { throw error("unknown event tag \(tag)", at: at) }
        switch kind {
        case .push:
            let route = try readRoute()
            return .push(route, frame: try readFrameRef())
        case .pop:
            let c = offset
            guard let count = Int(exactly: try readZigZag()) else { throw error("pop count out of range", at: c) }
            return .pop(count: count, frame: try readFrameRef())
        case .popToRoot:
            return .popToRoot(frame: try readFrameRef())
        case .show:
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
        case .dismiss:
            let t = offset
            switch try readByte() {
            case 0: return .dismiss(.top)
            case 1: return .dismiss(.all)
            case 2: return .dismiss(.token(try readVarint()))
            case let b: throw error("unknown dismiss target \(b)", at: t)
            }
        case .interactiveDismiss:
            let t = offset
            switch try readByte() {
            case 0: return .interactiveDismiss(token: nil)
            case 1: return .interactiveDismiss(token: try readVarint())
            case let b: throw error("invalid optional-token marker \(b)", at: t)
            }
        case .setTabs:
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
        case .selectTab:
            return .selectTab(try readString())
        case .reset:
            return .reset(try readState(validating: false))
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
        guard let outcome = Outcome(wireCode: b) else { throw error("unknown outcome \(b)", at: at) }
        return outcome
    }

    /// Reads a digest (16 big-endian bytes).
    public mutating func readDigest() throws(BinaryDecodingError) -> Digest {
        let hi = try readBigEndian(UInt64.self)
        return Digest(hi: hi, lo: try readBigEndian(UInt64.self))
    }
}
