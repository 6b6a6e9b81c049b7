#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

// Reading journals: a dead writer's entries, checked, for recovery and for readers.

/// One journal entry, checked.
struct JournalEntry {
    var seq: UInt64
    var digest: Digest
    var recorded: RecordedEvent
}

/// What reading one journal (all the segments of one run of one session) found.
struct JournalContents {
    var session: SessionID
    var token: String
    var run: UInt32
    var files: [String]
    var entries: [JournalEntry] = []
    /// The bytes of the valid entries.
    var bytes = 0
    /// A torn last entry was dropped (the process died while writing it).
    var droppedTornEntry = false
    /// A damaged entry with valid entries after it: the entries before it are kept, nothing
    /// after it is used.
    var damage: String?
    /// The run's state in the newest segment's header: how the run ended, if its writer is gone.
    var state: JournalWriter.State = .active
}

enum JournalReader {
    /// The journals in `directory`, grouped by session and run token, segments in order.
    static func list(_ directory: String) -> [(session: SessionID, token: String, files: [String])] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var groups: [String: (SessionID, String, [String])] = [:]
        for name in names where name.hasSuffix(JournalWriter.suffix) {
            let parts = name.dropLast(JournalWriter.suffix.count).split(separator: ".")
            guard parts.count == 3, parts[2].count == 6, parts[2].allSatisfy(\.isNumber) else { continue }
            let key = "\(parts[0]).\(parts[1])"
            var g = groups[key] ?? (SessionID(String(parts[0])), String(parts[1]), [])
            g.2.append((directory as NSString).appendingPathComponent(name))
            groups[key] = g
        }
        return groups.keys.sorted().map { k in let g = groups[k]!; return (g.0, g.1, g.2.sorted()) }
    }

    /// Opens each file and takes `operation` (`LOCK_EX` or `LOCK_SH`, without waiting) on it;
    /// `nil` (and nothing held) when a live writer holds one.
    static func lock(_ files: [String], operation: Int32) -> [Int32]? {
        var fds: [Int32] = []
        for f in files {
            let fd = open(f, (operation == LOCK_EX ? O_RDWR : O_RDONLY) | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { continue }  // Removed meanwhile by its writer.
                fds.forEach { close($0) }
                return nil
            }
            if !take(fd, operation) {
                close(fd)
                fds.forEach { close($0) }
                return nil
            }
            fds.append(fd)
        }
        return fds
    }

    /// How long a recovery waits for readers to let go of a dead writer's journal.
    static let readerWait: Duration = .seconds(2)

    /// Takes `operation` on `fd` without blocking on a live writer. A live writer holds its
    /// segments exclusively; a reader (`routelog log` showing a crashed app's journal) holds them
    /// shared for the moment it reads. So when an exclusive lock is refused but a shared one is
    /// granted, only readers hold the journal, and the recovery waits for them (up to
    /// ``readerWait``) instead of taking the journal for a live writer's: skipping it would let
    /// this launch restore the session without the journaled calls and number its own calls
    /// over them.
    static func take(_ fd: Int32, _ operation: Int32) -> Bool {
        if flock(fd, operation | LOCK_NB) == 0 { return true }
        guard operation == LOCK_EX else { return false }
        let step: UInt32 = 5_000
        var waited: UInt64 = 0
        let limit = UInt64(readerWait.components.seconds) * 1_000_000
        while waited < limit {
            // Refused while shared is granted: readers only. (A failed conversion may drop the
            // shared lock; asking again is harmless.)
            guard flock(fd, LOCK_SH | LOCK_NB) == 0 else { return false }
            usleep(step)
            waited += UInt64(step)
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        }
        _ = flock(fd, LOCK_UN)
        return false
    }

    /// Reads and checks the segments of one journal.
    ///
    /// The end of a killed writer's journal is whatever it was writing when it died: an entry
    /// with some of its bytes stored (the seq, the digest, part of the payload, the checksum, in
    /// the order ``Journal/write(_:seq:digest:)`` stores them, the length last), a segment header
    /// half written, and after it segments made ahead and never started (zeros). None of that is
    /// damage: the entry being written was never acknowledged, and every entry before it is
    /// whole. So the tail is judged in the newest *started* segment (the last whose bytes are not
    /// all zeros), and only a bad entry or header with good bytes after it is damage.
    static func read(session: SessionID, token: String, files: [String]) -> JournalContents {
        var out = JournalContents(session: session, token: token, run: 0, files: files)
        // From the end, the files made ahead and never started are skipped (usually none or one),
        // so only one segment's bytes are held at a time.
        let lastStarted = files.lastIndex { file in
            FileManager.default.contents(atPath: file).map { !$0.allSatisfy { $0 == 0 } } ?? false
        }
        for (i, file) in files.enumerated() {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let bytes = [UInt8](data)
            let isLast = lastStarted.map { i >= $0 } ?? true
            let problem: String? = bytes.withUnsafeBytes { raw in
                readSegment(raw, name: (file as NSString).lastPathComponent, isLast: isLast, into: &out)
            }
            if let problem {
                out.damage = problem
                return out
            }
        }
        return out
    }

    /// Reads one segment's entries into `out`; returns a damage description, if any.
    private static func readSegment(_ raw: UnsafeRawBufferPointer, name: String, isLast: Bool, into out: inout JournalContents) -> String? {
        guard raw.count >= JournalWriter.headerSize else { return raw.allSatisfy({ $0 == 0 }) ? nil : "\(name): shorter than a header" }
        if raw[0..<JournalWriter.headerSize].allSatisfy({ $0 == 0 }) && raw.allSatisfy({ $0 == 0 }) { return nil }  // Died before the header.
        guard Array(raw[0..<8]) == JournalWriter.magic,
              UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
                == JournalWriter.headerChecksum(UnsafeRawBufferPointer(rebasing: raw[0..<32])) else {
            // A header the writer died writing: nothing after it, in the newest started segment.
            if isLast && raw[JournalWriter.headerSize...].allSatisfy({ $0 == 0 }) {
                out.droppedTornEntry = true
                return nil
            }
            return "\(name): the header is damaged"
        }
        let firstSeq = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        out.run = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        out.state = JournalWriter.State(rawValue: raw[JournalWriter.stateOffset]) ?? .active
        if let last = out.entries.last?.seq, last + 1 != firstSeq {
            return "\(name): starts at seq \(firstSeq), expected \(last + 1)"
        }
        var offset = JournalWriter.headerSize
        var expected = firstSeq
        while offset + 4 <= raw.count {
            let length = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            if length == 0 {
                // The end of the entries, unless something follows (an entry whose length was damaged).
                if raw[offset...].allSatisfy({ $0 == 0 }) { return nil }
                if !isLast || findEntry(raw, after: offset, seq: expected) {
                    return "\(name): entry for seq \(expected) at byte \(offset) is damaged, and entries follow it"
                }
                out.droppedTornEntry = true
                return nil
            }
            switch entry(raw, at: offset, length: length) {
            case .some(let e) where e.seq == expected:
                out.entries.append(e)
                out.bytes += JournalWriter.entrySize(payload: Int(length))
                expected += 1
                offset += JournalWriter.entrySize(payload: Int(length))
            case .some(let e):
                return "\(name): entry at byte \(offset) has seq \(e.seq), expected \(expected)"
            case .none:
                if !isLast || findEntry(raw, after: offset, seq: expected) {
                    return "\(name): entry for seq \(expected) at byte \(offset) is damaged, and entries follow it"
                }
                // A torn last entry: the writer died inside it; it was never acknowledged.
                out.droppedTornEntry = true
                return nil
            }
        }
        return nil
    }

    /// The entry at `offset` when its checksum holds and its payload decodes.
    static func entry(_ raw: UnsafeRawBufferPointer, at offset: Int, length: UInt32) -> JournalEntry? {
        let size = JournalWriter.entrySize(payload: Int(length))
        guard length > 0, offset + size <= raw.count else { return nil }
        let seq = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        let digest = Digest(hi: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)),
                            lo: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
        let payload = UnsafeRawBufferPointer(rebasing: raw[(offset + JournalWriter.entryHeader)..<(offset + JournalWriter.entryHeader + Int(length))])
        let stored = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + JournalWriter.entryHeader + Int(length), as: UInt64.self))
        guard stored == JournalWriter.entryChecksum(length: length, seq: seq, digest: digest, payload: payload),
              let recorded = try? BinaryCodec.decodeRecordedEvent(payload) else { return nil }
        return JournalEntry(seq: seq, digest: digest, recorded: recorded)
    }

    /// Whether a valid entry with a seq after `seq` − 1 lies at an 8-byte boundary after `offset`.
    private static func findEntry(_ raw: UnsafeRawBufferPointer, after offset: Int, seq: UInt64) -> Bool {
        var at = offset + 8
        while at + JournalWriter.entryHeader + JournalWriter.checksumSize <= raw.count {
            let length = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            if length > 0 && at + JournalWriter.entrySize(payload: Int(length)) <= raw.count {
                let s = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self))
                if s >= seq && s < seq + 1_000_000, entry(raw, at: at, length: length) != nil { return true }
            }
            at += 8
        }
        return false
    }
}
