import Foundation
@_spi(Tools) import RouteLogCore

/// A log whose store could not be opened yet (before the first unlock after a reboot, on a full
/// disk, a damaged file): the navigator works on in memory while every append tries the open
/// again, and once it succeeds the session is created in the store and everything called since
/// launch is written into it. Until then each append throws the open's error, which the recorder
/// reports in one line (``Navigator/recordingStatus``) and retries.
///
/// The session's id is this log's own until the store opens. With a log that keeps early journals
/// (``RouteLogCore/EarlyJournalingEventLog``) the store then creates the session with that same
/// id, begins the run there and the navigator's journal switches to the store's
/// (``SwitchingJournal``): every call made before the store opened is in the early journal from
/// the first one, which survives the process and which the next read-write open recovers. With
/// another log the store's session gets an id of its own, reads go to it, and calls made until
/// the store opens are in memory only.
///
/// While the navigator is suspended the store is never opened (it would hold its files and locks
/// in the background); the flush before suspending still tries.
final class PendingLog: JournalingEventLog, @unchecked Sendable {
    private let open: @Sendable () throws -> any EventLog
    private let new: NewSession
    let placeholder: SessionInfo
    private let onOpen: @Sendable () -> Void
    private let lock = NSLock()
    private var opened: (log: any EventLog, session: SessionID?)?
    private(set) var lastError: any Error
    /// The navigator's journal from its first call (set once, before the navigator exists), when
    /// the log keeps early journals.
    var journal: SwitchingJournal?
    /// Set while the navigator is suspended (guarded by `lock`).
    private var suspended = false
    private let logger: (@Sendable (String) -> Void)?

    init(opening open: @escaping @Sendable () throws -> any EventLog, new: NewSession, firstError: any Error,
         clock: @escaping @Sendable () -> Int64, log logger: (@Sendable (String) -> Void)? = nil,
         onOpen: @escaping @Sendable () -> Void) {
        self.logger = logger
        self.open = open
        self.new = new
        self.lastError = firstError
        self.onOpen = onOpen
        let now = clock()
        var rng = SystemRandomNumberGenerator()
        placeholder = SessionInfo(id: SessionID.v7(milliseconds: now, random: (rng.next(), rng.next())), label: new.label,
                                  appName: new.appName, appVersion: new.appVersion, createdAt: now)
    }

    /// The store, opened now if it was not, with this navigator's session in it.
    private func store() throws -> (log: any EventLog, session: SessionID) {
        let (result, first): ((any EventLog, SessionID), Bool) = try lock.withLock {
            if let opened, let session = opened.session { return ((opened.log, session), false) }
            if suspended && opened == nil { throw lastError }
            do {
                let log = try opened?.log ?? open()
                opened = (log, nil)
                let session: SessionID
                if let early = log.journaling?.earlyJournaling {
                    // The same session as the early journal's, so that journal and store agree.
                    session = try early.createSession(withID: placeholder).id
                    if let journal {
                        do {
                            journal.switchTo(try early.beginRun(of: session, head: 0, RunStart(appVersion: new.appVersion, build: new.build)))
                        } catch {
                            // The early journal goes on holding every call until they are committed.
                            logger?("the store opened but its journal did not; calls stay in the early journal until committed: \(error)")
                        }
                    }
                } else {
                    session = try log.createSession(new).id
                }
                opened = (log, session)
                return ((log, session), true)
            } catch {
                lastError = error
                throw error
            }
        }
        if first { onOpen() }
        return result
    }

    private func map(_ id: SessionID) throws -> (any EventLog, SessionID) {
        let (log, session) = try store()
        return (log, id == placeholder.id ? session : id)
    }

    /// The session's id until the store opens (the navigator's for good).
    var session: SessionID { placeholder.id }

    func createSession(_ session: NewSession) throws -> SessionInfo { placeholder }

    func sessions() throws -> [SessionInfo] { try store().log.sessions() }

    func session(_ id: SessionID) throws -> SessionInfo {
        if id == placeholder.id, (lock.withLock { opened?.session }) == nil { return placeholder }
        let (log, real) = try map(id)
        return try log.session(real)
    }

    func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        let (log, real) = try map(session)
        return try log.append(events, to: real, expectedSeq: expectedSeq)
    }

    func read(_ session: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        let (log, real) = try map(session)
        try log.read(real, from: from, through: through, body)
    }

    func snapshot(_ session: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? {
        let (log, real) = try map(session)
        return try log.snapshot(real, atOrBefore: seq)
    }

    func deleteSession(_ session: SessionID) throws {
        let (log, real) = try map(session)
        try log.deleteSession(real)
    }

    // MARK: JournalingEventLog, forwarded to the store once it opened

    /// The opened store, when it keeps journals, and the session's id there.
    private var journalingStore: (log: any JournalingEventLog, session: SessionID)? {
        lock.withLock {
            guard let opened, let session = opened.session, let log = opened.log.journaling else { return nil }
            return (log, session)
        }
    }

    private func real(_ id: SessionID, _ session: SessionID) -> SessionID { id == placeholder.id ? session : id }

    func beginRun(of session: SessionID, head: UInt64, _ run: RunStart) throws -> any EventJournal {
        guard let (log, real) = journalingStore else { throw lastError }
        return try log.beginRun(of: self.real(session, real), head: head, run)
    }

    func runs(of session: SessionID) throws -> [RunInfo] {
        guard let (log, real) = journalingStore else { return [] }
        return try log.runs(of: self.real(session, real))
    }

    /// The navigator suspends: the store (if it opened) lets go of the session and, with no other
    /// navigator active, of its files; and the store is not opened until the navigator resumes.
    func suspendWriting(_ session: SessionID) {
        lock.withLock { suspended = true }
        if let (log, real) = journalingStore { log.suspendWriting(self.real(session, real)) }
    }

    func resumeWriting(_ session: SessionID, run: Int) throws {
        lock.withLock { suspended = false }
        if let (log, real) = journalingStore { try log.resumeWriting(self.real(session, real), run: run) }
    }

    func isBeingWritten(_ session: SessionID) -> Bool {
        if session == placeholder.id { return true }
        guard let (log, real) = journalingStore else { return false }
        return log.isBeingWritten(self.real(session, real))
    }
}

extension PendingLog: FoldedAppendingEventLog {
    /// Thrown by ``appendFolded(_:digests:to:expectedSeq:)`` when the opened store does not take
    /// its caller's fold (nothing is written): the recorder appends the batch for it to fold.
    struct FoldedAppendUnavailable: Error {}

    /// To the store once it opened, when it takes its caller's fold.
    func appendFolded(_ events: [RecordedEvent], digests: [Digest], to session: SessionID, expectedSeq: UInt64) throws {
        let (log, real) = try map(session)
        guard let folded = log.foldedAppending else { throw FoldedAppendUnavailable() }
        try folded.appendFolded(events, digests: digests, to: real, expectedSeq: expectedSeq)
    }
}

extension PendingLog: ScreenRecordingEventLog {
    /// To the store once it opened, when it keeps screen records (else they are dropped).
    func appendScreenRecords(_ records: [ScreenRecord], to session: SessionID) throws {
        let (log, real) = try map(session)
        try log.screenRecording?.appendScreenRecords(records, to: real)
    }

    func readScreenRecords(_ session: SessionID, _ body: (ScreenRecord) throws -> Bool) throws {
        let (log, real) = try map(session)
        try log.screenRecording?.readScreenRecords(real, body)
    }
}
