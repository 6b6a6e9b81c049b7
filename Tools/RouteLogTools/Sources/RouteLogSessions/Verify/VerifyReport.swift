@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// The result of verifying one session.
struct VerifyReport {
    struct Failure {
        var seq: UInt64?
        /// For a stored session, the store's check (``VerificationFailure/Check``); for a file, `outcome`,
        /// `digest`, `state` (compared with its expect block) or `expect` (the block is missing or short).
        var check: String
        var message: String
        var event: Event?
        var diffTitle: String?
        var before: NavigationState?
        var after: NavigationState?
    }

    var name: String
    var events: UInt64
    var failure: Failure?

    var json: JSONValue {
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

    func text(out: Output) -> [String] {
        guard let f = failure else { return ["\(out.paint("ok", .green))      \(name)  \(events) events"] }
        var lines = ["\(out.paint("FAILED", .boldRed))  \(name)" + (f.seq.map { " at seq \($0)" } ?? "") + ": \(f.check): \(f.message)"]
        if let e = f.event { lines.append("  event: \(Render.event(e))") }
        if let title = f.diffTitle, let b = f.before, let a = f.after {
            lines.append("  \(title):")
            if b == a {
                lines.append("    (no change)")
            } else {
                lines += Diffing.text(b, a, out: out).map { "  " + $0 }
            }
        }
        return lines
    }
}

extension VerifyReport.Failure {
    /// The store's failure, with the replayed states around a digest or outcome failure.
    init(_ f: VerificationFailure) {
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
