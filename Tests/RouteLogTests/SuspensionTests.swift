import Foundation
import RouteLog
import RouteLogCore
import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// `suspend()` and `resume()`: a navigator in the background holds no lock and no file of its
/// store, and the same run of the same session goes on afterwards.
@MainActor
@Suite(.serialized) struct SuspensionTests {
    /// What this process holds of the files under `directory`: locks (from /proc/locks), open
    /// descriptors (/proc/self/fd) and mappings (/proc/self/maps).
    static func held(under directory: String) -> (locks: [String], descriptors: [String], mappings: [String]) {
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        var inodes: [UInt64: String] = [:]
        if let walker = FileManager.default.enumerator(atPath: root) {
            for case let name as String in walker {
                var st = stat()
                if stat((root as NSString).appendingPathComponent(name), &st) == 0 { inodes[UInt64(st.st_ino)] = name }
            }
        }
        let pid = getpid()
        var locks: [String] = []
        for line in ((try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? "").split(separator: "\n") {
            let f = line.split(separator: " ").filter { !$0.isEmpty && $0 != "->" }
            guard f.count >= 6, Int32(f[4]) == pid else { continue }
            let parts = f[5].split(separator: ":")
            if parts.count == 3, let inode = UInt64(parts[2]), let name = inodes[inode] { locks.append("\(f[1]) \(name)") }
        }
        var descriptors: [String] = []
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"), target.hasPrefix(root + "/") {
                descriptors.append(target)
            }
        }
        let mappings = ((try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.contains(root + "/") }.map(String.init)
        return (locks, descriptors, mappings)
    }

    @Test func aSuspendedNavigatorHoldsNoLockAndNoFileAndGoesOnAfterResume() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock)
        for i in 0..<200 { nav.push(.episode(id: i)) }
        #expect(!Self.held(under: dir.path).locks.isEmpty, "an active navigator holds its locks")

        await nav.suspend()
        #expect(nav.isSuspended)
        let held = Self.held(under: dir.path)
        #expect(held.locks == [], "locks while suspended")
        #expect(held.descriptors == [], "open files while suspended")
        #expect(held.mappings == [], "mapped files while suspended")
        #expect(!log.environment.isOpen)
        // Nothing was left only in the journal, and reading the navigator needs no file.
        #expect(nav.recordingStatus.pendingCount == 0)
        #expect(nav.headSeq == 200 && nav.path.count == 200)
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(try reader.session(nav.session).eventCount == 200)
        #expect(try reader.runs(of: nav.session).map(\.end) == [.open])

        try nav.resume()
        #expect(!nav.isSuspended)
        nav.push(.settings)
        await nav.flush()
        #expect(nav.recordingError == nil)
        let stored = try log.events(nav.session)
        #expect(stored.map(\.seq) == Array(1...201))
        #expect(stored.last?.digest == nav.state.digest)
        // The same run goes on.
        #expect(try log.runs(of: nav.session).map(\.number) == [1])
        #expect(try log.runs(of: nav.session).map(\.end) == [.open])
    }

    @Test func aCallWhileSuspendedResumesFirst() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock)
        nav.push(.settings)
        await nav.suspend()
        nav.push(.episode(id: 1))
        #expect(!nav.isSuspended)
        await nav.flush()
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
    }

    /// A recovery by another process while this one is suspended (say `routelog prune`) takes
    /// the suspended journal and ends the run `suspended`: resume opens the run again.
    @Test func aRunEndedByARecoveryWhileSuspendedIsOpenAgainAfterResume() async throws {
        let dir = try TempDir()
        let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
        let nav = try Navigator<PodRoute>(log: log, session: NewSession(label: "main"), clock: fixedClock)
        nav.push(.settings)
        await nav.suspend()
        let other = try Child(["open", dir.path, "rw"])
        #expect(other.finish() == 0)
        let reader = try LMDBEventLog.open(at: dir.path, options: .init(readOnly: true))
        #expect(try reader.runs(of: nav.session).map(\.end) == [.suspended])
        try nav.resume()
        nav.push(.episode(id: 2))
        await nav.flush()
        #expect(try log.runs(of: nav.session).map(\.end) == [.open])
        #expect(try log.events(nav.session).map(\.seq) == [1, 2])
        #expect(nav.recordingError == nil)
    }
}
