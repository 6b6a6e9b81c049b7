@_spi(Tools) import RouteLogCore

// Exporting and importing fixtures: forwarded to ``FixtureExport`` and ``SessionImporter``.

extension LMDBEventLog {
    /// Exports a session as a fixture: its events with their metadata, a session header (label,
    /// app, app version, creation time) and an expectation recorded from the log (every stored
    /// outcome, the state after the last event and its digest).
    ///
    /// - Parameters:
    ///   - session: the session to export.
    ///   - name: the fixture's name; the session's label (or id, when the label is empty) by default.
    ///   - description: what the fixture shows.
    /// - Throws: `EventLogError.sessionNotFound`, ``LMDBEventLogError``.
    @_spi(Tools) public func exportFixture(session id: SessionID, name: String? = nil, description: String = "") throws -> Fixture {
        try FixtureExport.fixture(of: id, in: self, name: name, description: description)
    }

    /// Imports a fixture as a new session, keeping its session header (label, app, app version,
    /// creation time) and every event's metadata. The session and its events are written in one
    /// transaction: an import that fails (a full disk) or is killed midway leaves no session.
    ///
    /// - Parameter label: overrides the label from the fixture's header (or its name).
    /// - Returns: the new session.
    /// - Throws: ``LMDBEventLogError``, e.g. ``LMDBEventLogError/readOnly(path:)``.
    @discardableResult
    @_spi(Tools) public func importFixture(_ fixture: Fixture, label: String? = nil) throws -> SessionInfo {
        try importer.importFixture(fixture, label: label)
    }

    /// Begins an import of fixture or export files whose sessions enter the store together, each
    /// file read once (see ``FixtureImport``).
    ///
    /// - Throws: ``LMDBEventLogError/readOnly(path:)`` for a read-only log.
    @_spi(Tools) public func beginImport() throws -> FixtureImport {
        _ = try context.requireWriter()
        return FixtureImport(self)
    }

    /// Imports a fixture or export file as a new session in bounded memory: the file is read
    /// again and its events are written as they are read, in transactions of 32,768 events, the
    /// session's row in the last one. A failure or a kill midway leaves no session, as
    /// ``importFixture(_:label:)``: what was written is removed then, or at the store's next
    /// read-write open.
    ///
    /// - Parameters:
    ///   - path: the file, already checked by ``Fixture/scan(contentsOf:event:bytesRead:)``.
    ///   - checked: what that check returned; the file must still read the same (else
    ///     ``FixtureError`` says it changed, and nothing is written).
    ///   - label: overrides the label from the file's header (or its name).
    ///   - progress: called with the number of events handed to the store so far, after each batch.
    /// - Throws: ``FixtureError``, ``LMDBEventLogError``.
    @discardableResult
    @_spi(Tools) public func importFixture(contentsOf path: String, checked: (header: Fixture, eventCount: Int), label: String? = nil,
                              progress: (Int) -> Void = { _ in }) throws -> SessionInfo {
        try importer.importFixture(contentsOf: path, checked: checked, label: label, transactionEvents: SessionImporter.importTransactionEvents,
                                   progress: progress)
    }
}
