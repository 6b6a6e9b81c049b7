@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// The result of verifying one session.
package struct SessionVerificationReport {
    package struct Failure {
        package var seq: UInt64?
        /// For a stored session, the store's check (``VerificationFailure/Check``); for a file, `outcome`,
        /// `digest`, `state` (compared with its expect block) or `expect` (the block is missing or short).
        package var check: String
        package var message: String
        package var event: Event?
        package var diffTitle: String?
        package var before: NavigationState?
        package var after: NavigationState?
    }

    package var name: String
    package var events: UInt64
    package var failure: Failure?

    package var json: JSONValue {
        var o: [String: JSONValue] = ["session": .string(name), "events": .int(Int64(events)), "ok": .bool(failure == nil)]
        if let f = failure {
            o["seq"] = f.seq.map { .int(Int64($0)) } ?? .null
            o["check"] = .string(f.check)
            o["message"] = .string(f.message)
            o["event"] = f.event?.json ?? .null
            if let b = f.before, let a = f.after { o["changes"] = .array(StateDiff.between(b, a).changes.map(\.json)) }
        }
        return .object(o)
    }

}

extension SessionVerificationReport.Failure {
    /// The store's failure, with the replayed states around a digest or outcome failure.
    package init(_ f: VerificationFailure) {
        self.init(seq: f.seq, check: f.check.rawValue, message: f.message)
        guard let recorded = f.event, let before = f.stateBefore, let after = f.replayedState,
              let storedOutcome = f.storedOutcome, let outcome = f.replayedOutcome,
              let storedDigest = f.storedDigest, let digest = f.replayedDigest else { return }
        message = "recorded \(storedOutcome) with digest \(storedDigest.short), replayed \(outcome) with digest \(digest.short)"
        event = recorded.event
        // Recorded as rejected: the recorded state is the state before the event.
        diffTitle = storedOutcome.reason != nil
            ? "state diff at seq \(f.seq) (recorded → replayed)"
            : "state diff across seq \(f.seq) as replayed now"
        self.before = before
        self.after = after
    }
}
