@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// Verifies a stored session with the store's own verification, or a file against its expect block.
package enum SessionVerifier {
    /// The current reducer.
    package static func currentReducer(_ state: inout NavigationState, _ event: Event, _ seq: UInt64) -> Outcome {
        state.apply(event, seq: seq)
    }

    package static func verify(_ s: ResolvedSession, reducer: NavigationState.Reducer) throws -> SessionVerificationReport {
        var report = SessionVerificationReport(name: s.name, events: s.info.eventCount)
        let log: LMDBEventLog
        switch s.source {
        case .file(let file):
            report.failure = verifyDocument(file.document, reducer: reducer)
            return report
        case .fileStream(let file):
            // A file has no stored digests: the replay of all its events is compared at once.
            report.failure = verifyDocument(try Fixture.load(file.path), reducer: reducer)
            return report
        case .store(let store):
            log = store
        }
        // The store checks checksums, the hash chain, and each stored outcome and digest against
        // one replay with `reducer`.
        let result = try call { try log.verify(session: s.id, reducer: reducer) }
        report.failure = result.failure.map(SessionVerificationReport.Failure.init)
        return report
    }

    /// A file has no stored digests per event: compare the replay with its expect block.
    package static func verifyDocument(_ doc: Fixture, reducer: NavigationState.Reducer) -> SessionVerificationReport.Failure? {
        guard let expect = doc.expect else {
            return SessionVerificationReport.Failure(seq: nil, check: "expect", message: "the file has no expect block (record one with routelog fixtures record)")
        }
        var state = NavigationState()
        let outcomes = expect.outcomes ?? []
        for (i, e) in doc.events.enumerated() {
            let before = state
            let outcome = reducer(&state, e.event, UInt64(i + 1))
            if i < outcomes.count, outcome != outcomes[i] {
                var f = SessionVerificationReport.Failure(seq: UInt64(i + 1), check: VerificationFailure.Check.outcome.rawValue,
                                             message: "expected \(outcomes[i]), replayed \(outcome)", event: e.event)
                f.diffTitle = "state diff across seq \(i + 1) as replayed now"
                f.before = before
                f.after = state
                return f
            }
        }
        if let o = expect.outcomes, o.count != doc.events.count {
            return SessionVerificationReport.Failure(seq: nil, check: "expect", message: "expect has \(o.count) outcomes for \(doc.events.count) events")
        }
        if let expected = expect.state, expected != state {
            var f = SessionVerificationReport.Failure(seq: UInt64(doc.events.count), check: "state", message: "the final state differs from the expected one")
            f.diffTitle = "final state (expected → replayed)"
            f.before = expected
            f.after = state
            return f
        }
        if let digest = expect.digest, digest != state.digest {
            return SessionVerificationReport.Failure(seq: UInt64(doc.events.count), check: VerificationFailure.Check.digest.rawValue,
                                        message: "expected digest \(digest.short), replayed \(state.digest.short)")
        }
        return nil
    }
}
