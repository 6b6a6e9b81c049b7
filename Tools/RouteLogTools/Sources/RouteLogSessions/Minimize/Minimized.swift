import Foundation
@_spi(Tools) import RouteLogCore

/// A session minimized for a judge: the fixture of the 1-minimal failing event list, what `minimize`
/// writes (and the MCP server's `minimize` tool answers).
package struct Minimized {
    package let fixture: Fixture
    /// The first seq ≥ 1 the judge calls bad: the events after it are cut first.
    package let firstBad: UInt64
    /// The indices (from 0) in the session of the events kept.
    package let kept: [Int]
    /// How many candidate lists were judged.
    package let tests: Int

    package init(_ s: ResolvedSession, judge: Judge, name: String, noTimes: Bool) throws(RouteLogError) {
        let n = s.seqOrHead
        // The first seq ≥ 1 the judge calls bad, by one fold from the start (seq 0, before any
        // event, has nothing to minimize and is not judged).
        let search = try call { try Bisect.run(in: s.log, session: s.id, through: n, mode: .linear) { c in c.seq == 0 ? .good : try judge.judge(c) } }
        guard let firstBad = search.seq else {
            throw RouteLogError(.failed, "nothing to minimize: \(judge.summary) never says bad in \(s.name) seqs 1...\(n)")
        }
        let events = StableFixture.events(try call { try s.log.events(s.id, from: 1, through: firstBad) }.map(\.recorded), noTimes: noTimes)
        // The core's ddmin renumbers the tokens events name, so a kept swipe on the sheet created
        // by a kept event still names that sheet.
        let result: Minimize.Result<RecordedEvent>
        do {
            result = try Minimize.events(events) { candidate in try Minimizer.fails(candidate, judge) }
        } catch let e as MinimizeError {
            throw RouteLogError(.failed, "nothing to minimize: \(e)")
        } catch {
            throw RouteLogError.from(error)
        }
        let minimal = result.elements
        fixture = Fixture(
            name: name,
            description: "Minimized from \(s.portableName) with \(judge.portableSummary): \(minimal.count) of \(firstBad) events.",
            events: minimal, expect: Fixture.expectation(for: minimal)
        )
        self.firstBad = firstBad
        kept = result.indices
        tests = result.predicateCalls
    }

    /// What `minimize --json` prints, `file` being where the fixture was written.
    package func json(file: String) -> JSONValue {
        .object([
            "file": .string(file), "firstBadSeq": .int(Int64(firstBad)), "kept": .int(Int64(fixture.events.count)),
            "originalSeqs": .array(kept.map { .int(Int64($0 + 1)) }), "tests": .int(Int64(tests)),
            "events": .array(fixture.events.map(\.json)),
        ])
    }
}

/// The failure test `minimize` hands to the core's ``Minimize``.
package enum Minimizer {
    /// Whether replaying `events` ends in a failing state: the judge says bad after the last event.
    package static func fails(_ events: [Event], _ judge: Judge) throws -> Bool {
        guard !events.isEmpty else { return false }
        var r = Replayer()
        var last: ReplayStep?
        for e in events { last = r.apply(e) }
        let c = PredicateContext(seq: r.seq, state: r.state, event: events.last, outcome: last?.outcome)
        return try judge.judge(c) == .bad
    }
}
