import Foundation
import Logging
@_spi(Tools) import RouteLogCore

/// What the crash-loop guard did when the previous launch crashed while opening or restoring.
public struct StoreRecovery: Hashable, Sendable, CustomStringConvertible {
    /// The store's path.
    public var store: String
    /// Where the store was moved, whole (a store `routelog --store` reads, `verify`s and
    /// `export`s).
    public var movedTo: String
    /// How many launches in a row died while opening or restoring it.
    public var deaths: Int

    @_spi(Tools) public init(store: String, movedTo: String, deaths: Int) {
        self.store = store
        self.movedTo = movedTo
        self.deaths = deaths
    }

    /// One line for logs and ``Navigator/recordingError``.
    public var description: String {
        "the last \(deaths) launches crashed while opening the store \(store); it was moved to \(movedTo) (routelog --store \(movedTo) reads it) and a fresh store was started"
    }
}

/// The crash-loop guard could not write its marker next to the store (a full disk, a folder it
/// may not write): the open goes on without the guard's protection only through
/// `Navigator.restoringLatest(store:open:)`, which then works from memory until the store opens.
public struct CrashLoopGuardError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write the crash-loop marker \(path): \(reason)" }
}

/// Keeps an app from crash-looping on a damaged store, without taking the user's history away
/// for a single death.
///
/// LMDB 0.9 trusts its pages, so a damaged `data.mdb` can crash the process inside the open or the
/// first read (state restoration), on every launch. ``run(store:logger:_:)`` writes a marker before
/// its body (the open and the restore) and removes it when the body returns or throws. A marker
/// left by a process that is no longer alive means that process died inside the body. One such
/// death proves little: the user swiped the app away during a slow launch, the launch watchdog or
/// jetsam ended it. So the deaths are counted, and only after ``deathsBeforeMovingAside`` launches
/// in a row died there (a loop the user cannot leave) is the store moved aside, whole, to
/// `STORE.damaged-N` and the body opens a fresh one; a launch whose body returns resets the count.
///
/// Markers live next to the store, in `STORE.opening/`, one per open (`PID-N`, holding the process
/// start time), so several processes (an app and its extensions) can open one store at once: a
/// marker whose process is still alive is an open in progress, not a crash. The check and the move
/// happen under an advisory lock (`STORE.opening/lock`).
public enum CrashLoopGuard {
    /// Consecutive deaths during the open and restore before the store is moved aside: 3. One is
    /// a kill as likely as a damaged store; two can still be the launch watchdog on a slow device
    /// after an update; three launches in a row dying at the same step is a loop, which iOS itself
    /// would otherwise end only by the user deleting the app.
    public static let deathsBeforeMovingAside = 3

