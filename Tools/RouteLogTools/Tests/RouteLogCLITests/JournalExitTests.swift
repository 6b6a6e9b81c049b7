import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import RouteLogTestSupport
import Testing

/// A normal exit marks the journal exited even when the recorder's thread holds the journal's
/// lock at that moment (it takes it after each commit; on a busy machine an exit often lands
/// there): the run then ends clean, not crashed.
@Suite("The exit handler and the recorder's lock")
struct JournalExitTests {
    @Test func anExitWhileTheRecorderHoldsTheLockStillEndsTheRunClean() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let log = try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, retention: .none))
        let info = try log.createSession(NewSession(label: "exit"))
        let journal = try #require(try log.beginRun(of: info.id, head: 0, RunStart(appVersion: "1.0", build: "1")) as? JournalWriter)
        var replayer = Replayer()
        var generator = SessionGenerator(seed: 11)
        for e in generator.events(10) {
            let step = replayer.apply(e)
            journal.write(RecordedEvent(e, meta: EventMetadata(timestamp: 1_700_000_000_000)), seq: step.seq, digest: step.digest)
        }
        // The recorder's thread holds the lock for a moment, as after a commit.
        let held = DispatchSemaphore(value: 0)
        let holder = Thread {
            journal.lock.lock()
            held.signal()
            usleep(50_000)
            journal.lock.unlock()
        }
        holder.start()
        held.wait()
        JournalWriter.live.markExited()
        journal.abandon()
        let files = JournalReader.list(log.journalDirectory)
        let group = try #require(files.first)
        let contents = JournalReader.read(session: info.id, token: group.token, files: group.files)
        #expect(contents.state == .exited)
    }
}
