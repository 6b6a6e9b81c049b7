import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A kill lands anywhere in the writer's last store. Whatever part of the last entry (or of a
/// segment header) reached the file, in the order the writer stores it, and whatever segment was
/// made ahead of it, readers and recovery see every earlier event and report no damage.
@Suite("A torn journal tail is not damage", .serialized)
struct JournalTornTailTests {
    /// The byte ranges of an entry with a payload of `length` bytes, in the order
    /// `JournalWriter.write` stores them: seq, digest, payload, checksum, and the length last.
    static func writerOrder(length: Int) -> [Int] {
        let payloadEnd = JournalWriter.entryHeader + length
        return Array(8..<16) + Array(16..<32) + Array(JournalWriter.entryHeader..<payloadEnd)
            + Array(payloadEnd..<(payloadEnd + JournalWriter.checksumSize)) + Array(0..<4)
    }

    /// What may follow the newest started segment when the process dies.
    enum Spare: CaseIterable, Sendable { case none, zeros, empty }

    /// A journal-only session of `count` events whose last entry, in `file`, has only the bytes
    /// at `written` (positions in the entry) stored, with `spare` after it.
    static func tear(_ file: String, entry: Int, original: [UInt8], written: ArraySlice<Int>) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let size = original.count
        for i in 0..<size { bytes[entry + i] = 0 }
        for i in written { bytes[entry + i] = original[i] }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
    }

    static func makeSpare(_ files: [String], _ spare: Spare) throws {
        guard spare != .none, let last = files.last else { return }
        // `<session>.<token>.<segment>.rlj`: the next segment number.
        let name = (last as NSString).lastPathComponent
        let parts = name.dropLast(JournalWriter.suffix.count).split(separator: ".")
        let next = UInt32(parts[2])! + 1
        let n = String(next)
        let path = ((last as NSString).deletingLastPathComponent as NSString)
            .appendingPathComponent("\(parts[0]).\(parts[1]).\(String(repeating: "0", count: 6 - n.count) + n)\(JournalWriter.suffix)")
        let bytes = spare == .zeros ? [UInt8](repeating: 0, count: JournalWriter.segmentBytes) : []
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Every prefix of the last entry's stores, with each kind of spare: the reader keeps every
    /// whole entry and reports nothing damaged. Recovery and `routelog log` are checked on a
    /// sample of the prefixes (each runs LMDB), including the one a kill left in the field: the
    /// seq written, the length not, a zeroed segment made ahead after it.
    @Test(arguments: Spare.allCases, [200, 12_000])
    func everyPrefixOfTheLastEntryIsATornTail(spare: Spare, count: Int) async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (id, files, expected) = try journalOnlySession(dir.path, count: count, seed: 3)
        // 12,000 events span two segments: the tail is in a segment with another before it.
        #expect(files.count == (count > 10_000 ? 2 : 1))
        let file = try #require(files.last)
        let entry = try #require(try entryOffsets(file).last)
        let all = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        let length = Int(all[entry]) | Int(all[entry + 1]) << 8 | Int(all[entry + 2]) << 16 | Int(all[entry + 3]) << 24
        let original = Array(all[entry..<(entry + JournalWriter.entrySize(payload: length))])
        let order = Self.writerOrder(length: length)
        try Self.makeSpare(files, spare)
        let journal = (file as NSString).deletingLastPathComponent
        let group = try #require(JournalReader.list(journal).first)
        #expect(group.files.count == files.count + (spare == .none ? 0 : 1))
        // Every prefix in the writer's order, and (a kill sees what was stored, in any order
        // another writer might pick) every prefix of the reverse order. The long journal is
        // read at every 5th prefix (each read decodes 12,000 entries).
        var failures = 0
        for (name, sequence) in [("writer order", order), ("reverse order", Array(order.reversed()))] {
            for k in stride(from: 0, to: order.count, by: count > 10_000 ? 5 : 1) where failures < 3 {
                try Self.tear(file, entry: entry, original: original, written: sequence[0..<k])
                // The bytes not yet stored may all be zeros anyway (the length's high bytes):
                // then the entry is whole.
                let whole = sequence[k...].allSatisfy { original[$0] == 0 }
                let contents = JournalReader.read(session: id, token: group.token, files: group.files)
                let seqs = contents.entries.map(\.seq)
                let good = contents.damage == nil && seqs.count == count - (whole ? 0 : 1) && seqs.last == UInt64(seqs.count)
                #expect(good, "\(spare), \(name), \(k) of \(order.count) bytes: \(seqs.count) entries, damage: \(contents.damage ?? "none")")
                if !good { failures += 1 }
            }
        }
        // The torn state a SIGKILL left in the field: the seq stored, nothing after it.
        try Self.tear(file, entry: entry, original: original, written: order[0..<8])
        let (shown, recovered) = try await loggedSeqs(dir.path, id.rawValue)
        #expect(shown.count == count - 1 && shown.last == UInt64(count - 1), "\(spare): \(shown.count) shown")
        #expect(recovered.count == count - 1, "\(spare)")
        do {
            let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
            #expect(log.journalRecovery.problems.isEmpty, "\(spare): \(log.journalRecovery.problems)")
            #expect(try log.events(id).map(\.digest) == expected.prefix(count - 1).map(\.digest))
            #expect(try log.runs(of: id).last?.end == .crashed(recovered: UInt64(count - 1), lastSeq: UInt64(count - 1)))
        }
        // Nothing was set aside as damaged: the journal is gone.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
        #expect(left.isEmpty, "\(spare): \(left)")
    }

    /// A kill while the writer started the next segment: every prefix of its header (the entry
    /// that needed it was not written yet). The earlier segments' entries are all there.
    @Test func everyPrefixOfANewSegmentHeaderIsATornTail() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let count = 30
        let (id, files, expected) = try journalOnlySession(dir.path, count: count, seed: 5)
        let last = try #require(files.last)
        let journal = (last as NSString).deletingLastPathComponent
        try Self.makeSpare(files, .zeros)
        let group = try #require(JournalReader.list(journal).first)
        let spare = try #require(group.files.last)
        // The header `JournalWriter.writeHeader` would store for the next segment, in its order:
        // magic, first seq, reserved, run, segment number, checksum.
        let header = UnsafeMutableRawPointer.allocate(byteCount: JournalWriter.headerSize, alignment: 8)
        defer { header.deallocate() }
        header.initializeMemory(as: UInt8.self, repeating: 0, count: JournalWriter.headerSize)
        JournalWriter.writeHeader(header, firstSeq: UInt64(count + 1), run: 1, segment: UInt32(group.files.count - 1))
        let headerBytes = Array(UnsafeRawBufferPointer(start: header, count: JournalWriter.headerSize))
        for k in 0...40 {
            var bytes = [UInt8](repeating: 0, count: 64 << 10)
            for i in 0..<k { bytes[i] = headerBytes[i] }
            try Data(bytes).write(to: URL(fileURLWithPath: spare))
            let contents = JournalReader.read(session: id, token: group.token, files: group.files)
            #expect(contents.damage == nil, "\(k) header bytes: \(contents.damage ?? "")")
            #expect(contents.entries.count == count && contents.entries.last?.seq == UInt64(count), "\(k) header bytes")
        }
        // Half a header: recovered whole, nothing set aside.
        var bytes = [UInt8](repeating: 0, count: JournalWriter.segmentBytes)
        for i in 0..<20 { bytes[i] = headerBytes[i] }
        try Data(bytes).write(to: URL(fileURLWithPath: spare))
        let (shown, _) = try await loggedSeqs(dir.path, id.rawValue)
        #expect(shown.count == count && shown.last == UInt64(count))
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        #expect(log.journalRecovery.problems.isEmpty, "\(log.journalRecovery.problems)")
        #expect(try log.events(id).map(\.digest) == expected.map(\.digest))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: journal))?.isEmpty ?? true)
    }

    /// What is still damage: a bad entry with a whole one after it, even with a spare made ahead,
    /// and a damaged header with entries after it.
    @Test func aBadEntryFollowedByGoodOnesIsStillDamage() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (id, files, _) = try journalOnlySession(dir.path, count: 20, seed: 7)
        try Self.makeSpare(files, .zeros)
        let journal = (try #require(files.last) as NSString).deletingLastPathComponent
        let group = try #require(JournalReader.list(journal).first)
        let offsets = try entryOffsets(files[0])
        try patch(files[0], at: offsets[9] + 8) { $0 ^= 0x01 }
        let contents = JournalReader.read(session: id, token: group.token, files: group.files)
        #expect(contents.damage?.contains("entries follow it") == true, "\(contents.damage ?? "no damage")")
        #expect(contents.entries.count == 9)
        try patch(files[0], at: offsets[9] + 8) { $0 ^= 0x01 }
        try patch(files[0], at: 3) { $0 ^= 0x01 }
        let header = JournalReader.read(session: id, token: group.token, files: group.files)
        #expect(header.damage?.contains("header is damaged") == true, "\(header.damage ?? "no damage")")
    }
}
