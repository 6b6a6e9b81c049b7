import Foundation
import RouteLogCore
import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// Issue 38 A, across processes: an app on the guarded launch path whose store cannot be opened
/// at launch (`routelog-crash-app late`) is SIGKILLed before the store opens and after; every call
/// that returned is in the store after its next read-write open, in the same session, with the
/// run recorded and ended `crashed`.
@Suite(.serialized) struct EarlyJournalCrashTests {
    struct Killed {
        var session: SessionID
        var acknowledged: [UInt64]
    }

    /// Runs the late app until `seqs` calls returned (making the store openable after `unlockAfter`
    /// of them, if given, and then waiting for it to record into the store), then SIGKILLs it.
    func runAndKill(store: String, seed: Int, seqs: Int, unlockAfter: Int? = nil, fallback: String? = nil) throws -> Killed {
        let unlock = store + ".unlock"
        let child = try Child(["late", store, unlock, String(seed)] + (fallback.map { [$0] } ?? []), executable: "routelog-crash-app")
        var session: SessionID?
        var acknowledged: [UInt64] = []
        var opened = unlockAfter == nil
        var afterOpen = 0
        while let line = child.nextLine() {
            if line.hasPrefix("session ") { session = SessionID(String(line.dropFirst(8))) }
            if line == "opened" { opened = true }
            if line.hasPrefix("seq "), let seq = UInt64(line.dropFirst(4)) {
                acknowledged.append(seq)
                if opened { afterOpen += 1 }
            }
            if let unlockAfter, acknowledged.count == unlockAfter { _ = FileManager.default.createFile(atPath: unlock, contents: nil) }
            if acknowledged.count >= seqs && opened && (unlockAfter == nil || afterOpen >= 100) {
                child.kill()
                break
            }
            if line.hasPrefix("error") { Issue.record("\(line)"); child.kill(); break }
        }
        _ = child.rest()
        return Killed(session: try #require(session), acknowledged: acknowledged)
    }

    /// Opens the store read-write (which recovers) and checks the killed run's calls are there.
    func expectRecovered(_ killed: Killed, store: String, fallback: String? = nil) throws {
        let log = try LMDBEventLog.open(at: store, options: .init(retention: .none, earlyJournalDirectory: fallback))
        #expect(log.journalRecovery.problems == [])
        let sessions = try log.sessions()
        #expect(sessions.map(\.id) == [killed.session], "the recovered session is the app's own")
        let info = try log.session(killed.session)
        #expect(info.label == "main" && info.appName == "CrashApp" && info.appVersion == "3.0")
        let stored = Set(try log.events(killed.session).map(\.seq))
        let lost = killed.acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) of \(killed.acknowledged.count) acknowledged calls lost")
        let runs = try log.runs(of: killed.session)
        #expect(runs.count == 1 && runs.first?.firstSeq == 1 && runs.first?.build == "b3.0", "\(runs)")
        if case .crashed = runs.last?.end {} else { Issue.record("the run ended \(String(describing: runs.last?.end)), not crashed") }
        // Nothing is left to recover.
        let early = (store as NSString).appendingPathComponent("journal/new")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: early)) ?? []) == [])
        if let fallback { #expect(((try? FileManager.default.contentsOfDirectory(atPath: fallback)) ?? []) == []) }
    }

    @Test(.timeLimit(.minutes(2))) func everyAcknowledgedCallSurvivesASIGKILLBeforeTheStoreOpens() throws {
        for round in 0..<3 {
            let dir = try TempDir()
            let killed = try runAndKill(store: dir.path, seed: 10 + round, seqs: 300 + 200 * round)
            try expectRecovered(killed, store: dir.path)
        }
    }

    @Test(.timeLimit(.minutes(2))) func everyAcknowledgedCallSurvivesASIGKILLAfterTheStoreOpened() throws {
        for round in 0..<3 {
            let dir = try TempDir()
            let killed = try runAndKill(store: dir.path, seed: 20 + round, seqs: 400 + 200 * round, unlockAfter: 200 + 100 * round)
            try expectRecovered(killed, store: dir.path)
        }
    }

    /// The store's own folder cannot be written (here `journal/new` is a file; on a device, Data
    /// Protection before the first unlock): the early journal goes to the fallback folder, and
    /// the store's next open recovers it from there.
    @Test(.timeLimit(.minutes(2))) func theFallbackFolderHoldsTheJournalWhenTheStoreCannotBeWritten() throws {
        let dir = try TempDir()
        let fallback = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/journal", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.path + "/journal/new", contents: Data())
        let killed = try runAndKill(store: dir.path, seed: 30, seqs: 300, fallback: fallback.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fallback.path).contains { $0.hasSuffix(".session") })
        try FileManager.default.removeItem(atPath: dir.path + "/journal/new")
        try expectRecovered(killed, store: dir.path, fallback: fallback.path)
    }
}
