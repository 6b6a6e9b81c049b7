import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import Testing
import RouteLogTestSupport

/// `verify(session:reducer:)` replays with the reducer it is given: a changed rule is caught at the
/// first seq where it matters, with the replayed states around that event.
@Suite("LMDBEventLog verify with a changed reducer", .tags(.appleLocks))
struct VerifyReducerTests {
    let dir: TempDir
    let log: LMDBEventLog
    let session: SessionID
    let events: [Event] = [
        .push(RouteRef(id: "a")), .push(RouteRef(id: "b")), .push(RouteRef(id: "c")), .pop(count: 2), .push(RouteRef(id: "d")),
    ]

    init() throws {
        dir = try TempDir()
        log = try LMDBEventLog.open(at: dir.path, options: testOptions())
        session = try log.createSession(NewSession(label: "pops")).id
        try log.append(events.map { RecordedEvent($0) }, to: session, expectedSeq: 0)
    }

    @Test func aChangedStateIsADigestFailureWithTheStatesAroundIt() throws {
        defer { dir.cleanup() }
        #expect(try log.verify(session: session).isValid)
        // pop(count:) pops one route only.
        let report = try log.verify(session: session) { state, event, seq in
            if case .pop(let count, let frame) = event, count > 1 { return state.apply(.pop(count: 1, frame: frame), seq: seq) }
            return state.apply(event, seq: seq)
        }
        let f = try #require(report.failure)
        #expect(f.seq == 4 && f.check == .digest, "\(f)")
        #expect(report.eventsChecked == 3)
        #expect(f.event?.event == .pop(count: 2))
        #expect(f.storedOutcome == .applied(.changed) && f.replayedOutcome == .applied(.changed))
        let expected = replay(events.prefix(4))
        #expect(f.storedDigest == expected.state.digest && f.replayedDigest != f.storedDigest)
        #expect(f.stateBefore == replay(events.prefix(3)).state)
        #expect(f.replayedState?.root.path.map(\.id) == ["a", "b"])
        #expect(f.replayedDigest == f.replayedState?.digest)
    }

    @Test func aChangedOutcomeAloneIsAnOutcomeFailure() throws {
        defer { dir.cleanup() }
        // The same states, but the second push is reported as rejected.
        let report = try log.verify(session: session) { state, event, seq in
            let outcome = state.apply(event, seq: seq)
            return seq == 2 ? .rejected(.stale) : outcome
        }
        let f = try #require(report.failure)
        #expect(f.seq == 2 && f.check == .outcome, "\(f)")
        #expect(f.storedOutcome == .applied(.changed) && f.replayedOutcome == .rejected(.stale))
        #expect(f.storedDigest == f.replayedDigest)
        #expect(f.message == "stored outcome applied, replay gives rejected:stale")
    }
}
