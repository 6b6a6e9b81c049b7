#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@_spi(Tools) import RouteLogCore

// Early journals: the journal of a new session whose store cannot be opened yet (the guarded
// launch path, `Navigator.restoringLatest(store:…)`), written without the store's LMDB
// environment and recovered by the store's next read-write open.
//
// Files: `<session>.session`, the session's description (JSON: the store's path, the session's id,
// label, app name, app version, build and creation time), and the run's segments
// `<session>.<token>.<segment>.rlj` in the format of every journal (JournalFormat.swift), run 1,
// seqs from 1. They are written in the store's `journal/new/` folder, or, when that cannot be
// written (a store whose files Data Protection closes before the first unlock), in the fallback
// folder (``LMDBEventLog/defaultEarlyJournalDirectory``). `journal/new/` is a folder of its own so
// that the recovery of ordinary journals, which needs their session in the store, never sees them.

/// What an early journal's `.session` file holds.
struct EarlyJournalDescription: Codable {
    var store: String
    var session: String
    var label: String
    var appName: String?
    var appVersion: String?
    var build: String?
    var createdAt: Int64

    var info: SessionInfo {
        SessionInfo(id: SessionID(session), label: label, appName: appName, appVersion: appVersion, createdAt: createdAt)
    }

    static let suffix = ".session"

    /// The path that names a store in a description: absolute, symbolic links resolved.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}

extension LMDBEventLog {
    /// Where an early journal goes when the store's own `journal/new/` folder cannot be written:
    /// on Apple platforms `RouteLog/early-journals` in the app's Application Support folder, made
    /// with Data Protection `none` so that it can be written before the first unlock after a
    /// reboot (it holds only the calls made before the store opened, and only until then);
    /// elsewhere `nil` (no Data Protection: the store's folder is the only place).
    public static var defaultEarlyJournalDirectory: String? {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return base.appendingPathComponent("RouteLog/early-journals").path
        #else
        return nil
        #endif
    }
}

extension LMDBEventLog: EarlyJournalingEventLog {
    /// Opens run 1's journal of the new session `session` of the store at `store` without opening
    /// the store (see ``/RouteLogCore/EarlyJournalingEventLog``): in `journal/new/` in the store's
    /// folder, else in `fallbackDirectory`. The next read-write open of the store (in this process
    /// or a later one) recovers it, creating the session when the store does not hold it.
    public static func beginEarlyRun(store: String, session: SessionInfo, _ run: RunStart,
                                     fallbackDirectory: String?) throws -> any EventJournal {
        let description = EarlyJournalDescription(store: EarlyJournalDescription.canonical(store), session: session.id.rawValue,
                                                  label: session.label, appName: session.appName, appVersion: run.appVersion ?? session.appVersion,
                                                  build: run.build, createdAt: session.createdAt)
        var failure: (any Error)?
        for (directory, unprotected) in [(earlyJournalFolder(ofStore: store), false)] + (fallbackDirectory.map { [($0, true)] } ?? []) {
            do {
                return try begin(description, in: directory, unprotected: unprotected)
            } catch {
                failure = failure ?? error
            }
        }
        throw failure ?? LMDBEventLogError.lockFailed(path: store, reason: "no folder for the early journal")
    }

    /// `journal/new/` in the store's folder.
    static func earlyJournalFolder(ofStore store: String) -> String {
        ((store as NSString).appendingPathComponent("journal") as NSString).appendingPathComponent("new")
    }

