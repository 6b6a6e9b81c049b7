import Foundation
@_spi(Tools) import RouteLogCore

/// The launch before this one, as the store recorded it: how it ended (``/RouteLogCore/RunInfo/end``: crashed,
/// suspended, clean…), its last event, and the state the user saw then.
///
/// On the launch after a crash, a restored navigator's ``Navigator/previousRun`` tells the app
/// what was on screen when it died, and ``fixture(name:)`` gives the run as a fixture to attach to the
/// crash report (`routelog repro` writes the same fixture from the store, with a test).
public struct PreviousRun: Sendable {
    /// The session the run belongs to (the one the navigator restored).
    public let session: SessionInfo
    /// The run: its number, app version and build, first seq and how it ended.
    public let run: RunInfo
    /// The seq of the run's last event (its first seq minus one when it recorded none).
    public let lastSeq: UInt64
    /// The state after ``lastSeq``: what was on screen when the run ended.
    public let state: NavigationState
    let log: any EventLog

    /// Whether the run's process died while it was active.
    public var crashed: Bool {
        if case .crashed = run.end { return true }
        return false
    }

    /// What was on screen; its description is one line, the tabs separated by `; ` (see
    /// ``/RouteLogCore/ScreenLayout/description``):
    ///
    /// `[home*] inbox ▸ thread-42 ┃ sheet composer ▸ attachments; [search] root`
    ///
    /// Compare screens by this layout, not by digest: a fixture of the run renumbers its tokens.
    public var screens: ScreenLayout { ScreenLayout(state) }

    /// The run as a fixture (`routelog-fixture/1`): events that rebuild the state the run started
    /// from, the run's own events, and an expect block: the fixture `routelog repro` writes.
    public func fixture(name: String? = nil) throws -> Fixture {
        try Reproduction.fixture(of: run, lastSeq: lastSeq, session: session, in: log, name: name ?? "run-\(run.number)-\(run.end.name)")
    }

    /// ``fixture(name:)`` as the bytes of its file, to attach to a crash report.
    public func fixtureData(name: String? = nil) throws -> Data {
        Data(try fixture(name: name).rendered().utf8)
    }
}
