import RouteLogCore

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
    public func exportFixture(session id: SessionID, name: String? = nil, description: String = "") throws -> Fixture {
        let info = try session(id)
        var events: [RecordedEvent] = []
        var outcomes: [Outcome] = []
        events.reserveCapacity(Int(min(info.eventCount, 1 << 20)))
        var replayer = Replayer()
        try read(id, from: 1, through: info.eventCount) { event in
            events.append(event.recorded)
            outcomes.append(event.outcome)
            replayer.apply(event.event)
            return true
        }
        let header = Fixture.SessionHeader(label: info.label, app: info.appName, appVersion: info.appVersion, created: info.createdAt)
        return Fixture(name: name ?? (info.label.isEmpty ? id.rawValue : info.label), description: description, session: header,
                       events: events, expect: .init(outcomes: outcomes, state: replayer.state, digest: info.headDigest))
    }

    /// Imports a fixture as a new session, keeping its session header (label, app, app version,
    /// creation time) and every event's metadata. The session and its events are written in one
    /// transaction: an import that fails (a full disk) or is killed midway leaves no session.
    ///
    /// - Parameter label: overrides the label from the fixture's header (or its name).
    /// - Returns: the new session.
    /// - Throws: ``LMDBEventLogError``, e.g. ``LMDBEventLogError/readOnly(path:)``.
    @discardableResult
    public func importFixture(_ fixture: Fixture, label: String? = nil) throws -> SessionInfo {
        let header = fixture.session
        let new = NewSession(label: label ?? header?.label ?? fixture.name, appName: header?.app, appVersion: header?.appVersion)
        return try createSession(new, createdAt: header?.created ?? options.clock(), imported: true, events: fixture.events)
    }

    /// Imports a fixture or export file as a new session in bounded memory: the file is read
    /// again and its events are written as they are read, in transactions of 32,768 events, the
    /// session's row in the last one. A failure or a kill midway leaves no session, as
    /// ``importFixture(_:label:)``: what was written is removed then, or at the store's next
    /// read-write open.
    ///
    /// - Parameters:
    ///   - path: the file, already checked by ``Fixture/scan(contentsOf:event:)``.
    ///   - checked: what that check returned; the file must still read the same (else
    ///     ``FixtureError`` says it changed, and nothing is written).
    ///   - label: overrides the label from the file's header (or its name).
    /// - Throws: ``FixtureError``, ``LMDBEventLogError``.
    @discardableResult
    public func importFixture(contentsOf path: String, checked: (header: Fixture, eventCount: Int), label: String? = nil) throws -> SessionInfo {
        try importFixture(contentsOf: path, checked: checked, label: label, transactionEvents: Self.importTransactionEvents)
    }

    func importFixture(contentsOf path: String, checked: (header: Fixture, eventCount: Int), label: String?,
                       transactionEvents: Int) throws -> SessionInfo {
        let header = checked.header.session
        let new = NewSession(label: label ?? header?.label ?? checked.header.name, appName: header?.app, appVersion: header?.appVersion)
        return try importSession(new, createdAt: header?.created ?? options.clock(), transactionEvents: transactionEvents) { write in
            var batch: [RecordedEvent] = []
            batch.reserveCapacity(Self.importBatch)
            var failure: (any Error)?
            let again = try Fixture.scan(contentsOf: path) { event in
                guard failure == nil else { return }
                batch.append(event)
                guard batch.count == Self.importBatch else { return }
                do { try write(batch) } catch { failure = error }
                batch.removeAll(keepingCapacity: true)
            }
            if let failure { throw failure }
            guard again.header == checked.header, again.eventCount == checked.eventCount else {
                throw FixtureError(file: path, problem: .unreadable("the file changed while it was imported; nothing was written"))
            }
            if !batch.isEmpty { try write(batch) }
        }
    }

    /// How many events an import reads before it hands them on to be written.
    static let importBatch = 4096
}