    private static func begin(_ description: EarlyJournalDescription, in directory: String, unprotected: Bool) throws -> JournalWriter {
        let fm = FileManager.default
        var attributes: [FileAttributeKey: Any] = [.posixPermissions: 0o700]
        #if canImport(Darwin) && !os(macOS)
        if unprotected { attributes[.protectionKey] = FileProtectionType.none }
        #endif
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: attributes)
        } catch {
            throw LMDBEventLogError.lockFailed(path: directory, reason: "cannot create the early journal's folder: \((error as NSError).localizedDescription)")
        }
        let path = (directory as NSString).appendingPathComponent(description.session + EarlyJournalDescription.suffix)
        let encoded = try JSONEncoder().encode(description)
        do {
            try encoded.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw LMDBEventLogError.lockFailed(path: path, reason: "cannot write the early journal's description: \((error as NSError).localizedDescription)")
        }
        do {
            return try JournalWriter(directory: directory, session: SessionID(description.session), run: 1, head: 0, early: (path, encoded))
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Creates the session `info` describes with its id, or returns the stored one (see
    /// ``/RouteLogCore/EarlyJournalingEventLog/createSession(withID:)``). Retention applies as after
    /// ``createSession(_:)``.
    public func createSession(withID info: SessionInfo) throws -> SessionInfo {
        try journals.adoptEarly(info, entries: [], run: nil)
        return try session(info.id)
    }
}

extension StoreJournals {
    /// Recovers the early journals of this store whose writers are gone (see EarlyJournals.swift),
    /// in the store's `journal/new/` folder and in `fallback`: before the ordinary journals, whose
    /// events of a run that began early come after the early journal's.
    func recoverEarly(fallback: String?) -> JournalRecovery {
        var report = JournalRecovery()
        let me = EarlyJournalDescription.canonical(context.path)
        for directory in [LMDBEventLog.earlyJournalFolder(ofStore: context.path)] + (fallback.map { [$0] } ?? []) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(EarlyJournalDescription.suffix) {
                let path = (directory as NSString).appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: path),
                      let description = try? JSONDecoder().decode(EarlyJournalDescription.self, from: data) else { continue }
                guard description.store == me else { continue }  // another store's, in the fallback folder
                let id = SessionID(description.session)
                let files = names.filter { $0.hasPrefix(id.rawValue + ".") && $0.hasSuffix(JournalWriter.suffix) }.sorted()
                    .map { (directory as NSString).appendingPathComponent($0) }
                guard let fds = JournalReader.lock(files, operation: LOCK_EX) else { report.skippedLive += 1; continue }
                defer { fds.forEach { close($0) } }
                let token = files.first.map { String((($0 as NSString).lastPathComponent).split(separator: ".")[1]) } ?? ""
                let contents = JournalReader.read(session: id, token: token, files: files)
                if let damage = contents.damage { report.problems.append("early journal of session \(id) is damaged: \(damage); recovered the events before it") }
                let end = StoreJournals.runEnd(contents.state, recovered: [], head: 0)
                do {
                    let moved = try adoptEarly(description.info, entries: contents.entries,
                                               run: RunInfo(number: 1, firstSeq: 1, startedAt: description.createdAt, appVersion: description.appVersion,
                                                            build: description.build, end: end))
                    if let moved {
                        report.recovered.append(.init(session: id, run: 1, count: UInt64(moved.count), firstSeq: moved.lowerBound,
                                                      lastSeq: moved.upperBound, journalBytes: contents.bytes, journalEntries: contents.entries.count))
                    }
                } catch {
                    report.problems.append("early journal of session \(id) not recovered yet (it stays for the next open): \(error)")
                    continue
                }
                for f in files.reversed() { unlink(f) }
                unlink(path)
            }
        }
        return report
    }

    /// In one transaction: creates `info`'s session with its id when the store does not hold it,
    /// appends the `entries` after the events it holds (they must continue them), and, when the
    /// session has no run yet, writes `run` (its end as given; a crash's count and last seq are
    /// filled in). Returns the seqs appended.
    @discardableResult
    func adoptEarly(_ info: SessionInfo, entries: [JournalEntry], run: RunInfo?) throws -> ClosedRange<UInt64>? {
        let writer = try context.requireWriter()
        let id = info.id
        let key = try context.sessionKey(id)
        try context.locks?.hold(id)
        defer { context.locks?.release(id) }
        var appended: ClosedRange<UInt64>?
        try writer.perform(weight: max(1, entries.count)) { [context] txn, heads in
            var head = try context.loadOrCreateHead(txn, info, key, heads)
            let stored = head.row.info.eventCount
            let missing = entries.filter { $0.seq > stored }
            if let first = missing.first, first.seq != stored + 1 {
                throw EventLogError.conflict(session: id, expected: first.seq - 1, actual: stored)
            }
            if !missing.isEmpty {
                let events = missing.map(\.recorded)
                _ = try context.appendRecords(txn, &head, events, bodies: StoredPayload.Bodies(events),
                                              id: id, key: key, collect: false)
                appended = (stored + 1)...(stored + UInt64(missing.count))
            }
            if var run {
                let prefix = RunRow.prefix(head.row.eventPrefix)
                var hasRuns = false
                try txn.forEach(in: context.databases.meta, from: prefix) { k, _ in
                    hasRuns = k.count == prefix.count + 4 && k.starts(with: prefix)
                    return false
                }
                if !hasRuns {
                    if case .crashed = run.end { run.end = .crashed(recovered: UInt64(missing.count), lastSeq: head.row.info.eventCount) }
                    try context.writeRuns([run], prefix: head.row.eventPrefix, txn)
                }
            }
            heads[id] = head
        }
        return appended
    }
}
