import Foundation
@_spi(Tools) @testable import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A full disk never kills the app: a journal segment is reserved before it is mapped, so a store
/// through the map never lands in a hole (SIGBUS); what does not fit fails in one line, and the
/// navigator goes on and records once there is room. Run with the reservation of the platforms
/// that have no `posix_fallocate` (Apple's: writing the segment's zeros), on a small tmpfs.
@MainActor
@Suite(.serialized, .tags(.appleLocks)) struct FullDiskTests {
    /// Mounts a tmpfs of `size` at a new folder of `dir` (the tests run as root, as `make test` does).
    static func smallDisk(_ dir: TempDir, size: String) throws -> String {
        let path = dir.path("disk")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mount = try Child(path: "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path], stdin: .empty, output: .merged).wait()
        let (status, output) = (mount.status, mount.output)
        try #require(status == 0, "cannot mount a tmpfs (the tests run as root): \(output)")
        return path
    }

    static func unmount(_ path: String) { _ = try? Child(path: "/bin/umount", [path], stdin: .empty, output: .merged).wait() }

    @Test(.timeLimit(.minutes(6))) func aFullDiskFailsTheJournalInOneLineAndLosesNothing() async throws {
        let saved = JournalWriter.reservation
        JournalWriter.reservation = .zeros
        defer { JournalWriter.reservation = saved }
        let dir = try TempDir()
        let disk = try Self.smallDisk(dir, size: "3m")
        defer { Self.unmount(disk) }
        let store = disk + "/store"
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, initialMapSize: 1 << 20, retention: .none))
        // Leave less than a segment (1 MiB) free.
        var fs = statvfs()
        try #require(statvfs(disk, &fs) == 0)
        let free = Int(fs.f_bavail) * Int(fs.f_frsize)
        let filler = disk + "/filler"
        try #require(FileManager.default.createFile(atPath: filler, contents: Data(count: max(0, free - (512 << 10)))))

        // The journal cannot be reserved: the navigator starts without it, and calls work.
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "full"), clock: fixedClock, retryDelay: 0.05)
        #expect(nav.journal == nil)
        #expect(throws: LMDBEventLogError.self) {
            _ = try JournalWriter(directory: store + "/journal", session: nav.session, run: 9, head: 0)
        }
        do {
            _ = try JournalWriter(directory: store + "/journal", session: nav.session, run: 9, head: 0)
        } catch {
            #expect("\(error)".contains("cannot allocate 1048576 bytes for the journal segment: No space left on device"))
            #expect(!"\(error)".contains("\n"))
        }
        #expect((try FileManager.default.contentsOfDirectory(atPath: store + "/journal")).filter { $0.hasSuffix(".rlj") } == [],
                "a segment that did not fit is removed")
        for i in 0..<300 { nav.push(.episode(id: i)) }
        #expect(nav.headSeq == 300)
        // Room again: everything called is recorded.
        try FileManager.default.removeItem(atPath: filler)
        let deadline = ContinuousClock.now + .seconds(300)
        while nav.recordingStatus.writtenSeq < 300 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            await nav.flush()
        }
        #expect(try log.events(nav.session).map(\.seq) == Array(1...300))
        #expect(nav.recordingError == nil)
        // With room, the same reservation makes whole segments.
        let journal = try JournalWriter(directory: store + "/journal", session: nav.session, run: 9, head: 300)
        var st = stat()
        let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: store + "/journal").first { $0.hasSuffix(".rlj") })
        #expect(stat(store + "/journal/" + segment, &st) == 0)
        #expect(Int(st.st_blocks) * 512 >= 1 << 20, "the segment's blocks are allocated, not a hole")
        journal.close(allCommitted: false)
    }

    /// A store that cannot even be created on a full disk: the launch goes on in memory, says why,
    /// and records everything once there is room.
    @Test(.timeLimit(.minutes(6))) func aStoreThatCannotBeCreatedOnAFullDiskRecordsOnceThereIsRoom() async throws {
        let dir = try TempDir()
        let disk = try Self.smallDisk(dir, size: "1m")
        defer { Self.unmount(disk) }
        var fs = statvfs()
        try #require(statvfs(disk, &fs) == 0)
        let filler = disk + "/filler"
        try #require(FileManager.default.createFile(atPath: filler, contents: Data(count: Int(fs.f_bavail) * Int(fs.f_frsize))))
        let store = disk + "/store"
        let nav = Navigator<PodRoute>.restoringLatest(store: store, orStarting: NewSession(label: "main"), clock: fixedClock,
                                                      retryDelay: 0.05) { try LMDBEventLog.open(at: $0, options: .init(durability: .none, initialMapSize: 256 << 10)) }
        let error = try #require(nav.recordingError)
        // LMDB's lock file is reserved before LMDB maps it: a full disk is an error, never a SIGBUS.
        #expect(error.message.contains("cannot be opened yet") && error.message.contains("No space left on device") && !error.message.contains("\n"), "\(error)")
        for i in 0..<50 { nav.push(.episode(id: i)) }
        // Opening a store there fails in one line: LMDB's lock file is reserved before LMDB maps
        // it, so its first write cannot fault (SIGBUS) on the full disk.
        do {
            _ = try LMDBEventLog.open(at: disk + "/other", options: .init(retention: .none))
            Issue.record("a store opened on a full disk")
        } catch {
            #expect("\(error)".contains("No space left on device") && !"\(error)".contains("\n"), "\(error)")
        }
        try FileManager.default.removeItem(atPath: filler)
        let deadline = ContinuousClock.now + .seconds(300)
        while (nav.recordingStatus.writtenSeq < 50 || nav.recordingError != nil) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(nav.recordingError == nil, "\(String(describing: nav.recordingError))")
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let session = try #require(try log.sessions().first)
        #expect(try log.events(session.id).map(\.seq) == Array(1...50))
    }
}
