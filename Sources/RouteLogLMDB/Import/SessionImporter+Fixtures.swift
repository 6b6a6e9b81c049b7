@_spi(Tools) import RouteLogCore

// Importing fixtures: one in memory, or a fixture file read again and streamed in batches.

extension SessionImporter {
    /// Imports `fixture` as a new session, in one transaction (see
    /// ``LMDBEventLog/importFixture(_:label:)``).
    func importFixture(_ fixture: Fixture, label: String?) throws -> SessionInfo {
        let header = fixture.session
        let new = NewSession(label: label ?? header?.label ?? fixture.name, appName: header?.app, appVersion: header?.appVersion)
        return try createImportedSession(new, createdAt: header?.created ?? context.options.clock(), events: fixture.events)
    }

    /// Imports the checked fixture file at `path` in transactions of `transactionEvents` events (see
    /// ``LMDBEventLog/importFixture(contentsOf:checked:label:progress:)``).
    func importFixture(contentsOf path: String, checked: (header: Fixture, eventCount: Int), label: String?,
                       transactionEvents: Int, progress: (Int) -> Void = { _ in }) throws -> SessionInfo {
        let header = checked.header.session
        let new = NewSession(label: label ?? header?.label ?? checked.header.name, appName: header?.app, appVersion: header?.appVersion)
        return try importSession(new, createdAt: header?.created ?? context.options.clock(), transactionEvents: transactionEvents) { write in
            var batch: [RecordedEvent] = []
            batch.reserveCapacity(Self.importBatch)
            var failure: (any Error)?
            var written = 0
            let again = try Fixture.scan(contentsOf: path) { event in
                guard failure == nil else { return }
                batch.append(event)
                guard batch.count == Self.importBatch else { return }
                do { try write(batch) } catch { failure = error }
                written += batch.count
                progress(written)
                batch.removeAll(keepingCapacity: true)
            }
            if let failure { throw failure }
            guard again.header == checked.header, again.eventCount == checked.eventCount else {
                throw FixtureError(file: path, problem: .unreadable("the file changed while it was imported; nothing was written"))
            }
            if !batch.isEmpty { try write(batch) }
            progress(written + batch.count)
        }
    }

    /// How many events an import reads before it hands them on to be written.
    static let importBatch = 4096
}
