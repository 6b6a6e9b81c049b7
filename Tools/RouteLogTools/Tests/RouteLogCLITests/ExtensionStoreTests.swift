import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// An app extension records into a small store of its own (one process at a time), and the app
/// moves its sessions into the app's store at launch: the extension killed mid-write and the app
/// killed mid-move, again and again, and afterwards every acknowledged event of both is in the
/// app's store exactly once, with the extension's labels, app details and runs.
@Suite(.serialized, .tags(.appleLocks)) struct ExtensionStoreTests {
    @Test(.timeLimit(.minutes(10))) func extensionSessionsMoveIntoTheAppsStoreExactlyOnce() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let app = dir.path("app")
        let ext = dir.path("group/RouteLog/share")
        try FileManager.default.createDirectory(atPath: dir.path("group/RouteLog"), withIntermediateDirectories: true)
        var rng = SplitMix64(seed: 61)
        var acked: [String: UInt64] = [:]   // session → the last seq a call returned
        var appSession: String?
        var appAcked: UInt64 = 0

        func seqs(_ lines: [String], into id: inout String?) -> UInt64 {
            var last: UInt64 = 0
            for l in lines {
                if l.hasPrefix("session ") { id = String(l.dropFirst(8)) }
                if l.hasPrefix("seq "), let s = UInt64(l.dropFirst(4)) { last = max(last, s) }
            }
            return last
        }

        for round in 0..<8 {
            // The extension handles a request: killed at a random moment, or ending it.
            let killed = rng.next() % 2 == 0
            let child = try CrashApp.start(["extension", ext, String(rng.next() % 10_000), killed ? "0" : String(5 + rng.next() % 30),
                                      killed ? "kill" : "suspend"])
            var lines: [String] = []
            if killed {
                while let l = child.nextLine() {
                    lines.append(l)
                    if l.hasPrefix("session ") { break }
                }
                usleep(UInt32(2_000 + rng.next() % 20_000))
                child.kill()
            }
            lines += child.rest()
            var id: String?
            let last = seqs(lines, into: &id)
            let session = try #require(id, "round \(round): \(lines.prefix(3))")
            acked[session] = last

            // The app launches and moves them: killed mid-move in some rounds.
            let mover = try CrashApp.start(["move", app, ext, String(rng.next() % 10_000)])
            var moveLines: [String] = []
            if rng.next() % 3 == 0 {
                while let l = mover.nextLine() {
                    moveLines.append(l)
                    if l.hasPrefix("seq ") { break }
                }
                usleep(UInt32(rng.next() % 8_000))
                mover.kill()
            }
            moveLines += mover.rest()
            var mine: String?
            appAcked = max(appAcked, seqs(moveLines, into: &mine))
            #expect(appSession == nil || mine == nil || mine == appSession, "the app restores its own session")
            appSession = appSession ?? mine
            #expect(!moveLines.contains { $0.hasPrefix("error") }, "\(moveLines)")
        }
        // Before the last move, routelog reads the extension's own store as it reads any.
        let listed = await InProcess.run(["sessions", "--store", ext, "--json"])
        #expect(listed.status == 0, "\(listed)")

        let final = try CrashApp.run(["move", app, ext, "1"])
        #expect(final.last == "done", "\(final)")
        let store = try LMDBEventLog.open(at: app, options: .init(readOnly: true))
        let sessions = try store.sessions()
        #expect(Set(sessions.map(\.id.rawValue)).count == sessions.count)
        for (id, last) in acked {
            let matches = sessions.filter { $0.id.rawValue == id }
            #expect(matches.count == 1, "session \(id) is in the app's store once")
            guard let info = matches.first else { continue }
            #expect(info.eventCount >= last, "\(id): \(info.eventCount) < acknowledged \(last)")
            #expect(info.label == "share" && info.appName == "CrashApp" && info.appVersion == "2.0")
            #expect(try store.verify(session: info.id).isValid)
            let runs = try store.runs(of: info.id)
            #expect(runs.count == 1 && runs[0].build == "b2.0", "\(runs)")
        }
        let own = try #require(sessions.first { $0.label == "main" })
        #expect(own.id.rawValue == appSession && own.eventCount >= appAcked)
        // The extension's store is empty, and its journals are gone.
        let left = try LMDBEventLog.open(at: ext, options: .init(readOnly: true))
        #expect(try left.sessions().isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: ext + "/journal")) ?? []).filter { $0.hasSuffix(".rlj") }.isEmpty)
    }

    @Test func aStoreOpenInAnotherProcessIsNotMovedNorOpened() async throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ext = dir.path("share")
        let child = try CrashApp.extensionMidRequest(ext)
        defer { child.kill(); _ = child.rest() }
        let app = try LMDBEventLog.open(at: dir.path("app"), options: .init(retention: .none))
        let moved = try app.moveSessions(fromStoreAt: ext)
        #expect(moved.busy && moved.sessions.isEmpty)
        #expect(try app.sessions().isEmpty)
    }
}
