@_spi(Tools) import RouteLogCore

extension ResolvedSession {
    /// The fixture `export` writes of this session (and the MCP server's `export` tool answers): its events
    /// (payloads redacted, ids hashed, times dropped as asked) with an expect block replayed with
    /// the current reducer. `name` defaults to a file's own name, else the session's label or id.
    package func fixture(name: String?, redact: Bool, redactIDs: Bool, noTimes: Bool) throws(RouteLogError) -> Fixture {
        let s = self
        try s.requireEvents()
        var events = StableFixture.events(try call { try s.log.events(s.id, from: 1, through: s.seqOrHead) }.map(\.recorded), noTimes: noTimes)
        let redactor = Redactor(ids: redactIDs)
        if redact || redactIDs { events = events.map(redactor.redact) }
        let app = s.info.app
        let name = name ?? s.document?.name ?? (s.info.label.isEmpty ? s.id.rawValue : s.info.label)
        // With --no-times the description names the session by its label, not by its id: a new
        // recording of the same events gets a new id, and the file must come out the same.
        let source = !noTimes ? "session \(s.id.rawValue)" : s.info.label.isEmpty ? "a session" : "session '\(s.info.label)'"
        var description = s.document?.description ?? "Exported from \(source)" + (app == "-" ? "" : " (\(app))") + "."
        if redact || redactIDs { description += " Payloads redacted." }
        if redactIDs { description += " Route and tab ids hashed." }
        let header = StableFixture.header(s.document?.session ?? (s.document == nil
            ? Fixture.SessionHeader(label: s.info.label, app: s.info.appName, appVersion: s.info.appVersion, created: s.info.createdAt)
            : nil), noTimes: noTimes)
        return Fixture(name: name, description: description, session: header, events: events, expect: Fixture.expectation(for: events))
    }
}

/// `--no-times` of `export` and `minimize`: a fixture that says nothing of when (no event times,
/// no creation time) it was made, so regenerating it from the same events gives the same bytes.
package enum StableFixture {
    /// `events` without their times when `noTimes`.
    package static func events(_ events: [RecordedEvent], noTimes: Bool) -> [RecordedEvent] {
        guard noTimes else { return events }
        return events.map { e in
            var e = e
            e.meta.timestamp = 0
            return e
        }
    }

    /// `header` without its creation time when `noTimes`.
    package static func header(_ header: Fixture.SessionHeader?, noTimes: Bool) -> Fixture.SessionHeader? {
        guard noTimes, var header else { return header }
        header.created = nil
        return header
    }
}

extension SessionInfo {
    /// The app that recorded the session, as `sessions` shows it: `Podcasts/2.1`, `Podcasts`,
    /// `/2.1`, or `-` when unknown.
    package var app: String {
        switch (appName, appVersion) {
        case (let n?, let v?): "\(n)/\(v)"
        case (let n?, nil): n
        case (nil, let v?): "/\(v)"
        default: "-"
        }
    }
}
