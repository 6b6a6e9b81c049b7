#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

/// The layout of a journal's segment files, shared by the writer (``JournalWriter``) and the reader
/// (``JournalReader``).
///
/// All integers are little-endian. A segment starts with a 64-byte header: the magic
/// `RLJRNL01`, the seq of its first entry (u64), a reserved u64, the run number (u32), the
/// segment number (u32), a checksum (u64) of the 32 bytes before it, and the run's state (u8, at
/// offset 40, outside the checksum: 0 active, 1 suspended, 2 exited; see ``State``), which the
/// next read-write open reads from the newest segment to tell how the run ended. Entries follow, each at
/// an 8-byte boundary: the payload's length `L` (u32, never 0), a reserved u32, the seq (u64), the
/// digest of the state after the event (16 bytes), the payload (the event with its metadata in
/// the core's binary codec, `L` bytes) and a checksum (u64) over the length, seq, digest and
/// payload; then zeros to the next boundary. A fresh segment is all zeros after its header, so a
/// length of 0 ends the entries. A segment made ahead of its use (see JournalSpare.swift) is all
/// zeros, header included, until the writer starts it: a reader takes it for a segment the writer
/// died before starting, and it adds nothing.
extension JournalWriter {
    /// What the run was doing when its journal was last written: kept in the newest segment's
    /// header, one byte stored through the mapping (so it reaches the file however the process
    /// dies).
    enum State: UInt8 {
        /// Navigating (and how a journal of an older RouteLog reads): a run that dies in this
        /// state crashed.
        case active = 0
        /// After `Navigator.suspend()`: a run that dies in this state was ended by the system
        /// while in the background.
        case suspended = 1
        /// The process exited normally (an `atexit` handler), or the navigator was released.
        case exited = 2
    }
    static let stateOffset = 40

    static let magic: [UInt8] = Array("RLJRNL01".utf8)
    static let headerSize = 64
    static let entryHeader = 32
    static let checksumSize = 8
    static let suffix = ".rlj"

    static func fileName(session: SessionID, token: String, segment: UInt32) -> String {
        let n = String(segment)
        return "\(session.rawValue).\(token).\(String(repeating: "0", count: max(0, 6 - n.count)) + n)\(suffix)"
    }

    static func writeHeader(_ base: UnsafeMutableRawPointer, firstSeq: UInt64, run: UInt32, segment: UInt32) {
        magic.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: 8) }
        base.storeBytes(of: firstSeq.littleEndian, toByteOffset: 8, as: UInt64.self)
        base.storeBytes(of: UInt64(0), toByteOffset: 16, as: UInt64.self)
        base.storeBytes(of: run.littleEndian, toByteOffset: 24, as: UInt32.self)
        base.storeBytes(of: segment.littleEndian, toByteOffset: 28, as: UInt32.self)
        let sum = headerChecksum(UnsafeRawBufferPointer(start: base, count: 32))
        base.storeBytes(of: sum.littleEndian, toByteOffset: 32, as: UInt64.self)
    }

    static func headerChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        h.combine(bytes: bytes.bindMemory(to: UInt8.self))
        return h.finalize().lo
    }

    /// The checksum of an entry: its length, seq, digest and payload.
    @inline(__always)
    static func entryChecksum(length: UInt32, seq: UInt64, digest: Digest, payload: UnsafeRawBufferPointer) -> UInt64 {
        var h = StableHasher()
        h.combine(UInt64(length))
        h.combine(seq)
        h.combine(digest.hi)
        h.combine(digest.lo)
        h.combine(bytes: payload.bindMemory(to: UInt8.self))
        return h.finalize().lo
    }

    @inline(__always) static func entrySize(payload: Int) -> Int { (entryHeader + payload + checksumSize + 7) & ~7 }
}
