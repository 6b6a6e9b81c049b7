@_spi(Tools) import RouteLogCore

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
    static func write(_ meta: EventMetadata, base: Int64, site: UInt32?, event: ArraySlice<UInt8>, into w: inout BinaryWriter) {
        writeMeta(meta, base: base, site: site, into: &w)
        w.bytes.append(contentsOf: event)
    }

    /// Writes a payload as ``write(_:base:site:event:into:)`` does, encoding `event` in place.
    static func write(_ meta: EventMetadata, base: Int64, site: UInt32?, event: Event, into w: inout BinaryWriter) {
        writeMeta(meta, base: base, site: site, into: &w)
        w.write(event)
    }

    /// Writes a payload's metadata part.
    private static func writeMeta(_ meta: EventMetadata, base: Int64, site: UInt32?, into w: inout BinaryWriter) {
        var flags = meta.origin.wireCode
        if meta.timestamp != 0 { flags |= 1 << 2 }
        if site != nil { flags |= 1 << 3 }
        if meta.note != nil { flags |= 1 << 4 }
        w.writeByte(flags)
        if meta.timestamp != 0 { w.writeZigZag(meta.timestamp &- base) }
        if let site { w.writeVarint(UInt64(site)) }
        if let note = meta.note { w.writeString(note) }
    }

    /// The codec body of an event, as ``write(_:base:site:event:into:)`` takes it.
    static func eventBody(_ e: Event) -> ArraySlice<UInt8> {
        var w = BinaryWriter()
        w.write(e)
        return w.bytes[...]
    }

    /// The codec bodies of a batch's events, encoded one after another into one buffer: one
    /// allocation for the batch rather than one (and its growth) an event.
    struct Bodies {
        private var bytes: [UInt8] = []
        /// `ends[k]`: where body `k` ends in `bytes`.
        private var ends: [Int] = []

        init(_ events: some Collection<RecordedEvent>) {
            var w = BinaryWriter()
            // A route's body is a few dozen bytes; the buffer grows if the guess is short.
            w.bytes.reserveCapacity(events.count * 64)
            ends.reserveCapacity(events.count)
            for e in events {
                w.write(e.event)
                ends.append(w.bytes.count)
            }
            bytes = w.bytes
        }

        var count: Int { ends.count }

        /// Body `k`.
        subscript(k: Int) -> ArraySlice<UInt8> { bytes[(k == 0 ? 0 : ends[k - 1]) ..< ends[k]] }
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
        let recorded = try read(&r, base: base, site: site)
        try r.expectEnd()
        return recorded
    }

    /// Reads a payload from `r`, which it ends at the payload's last byte (a payload delimits
    /// itself: a block of format 4 stores its payloads one after another).
    static func read(_ r: inout BinaryReader, base: Int64,
                     site: (UInt32) throws(BinaryDecodingError) -> CallSite) throws(BinaryDecodingError) -> RecordedEvent {
        var (meta, index) = try readMeta(&r, base: base)
        if let index { meta.callSite = try site(index) }
        return RecordedEvent(try r.readEvent(), meta: meta)
    }

    /// The time of a payload (0: none), reading only its metadata.
    static func time(_ bytes: UnsafeRawBufferPointer, base: Int64) throws(BinaryDecodingError) -> Int64 {
        var r = BinaryReader(bytes)
        return try readMeta(&r, base: base).0.timestamp
    }
}
