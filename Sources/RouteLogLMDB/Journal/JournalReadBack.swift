@_spi(Tools) import RouteLogCore

/// Reading back a live journal's uncommitted events, for a recorder whose log fell behind: it
/// keeps a bounded backlog in memory and takes the rest from here, so a burst of calls that
/// outruns the disk costs mapped file pages, not the process's memory.
///
/// The recorder asks only for events handed over to it, whose entries the writer's thread
/// finished before the handoff (an atomic increment with release ordering, read with acquire);
/// entries after them may be being written meanwhile and are never read. Under `lock` (which the
/// writer's thread takes only to rotate segments, and `committed(through:)` and `suspend()` to
/// release them) the entries' bytes are copied out; they are checked and decoded after.
extension JournalWriter {
    var canReadBack: Bool { failure == nil && current != nil }

    func events(from seq: UInt64, through last: UInt64) -> [(event: RecordedEvent, digest: Digest)]? {
        guard seq <= last else { return [] }
        guard let (bytes, offsets) = copyEntries(from: seq, through: last) else { return nil }
        var out: [(event: RecordedEvent, digest: Digest)] = []
        out.reserveCapacity(offsets.count)
        return bytes.withUnsafeBytes { raw -> [(event: RecordedEvent, digest: Digest)]? in
            var want = seq
            for at in offsets {
                let length = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                guard let e = JournalReader.entry(raw, at: at, length: length), e.seq == want else { return nil }
                out.append((e.recorded, e.digest))
                want += 1
            }
            return want == last + 1 ? out : nil
        }
    }

    /// The raw entries `seq`...`last`, copied into one buffer, and each one's offset in it.
    private func copyEntries(from seq: UInt64, through last: UInt64) -> (bytes: [UInt8], offsets: [Int])? {
        lock.lock()
        defer { lock.unlock() }
        let segments = retired + (current.map { [$0] } ?? [])
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        var want = seq
        for (i, segment) in segments.enumerated() where want <= last {
            // A later segment starts at or before `want`: this one has nothing wanted.
            if i + 1 < segments.count && segments[i + 1].firstSeq <= want { continue }
            guard segment.firstSeq <= want else { return nil }
            var offset = Self.headerSize
            var at = segment.firstSeq
            if let c = readCursor, c.segmentFirstSeq == segment.firstSeq, c.seq <= want {
                (offset, at) = (c.offset, c.seq)
            }
            while want <= last && offset + Self.entryHeader <= segment.capacity {
                let length = Int(UInt32(littleEndian: segment.base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                if length == 0 { break }
                let size = Self.entrySize(payload: length)
                guard offset + size <= segment.capacity else { return nil }
                if at == want {
                    offsets.append(bytes.count)
                    bytes.append(contentsOf: UnsafeRawBufferPointer(start: segment.base + offset, count: size))
                    want += 1
                }
                offset += size
                at += 1
            }
            readCursor = (segment.firstSeq, offset, at)
        }
        return want == last + 1 ? (bytes, offsets) : nil
    }
}
