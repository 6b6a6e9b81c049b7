import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
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
    func runAndKill(store: String, seed: Int, seqs: Int, unlockAfter: Int? = nil, fallback: String? = nil, plain: Bool = false) throws -> Killed {
        let unlock = store + ".unlock"
        let child = try Child(["late", store, unlock, String(seed), fallback ?? "-"] + (plain ? ["plain"] : []), executable: "routelog-crash-app")
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

    @Test(.timeLimit(.minutes(8))) func everyAcknowledgedCallSurvivesASIGKILLBeforeTheStoreOpens() throws {
        for round in 0..<3 {
            let dir = try TempDir()
            let killed = try runAndKill(store: dir.path, seed: 10 + round, seqs: 300 + 200 * round)
            try expectRecovered(killed, store: dir.path)
        }
    }

    @Test(.timeLimit(.minutes(8))) func everyAcknowledgedCallSurvivesASIGKILLAfterTheStoreOpened() throws {
        for round in 0..<3 {
            let dir = try TempDir()
            let killed = try runAndKill(store: dir.path, seed: 20 + round, seqs: 400 + 200 * round, unlockAfter: 200 + 100 * round)
            try expectRecovered(killed, store: dir.path)
        }
    }

    /// The store's own folder cannot be written (here `journal/new` is a file; on a device, Data
    /// Protection before the first unlock): the early journal goes to the fallback folder, and
    /// the store's next open recovers it from there.
    @Test(.timeLimit(.minutes(8))) func theFallbackFolderHoldsTheJournalWhenTheStoreCannotBeWritten() throws {
        let dir = try TempDir()
        let fallback = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/journal", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir.path + "/journal/new", contents: Data())
        let killed = try runAndKill(store: dir.path, seed: 30, seqs: 300, fallback: fallback.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fallback.path).contains { $0.hasSuffix(".session") })
        try FileManager.default.removeItem(atPath: dir.path + "/journal/new")
        try expectRecovered(killed, store: dir.path, fallback: fallback.path)
    }

    /// The figures of issue 38 A (run with ROUTELOG_MEASURE=1): acknowledged calls lost over
    /// SIGKILLs before and after the store opened, on the path without an early journal (`plain`,
    /// what the guarded path did before) and with it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ROUTELOG_MEASURE"] != nil), .timeLimit(.minutes(5)))
    func measureLossOverKills() throws {
        for plain in [true, false] {
            for unlockAfter in [nil, 1_000] as [Int?] {
                var lost = 0, acknowledged = 0, killsLosing = 0, runsRecorded = 0
                for round in 0..<4 {
                    let dir = try TempDir()
                    let killed = try runAndKill(store: dir.path, seed: 40 + round, seqs: 3_000, unlockAfter: unlockAfter, plain: plain)
                    let log = try LMDBEventLog.open(at: dir.path, options: .init(retention: .none))
                    let stored = Set(((try? log.sessions()) ?? []).flatMap { (try? log.events($0.id)) ?? [] }.map(\.seq))
                    let missing = killed.acknowledged.filter { !stored.contains($0) }.count
                    lost += missing
                    acknowledged += killed.acknowledged.count
                    if missing > 0 { killsLosing += 1 }
                    if let runs = try? log.sessions().first.map({ try log.runs(of: $0.id) }), runs.contains(where: { if case .crashed = $0.end { true } else { false } }) {
                        runsRecorded += 1
                    }
                }
                print("MEASURE \(plain ? "without early journal" : "with early journal") kill \(unlockAfter == nil ? "before" : "after") the store opened: lost \(lost) of \(acknowledged) acknowledged calls, in \(killsLosing) of 4 SIGKILLs; crashed run recorded in \(runsRecorded) of 4")
            }
        }
    }
}
