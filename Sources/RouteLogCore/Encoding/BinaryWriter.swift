// The binary codec's writer: primitives and value bodies. See BinaryCodec.swift and BinaryFormat.md.

/// Appends RouteLog binary primitives and values to a byte array.
///
/// The primitives (varints, fixed-width integers, length-prefixed bytes and strings) are public so
/// that a store can encode its own record envelope with the same rules as the codec.
@_spi(Tools) public struct BinaryWriter: Sendable {
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
        var flags = m.origin.wireCode
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
        writeByte(e.kind.wireCode)
        switch e {
        case .push(let route, let frame):
            write(route)
            write(frame)
        case .pop(let count, let frame):
            writeZigZag(Int64(count))
            write(frame)
        case .popToRoot(let frame):
            write(frame)
        case .show(let route, let style, let dismissible, let placement):
            var flags = style.wireCode
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
            switch target {
            case .top: writeByte(0)
            case .all: writeByte(1)
            case .token(let t):
                writeByte(2)
                writeVarint(t)
            }
        case .interactiveDismiss(let token):
            if let token {
                writeByte(1)
                writeVarint(token)
            } else {
                writeByte(0)
            }
        case .setTabs(let ids, let selected):
            writeVarint(UInt64(ids.count))
            for id in ids { writeString(id) }
            if let selected {
                writeByte(1)
                writeString(selected)
            } else {
                writeByte(0)
            }
        case .selectTab(let id):
            writeString(id)
        case .reset(let state):
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
            var flags: UInt8 = 1 | p.style.wireCode << 1
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
        writeByte(o.wireCode)
    }

    /// Writes a digest as 16 big-endian bytes.
    public mutating func write(_ d: Digest) {
        writeBigEndian(d.hi)
        writeBigEndian(d.lo)
    }
}

