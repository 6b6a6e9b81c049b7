import Foundation
import RouteLogCore

/// A log whose store could not be opened yet (before the first unlock after a reboot, on a full
/// disk, a damaged file): the navigator works on in memory while every append tries the open
/// again, and once it succeeds the session is created in the store and everything called since
/// launch is written into it. Until then each append throws the open's error, which the recorder
/// reports in one line (``Navigator/recordingStatus``) and retries.
///
/// The session's id is this log's own until the store opens; reads go to the store's session
/// after that. There is no journal before the store opens: calls made until then are in memory
/// only.
final class PendingLog: EventLog, @unchecked Sendable {
    private let open: @Sendable () throws -> any EventLog
    private let new: NewSession
    private let placeholder: SessionInfo
    private let onOpen: @Sendable () -> Void
    private let lock = NSLock()
    private var opened: (log: any EventLog, session: SessionID?)?
    private(set) var lastError: any Error

    init(opening open: @escaping @Sendable () throws -> any EventLog, new: NewSession, firstError: any Error,
         clock: @escaping @Sendable () -> Int64, onOpen: @escaping @Sendable () -> Void) {
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
            do {
                let log = try opened?.log ?? open()
                opened = (log, nil)
                let session = try log.createSession(new).id
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
}
