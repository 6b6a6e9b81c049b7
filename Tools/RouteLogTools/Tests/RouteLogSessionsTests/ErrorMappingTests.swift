@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogSessions
import Testing

/// Every error the store and the core throw keeps its kind as a ``RouteLogError/Cause``, with the
/// one line the tools have always printed for it.
@Suite struct ErrorMappingTests {
    static let id = SessionID("0192f4c0-7a1b-7c3d-8e4f-0123456789ab")

    static let storeErrors: [(LMDBEventLogError, RouteLogError.Cause, String)] = [
        (.notADirectory(path: "st"), .notAStore, "not a store: st (a file, not a store directory)"),
        (.notAStore(path: "st", reason: "it has no data.mdb"), .notAStore, "not a store: st (it has no data.mdb)"),
        (.newerFormat(path: "st", found: 9, supported: 2), .newerFormat,
         "newer store format: st was written in format 9; this routelog reads format 2 (upgrade routelog)"),
        (.olderFormat(path: "st", found: 1, supported: 2), .olderFormat, "older store format: st was written in format 1"),
        (.permissionDenied(path: "st", reason: "EACCES"), .permission, "permission denied: st (EACCES)"),
        (.readOnly(path: "st"), .readOnly, "store is read-only: st"),
        (.openReadOnlyElsewhere(path: "st"), .busy, "store is locked: st (open read-only elsewhere in this process)"),
        (.invalidSessionID("x"), .unknownSession, "unknown session: x (not a session id)"),
        (.corruptRecord(session: id, seq: 3, reason: "checksum"), .damaged, "corrupt record: session \(id) seq 3: checksum"),
        (.corruptValue(database: "sessions", key: "k", reason: "short"), .damaged, "corrupt store: database \"sessions\" key k: short"),
        (.storage(.noSpace, operation: "writing to st"), .noSpace, "disk full while writing to st: no space left on the device"),
        (.storage(.corrupted, operation: "reading st"), .damaged, "store error while reading st: "),
        (.storage(.ioError, operation: "reading st"), .io, "store error while reading st: "),
        (.storage(.writerBusy, operation: "writing to st"), .busy, "store error while writing to st: "),
        (.sessionInUse(id), .busy, "session in use: \(id)"),
        (.lockFailed(path: "st/x.lock", reason: "EIO"), .io, "cannot lock st/x.lock: EIO"),
        (.storeBusy(path: "st", writerDied: false), .busy, "store busy: another process is writing to st"),
        (.storeHeld(path: "st", byMove: true), .busy, "store busy: another process (the app moving sessions in)"),
        (.storeFull(path: "st", maxMapSize: 1 << 30), .noSpace, "store st is full: it reached its 1024 MiB map"),
    ]

    @Test func storeErrorsKeepTheirKind() {
        for (error, cause, line) in Self.storeErrors {
            let e = RouteLogError.from(error)
            #expect(e.cause == cause && e.message.hasPrefix(line), "\(error): \(e.cause) \(e.message)")
        }
        // Where a damaged value is.
        #expect(RouteLogError.from(LMDBEventLogError.corruptRecord(session: Self.id, seq: 3, reason: "x")).location == "session \(Self.id) seq 3")
    }

    @Test func coreErrorsKeepTheirKind() throws {
        var json: (any Error)?
        do { _ = try JSONValue(parsing: "{") } catch { json = error }
        let cases: [(any Error, RouteLogError.Cause, String)] = [
            (EventLogError.sessionNotFound(Self.id), .unknownSession, "unknown session: \(Self.id)"),
            (EventLogError.seqOutOfRange(session: Self.id, seq: 9, count: 3), .usage, "seq out of range: 9 (session \(Self.id) has 3 events)"),
            (EventLogError.conflict(session: Self.id, expected: 1, actual: 2), .busy, "append conflict on session"),
            (BisectError.missingEvent(seq: 4), .damaged, "bisect: the log has no event at seq 4"),
            (ShortestPathError.tooLong(events: 9, limit: 3), .usage, "--shortest: the session reaches these screens only after 9 events"),
            (FormatError(path: "events[0]", message: "bad"), .damaged, "malformed data: "),
            (try #require(json), .damaged, "malformed JSON: line 1"),
            (LMDBError.mapFull, .noSpace, ""),
            (RouteLogError(.empty, "empty session: s has no events"), .empty, "empty session: s has no events"),
        ]
        for (error, cause, line) in cases {
            let e = RouteLogError.from(error)
            #expect(e.cause == cause && e.message.hasPrefix(line), "\(error): \(e.cause) \(e.message)")
        }
    }

    /// An error no mapping knows keeps its own words, on one line, as an internal error.
    @Test func anUnknownErrorIsInternal() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd\n  thing" } }
        let e = RouteLogError.from(Odd())
        #expect(e.cause == .internal && e.message == "odd thing")
    }
}