    /// Runs `body` (open the store at `store`, restore from it) under a crash marker.
    ///
    /// - Returns: the body's value, and what was recovered when the previous open crashed (also
    ///   logged at `error` level on `logger`).
    public static func run<R>(store: String, logger: Logger = Logger(label: "RouteLog"),
                              _ body: () throws -> R) throws -> (value: R, recovery: StoreRecovery?) {
        let markers = store + ".opening"
        do {
            try FileManager.default.createDirectory(atPath: markers, withIntermediateDirectories: true)
        } catch {
            throw CrashLoopGuardError(path: markers, reason: (error as NSError).localizedFailureReason ?? "cannot create the folder")
        }
        let mine = markers + "/\(getpid())-\(nextOpen())"
        let deathsFile = markers + "/deaths"
        let recovery = try withLock(markers) { () throws -> StoreRecovery? in
            var died = 0
            for name in (try? FileManager.default.contentsOfDirectory(atPath: markers)) ?? [] where name != "lock" && name != "deaths" {
                let path = markers + "/" + name
                guard let pid = Int32(name.split(separator: "-").first ?? "") else { continue }
                let started = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { UInt64($0) }
                if !isAlive(pid, started: started) {
                    died += 1
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
            var deaths = (try? String(contentsOfFile: deathsFile, encoding: .utf8)).flatMap { Int($0) } ?? 0
            var recovery: StoreRecovery?
            if died > 0 {
                deaths += 1
                if deaths >= deathsBeforeMovingAside && FileManager.default.fileExists(atPath: store) {
                    var n = 1
                    while FileManager.default.fileExists(atPath: "\(store).damaged-\(n)") { n += 1 }
                    try FileManager.default.moveItem(atPath: store, toPath: "\(store).damaged-\(n)")
                    recovery = StoreRecovery(store: store, movedTo: "\(store).damaged-\(n)", deaths: deaths)
                    deaths = 0
                } else {
                    logger.warning("the previous launch died while opening the store (\(deaths) in a row; the store is moved aside after \(deathsBeforeMovingAside))",
                                   metadata: ["store": "\(store)"])
                }
                try? Data(String(deaths).utf8).write(to: URL(fileURLWithPath: deathsFile))
            }
            let started = Array((processStartTime(getpid()).map(String.init) ?? "").utf8)
            let fd = open(mine, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0, started.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == started.count else {
                let reason = String(cString: strerror(errno))
                if fd >= 0 { close(fd); unlink(mine) }
                throw CrashLoopGuardError(path: mine, reason: reason)
            }
            close(fd)
            return recovery
        }
        defer { try? FileManager.default.removeItem(atPath: mine) }
        if let recovery { logger.error("\(recovery.description)", metadata: ["store": "\(store)"]) }
        let value = try body()
        // A launch that got through ends the run of deaths.
        if FileManager.default.fileExists(atPath: deathsFile) {
            _ = try? withLock(markers) { try? FileManager.default.removeItem(atPath: deathsFile) }
        }
        return (value, recovery)
    }

    private static let counter = OpenCounter()

    private static func nextOpen() -> Int { counter.next() }

    /// Whether `pid` is alive and (when the marker recorded it) is the process that wrote the marker.
    static func isAlive(_ pid: Int32, started: UInt64?) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        if let started, let now = processStartTime(pid), now != started { return false }  // the pid was reused
        return true
    }

    /// The start time of a process, to tell it from a later process with the same pid; `nil`
    /// where unknown. Linux: field 22 of `/proc/PID/stat`. Apple platforms: `sysctl`'s
    /// `KERN_PROC_PID` (inside an iOS sandbox, other processes may be unknown: then only `kill`'s
    /// answer decides whether the marker's process is alive).
    static func processStartTime(_ pid: Int32) -> UInt64? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, so start time (22) is the 20th from here.
        return fields.count > 19 ? UInt64(fields[19]) : nil
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var mib: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&mib, UInt32(mib.count), &info, &size, nil, 0) == 0, size > 0 else { return nil }
        let started = info.kp_proc.p_un.__p_starttime
        return UInt64(started.tv_sec) &* 1_000_000 &+ UInt64(started.tv_usec)
        #else
        return nil
        #endif
    }

    private static func withLock<R>(_ markers: String, _ body: () throws -> R) throws -> R {
        let fd = open(markers + "/lock", O_RDWR | O_CREAT, 0o600)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

private final class OpenCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func next() -> Int { lock.withLock { n += 1; return n } }
}

extension Navigator {
    /// Opens the store at `store` with `open` and restores its latest session (or starts `new`),
    /// under the ``CrashLoopGuard``: when launches keep crashing doing this, the store is moved
    /// aside and a fresh one started, which is logged and reported in ``recordingError``.
    ///
    /// A store that cannot be opened or read (before the first unlock after a reboot, a busy
    /// store, a full disk, a damaged file) never fails the launch and is never replaced by memory
    /// in silence: the navigator starts a new session, ``recordingError`` says why in one line,
    /// and every call since launch is written into the store once it opens (the recorder tries
    /// again every `retryDelay` seconds). With a log that keeps early journals
    /// (``/RouteLogCore/EarlyJournalingEventLog``, such as `LMDBEventLog`) each of those calls is
    /// also in a journal before it returns, from the first one: in the store's `journal/new/`
    /// folder, or, when that cannot be written, in `earlyJournalDirectory` (`nil`: the log's
    /// default, on Apple platforms a folder of the app's Application Support without Data
    /// Protection). Once the store opens in this process, the session is created there with the
    /// same id, its run begins, and the journal moves to the store's; after a crash or a kill, the
    /// next read-write open of the store creates the session from the journal and records the
    /// run's end. Nothing that was called is lost on this path either.
    ///
    /// The session is restored as ``restoringLatest(log:orStarting:migrate:logger:clock:historyWindow:)``
    /// restores it: the routes an older version of the app recorded go through `migrate` (by
    /// default `Route.migrate`), what cannot come back is dropped, and ``restoreReport`` says what
    /// was migrated and dropped. A session started while the store could not be opened is new, so
    /// nothing is migrated then.
    ///
    /// It never throws: a navigator comes back whatever the store's state.
    ///
    /// ```swift
    /// let navigator = Navigator<AppRoute>.restoringLatest(store: dir) { try LMDBEventLog.open(at: $0) }
    /// ```
    ///
    /// - Parameters:
    ///   - store: the store's folder, handed to `open`.
    ///   - new: the session to start when there is none to restore (its label and app name also
    ///     pick the session that is restored).
    ///   - migrate: maps a recorded route to today's route, `nil` when it is gone; by default
    ///     `Route.migrate`.
    ///   - logger: where the guard and the recorder log what they do.
    ///   - clock: milliseconds since 1970, for the events' and the session's times.
    ///   - retryDelay: seconds between attempts to open a store that could not be opened.
    ///   - earlyJournalDirectory: where early journals go when the store's folder cannot be
    ///     written (`nil`: the log's default).
    ///   - open: opens the log at `store`; called under the crash-loop guard.
    public static func restoringLatest<Log: EarlyJournalingEventLog>(store: String, orStarting new: NewSession = NewSession(),
                                                                      migrate: ((RecordedRoute) throws -> Route?)? = nil,
                                                                      logger: Logger = Logger(label: "RouteLog"),
                                                                      clock: @escaping @Sendable () -> Int64 = Navigator.wallClock,
                                                                      retryDelay: Double = 1,
                                                                      earlyJournalDirectory: String? = nil,
                                                                      open: @escaping @Sendable (String) throws -> Log) -> Navigator {
        let fallback = earlyJournalDirectory ?? Log.defaultEarlyJournalDirectory
        return restoringLatest(store: store, orStarting: new, migrate: migrate, logger: logger, clock: clock, retryDelay: retryDelay,
                               early: { info, run in try Log.beginEarlyRun(store: store, session: info, run, fallbackDirectory: fallback) },
                               open: { try open($0) })
    }

