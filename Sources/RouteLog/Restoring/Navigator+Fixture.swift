@_spi(Tools) import RouteLogCore

extension Navigator {
    /// A navigator on the screens a fixture's events end on: its events in an in-memory log,
    /// restored with today's routes and migrations (as an app's store would be; see
    /// ``restoreReport`` for what could not come back). For an Xcode preview of the screen a crash
    /// happened on (`RouteLogPreview` in RouteLogSwiftUI), or a test that starts from it.
    ///
    /// - Parameters:
    ///   - fixture: the fixture, e.g. one `routelog repro` wrote, or ``PreviousRun/fixture(name:)``.
    ///   - migrate: maps a recorded route to today's route, `nil` when it is gone; by default `Route.migrate`.
    /// - Throws: `EventLogError` when the fixture's events cannot be stored (they are replayed as recorded).
    public convenience init(fixture: Fixture, migrate: ((RecordedRoute) throws -> Route?)? = nil) throws {
        let log = InMemoryEventLog(clock: { 0 })
        let header = fixture.session
        let info = try log.createSession(NewSession(label: header?.label ?? fixture.name, appName: header?.app, appVersion: header?.appVersion))
        if !fixture.events.isEmpty { try log.append(fixture.events, to: info.id, expectedSeq: 0) }
        try self.init(log: log, restoring: info.id, migrate: migrate, clock: { 0 })
    }
}
