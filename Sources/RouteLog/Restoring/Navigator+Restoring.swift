import Logging
@_spi(Tools) import RouteLogCore

// Opening a recorded session, beside Navigator.swift: restoring one session by id, and the newest
// session of a scene (or a new one). What a restore did is `RestoreReport` (RestoreReport.swift).

extension Navigator {
    /// Opens an existing session and restores its state (state restoration). New calls
    /// continue the session.
    ///
    /// Restoring never fails because a route no longer decodes. The recorded state (the one
    /// whose digest the log stored for the last event, even when an older reducer recorded it)
    /// goes through the migrations (``Routable/migrate(_:)``); what cannot be restored is
    /// dropped, cutting a stack at its first such route and a presentation with everything above
    /// it. When the result differs from what the log folds to, one `reset` event with origin
    /// `system` is appended, its note naming each dropped route. ``restoreReport`` says what
    /// happened.
    ///
    /// - Parameters:
    ///   - log: the log that holds the session.
    ///   - session: the session to restore; new calls are recorded to it.
    ///   - migrate: maps a recorded route to today's route, `nil` when it is gone; by default
    ///     `Route.migrate`.
    ///   - run: this launch's app version and build, recorded as the session's new run (see
    ///     ``/RouteLogCore/RunInfo``) when the log records runs.
    ///   - logger: receives rejected calls (debug) and recording failures (error).
    ///   - clock: milliseconds since 1970, stamped on each event's metadata.
    ///   - retryDelay: seconds between attempts to write to a failing log.
    ///   - historyWindow: recent events kept in memory for time travel (``defaultHistoryWindow``).
    /// - Throws: `EventLogError` (or the store's error) when the session cannot be read.
    public convenience init(log: any EventLog, restoring session: SessionID, migrate: ((RecordedRoute) throws -> Route?)? = nil,
                            run: RunStart = RunStart(),
                            logger: Logger = Logger(label: "RouteLog"),
                            clock: @escaping @Sendable () -> Int64 = Navigator.wallClock, retryDelay: Double = 1,
                            historyWindow: Int = Navigator.defaultHistoryWindow) throws {
        let info = try log.session(session)
        let plan = try RestorePlan.make(log: log, session: info, restorer: RouteRestorer<Route>(appVersion: info.appVersion, migrate: migrate))
        let journal = Recorder.beginRun(log: log, session: session, head: info.eventCount, run, logger: logger)
        self.init(log: log, session: session, state: plan.folded, headSeq: info.eventCount, logger: logger, clock: clock, retryDelay: retryDelay,
                  historyWindow: historyWindow, journal: journal)
        var report = plan.report
        if plan.needsReset {
            let result = record(.reset(plan.restored), origin: .system, note: report.reason, callSite: nil)
            report.resetSeq = result.seq
            if !report.isComplete || report.source != .folded {
                logger.notice("navigation restored partially: \(report.reason ?? "")", metadata: ["session": "\(session)"])
            }
        }
        restoreReport = report
    }

    /// Opens the newest session this scene wrote (see
    /// ``init(log:restoring:migrate:run:logger:clock:retryDelay:historyWindow:)``), otherwise starts
    /// `new`. This scene's sessions are those with `new`'s label and app name that an app wrote
    /// (never one that entered the log by `routelog import`): an app and its extensions sharing a
    /// store, each with its own label, never restore each other's sessions. The restored session
    /// continues with a new run of `new`'s app version and build.
    ///
    /// - Throws: what the log throws when it cannot be read or cannot create a session.
    public static func restoringLatest(log: any EventLog, orStarting new: NewSession = NewSession(),
                                       migrate: ((RecordedRoute) throws -> Route?)? = nil,
                                       logger: Logger = Logger(label: "RouteLog"),
                                       clock: @escaping @Sendable () -> Int64 = Navigator.wallClock,
                                       historyWindow: Int = Navigator.defaultHistoryWindow) throws -> Navigator {
        try restoringLatest(log: log, where: { $0.label == new.label && $0.appName == new.appName }, orStarting: new, migrate: migrate,
                            logger: logger, clock: clock, historyWindow: historyWindow)
    }

    /// Opens the newest session that `filter` accepts, that an app wrote (never an imported one)
    /// and that no live navigator is writing (another window of the app, in this process or
    /// another: it gets a session of its own), otherwise starts `new`; the restored session continues with a new run of `new`'s app
    /// version and build. "Newest" is the last to enter the log (``/RouteLogCore/SessionInfo/entryOrder``).
    ///
    /// - Throws: what the log throws when it cannot be read or cannot create a session.
    public static func restoringLatest(log: any EventLog, where filter: (SessionInfo) -> Bool, orStarting new: NewSession = NewSession(),
                                       migrate: ((RecordedRoute) throws -> Route?)? = nil,
                                       logger: Logger = Logger(label: "RouteLog"),
                                       clock: @escaping @Sendable () -> Int64 = Navigator.wallClock,
                                       historyWindow: Int = Navigator.defaultHistoryWindow) throws -> Navigator {
        // Never a session a live navigator (another window, in this process or another) writes.
        let journaling = log.journaling
        if let last = try log.sessions().last(where: { !$0.imported && filter($0) && journaling?.isBeingWritten($0.id) != true }) {
            return try Navigator(log: log, restoring: last.id, migrate: migrate, run: RunStart(appVersion: new.appVersion, build: new.build),
                                 logger: logger, clock: clock, historyWindow: historyWindow)
        }
        return try Navigator(log: log, session: new, logger: logger, clock: clock, historyWindow: historyWindow)
    }
}
