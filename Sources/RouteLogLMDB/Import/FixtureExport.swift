@_spi(Tools) import RouteLogCore

/// Exporting a session as a fixture, from any `EventLog`: what ``LMDBEventLog/exportFixture(session:name:description:)`` reads.
enum FixtureExport {
    /// `id`'s events with their metadata, its header and the expectation its stored outcomes,
    /// state and digest give.
    static func fixture(of id: SessionID, in log: some EventLog, name: String?, description: String) throws -> Fixture {
        let info = try log.session(id)
        var events: [RecordedEvent] = []
        var outcomes: [Outcome] = []
        events.reserveCapacity(Int(min(info.eventCount, 1 << 20)))
        var replayer = Replayer()
        try log.read(id, from: 1, through: info.eventCount) { event in
            events.append(event.recorded)
            outcomes.append(event.outcome)
            replayer.apply(event.event)
            return true
        }
        let header = Fixture.SessionHeader(label: info.label, app: info.appName, appVersion: info.appVersion, created: info.createdAt)
        return Fixture(name: name ?? (info.label.isEmpty ? id.rawValue : info.label), description: description, session: header,
                       events: events, expect: .init(outcomes: outcomes, state: replayer.state, digest: info.headDigest))
    }
}