    /// Opens the store at `store` with `open` and restores its latest session (or starts `new`),
    /// under the ``CrashLoopGuard``, as the other `restoringLatest(store:…)` does (with the same
    /// `migrate`), for a log type that keeps no early journal: until such a store opens, calls are
    /// in memory only.
    @_disfavoredOverload
    public static func restoringLatest(store: String, orStarting new: NewSession = NewSession(),
                                       migrate: ((RecordedRoute) throws -> Route?)? = nil,
                                       logger: Logger = Logger(label: "RouteLog"),
                                       clock: @escaping @Sendable () -> Int64 = Navigator.wallClock,
                                       retryDelay: Double = 1,
                                       open: @escaping @Sendable (String) throws -> any EventLog) -> Navigator {
        restoringLatest(store: store, orStarting: new, migrate: migrate, logger: logger, clock: clock, retryDelay: retryDelay,
                        early: nil, open: open)
    }

    private static func restoringLatest(store: String, orStarting new: NewSession, migrate: ((RecordedRoute) throws -> Route?)?,
                                        logger: Logger, clock: @escaping @Sendable () -> Int64, retryDelay: Double,
                                        early: ((SessionInfo, RunStart) throws -> any EventJournal)?,
                                        open: @escaping @Sendable (String) throws -> any EventLog) -> Navigator {
        do {
            let (navigator, recovery) = try CrashLoopGuard.run(store: store, logger: logger) {
                try Navigator.restoringLatest(log: try open(store), orStarting: new, migrate: migrate, logger: logger, clock: clock)
            }
            if let recovery { navigator.report(recovery) }
            return navigator
        } catch {
            logger.error("the store \(store) cannot be opened now; navigation is kept in memory and recorded once it opens: \(error)",
                         metadata: ["store": "\(store)"])
            let owner = WeakBox<Navigator>()
            let pending = PendingLog(opening: { try open(store) }, new: new, firstError: error, clock: clock,
                                     log: { [logger] in logger.error("\($0)", metadata: ["store": "\(store)"]) }) {
                Task { @MainActor in owner.value?.storeOpened() }
            }
            if let early {
                do {
                    pending.journal = SwitchingJournal(early: try early(pending.placeholder, RunStart(appVersion: new.appVersion, build: new.build)))
                } catch {
                    logger.error("no crash-safe journal until the store opens; calls until then are in memory only: \(error)",
                                 metadata: ["store": "\(store)"])
                }
            }
            // The pending log's session exists at once (the store's is created when it opens).
            let navigator = Navigator(log: pending, session: pending.session, state: NavigationState(), headSeq: 0, logger: logger,
                                      clock: clock, retryDelay: retryDelay, historyWindow: Navigator.defaultHistoryWindow,
                                      journal: pending.journal)
            owner.value = navigator
            navigator.reportUnavailableStore(store, error)
            return navigator
        }
    }
}

/// The navigator a pending log tells when its store opened (set once the navigator exists).
private final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
}
