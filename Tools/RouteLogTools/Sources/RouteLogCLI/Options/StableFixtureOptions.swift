import ArgumentParser
@_spi(Tools) import RouteLogCore

/// `--no-times` of `export` and `minimize`: a fixture that says nothing of when (no event times,
/// no creation time) or where (file sessions named by their file name, `--run` paths cut to their
/// last component) it was made, so regenerating it from the same events gives the same bytes.
struct StableFixtureOptions: ParsableArguments {
    @Flag(help: "Write no event times and no creation time, so the same events give the same bytes.") var noTimes = false

    func events(_ events: [RecordedEvent]) -> [RecordedEvent] { Self.events(events, noTimes: noTimes) }

    /// `events` without their times when `noTimes`.
    static func events(_ events: [RecordedEvent], noTimes: Bool) -> [RecordedEvent] {
        guard noTimes else { return events }
        return events.map { e in
            var e = e
            e.meta.timestamp = 0
            return e
        }
    }

    func header(_ header: Fixture.SessionHeader?) -> Fixture.SessionHeader? { Self.header(header, noTimes: noTimes) }

    /// `header` without its creation time when `noTimes`.
    static func header(_ header: Fixture.SessionHeader?, noTimes: Bool) -> Fixture.SessionHeader? {
        guard noTimes, var header else { return header }
        header.created = nil
        return header
    }
}
