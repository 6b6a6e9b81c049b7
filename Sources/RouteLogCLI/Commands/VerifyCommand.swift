import ArgumentParser
import RouteLogCore
import RouteLogLMDB

/// `routelog verify`: checksums, chain, and digests replayed with the current reducer.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check sessions: checksums, chain, and digests replayed with the current reducer.",
        discussion: """
        For a session in the store, checks every record's checksum and the hash chain, then replays \
        the events with the current reducer and compares each stored outcome and digest. For a \
        fixture file, compares the replay with its expect block. Names the first failing seq and \
        what failed; when digests diverge it prints the state diff there, which is how a changed \
        reducer rule shows up. Exit status: 1 when any session fails.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "Sessions to verify.") var sessions: [String] = []
    @Flag(help: "Verify every session in the store.") var all = false
    @Flag(help: "Print one JSON object per session.") var json = false

    func validate() throws {
        if all && !sessions.isEmpty { throw ValidationError("give SESSION… or --all, not both") }
        if !all && sessions.isEmpty { throw ValidationError("give SESSION… or --all") }
    }

    func run() throws { try run(reducer: Verifier.currentReducer) }

    /// Verifies the sessions, replaying with `reducer`: the current reducer, or in tests one with a
    /// rule changed, to show that `verify` catches a reducer change and names the right seq.
    func run(reducer: Verifier.Reducer) throws {
        let ws = store.workspace()
        let targets = try ws.resolve(sessions, all: all)
        let out = Output.stdout()
        var failed = 0
        for s in targets {
            let report = try Verifier.verify(s, reducer: reducer)
            if report.failure != nil { failed += 1 }
            if json {
                out.line(report.json.canonicalText)
            } else {
                for line in report.text(out: out) { out.line(line) }
            }
        }
        if !json && targets.count > 1 { out.line("\(targets.count - failed) ok, \(failed) failed") }
        out.flush()
        if failed > 0 { throw CommandResult.different }
    }
}

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

/// Verifies a stored session with the store's own verification, or a file against its expect block.
enum Verifier {
    /// Applies one event (with its seq) to a state and returns the outcome.
    typealias Reducer = (inout NavigationState, Event, UInt64) -> Outcome

    /// The current reducer.
    static func currentReducer(_ state: inout NavigationState, _ event: Event, _ seq: UInt64) -> Outcome {
        state.apply(event, seq: seq)
    }

    static func verify(_ s: ResolvedSession, reducer: Reducer) throws -> VerifyReport {
        var report = VerifyReport(name: s.name, events: s.info.eventCount)
        let log: LMDBEventLog
        switch s.source {
        case .file(let file):
            report.failure = verifyDocument(file.document, reducer: reducer)
            return report
        case .store(let store):
            log = store
        }
        // The store checks checksums, the hash chain, and each stored outcome and digest against
        // one replay with `reducer`.
        let result = try call { try log.verify(session: s.id, reducer: reducer) }
        report.failure = result.failure.map(VerifyReport.Failure.init)
        return report
    }

    /// A file has no stored digests per event: compare the replay with its expect block.
    static func verifyDocument(_ doc: Fixture, reducer: Reducer) -> VerifyReport.Failure? {
        guard let expect = doc.expect else {
            return VerifyReport.Failure(seq: nil, check: "expect", message: "the file has no expect block (record one with routelog fixtures record)")
        }
        var state = NavigationState()
        let outcomes = expect.outcomes ?? []
        for (i, e) in doc.events.enumerated() {
            let before = state
            let outcome = reducer(&state, e.event, UInt64(i + 1))
            if i < outcomes.count, outcome != outcomes[i] {
                var f = VerifyReport.Failure(seq: UInt64(i + 1), check: VerificationFailure.Check.outcome.rawValue,
                                             message: "expected \(outcomes[i]), replayed \(outcome)", event: e.event)
                f.diffTitle = "state diff across seq \(i + 1) as replayed now"
                f.before = before
                f.after = state
                return f
            }
        }
        if let o = expect.outcomes, o.count != doc.events.count {
            return VerifyReport.Failure(seq: nil, check: "expect", message: "expect has \(o.count) outcomes for \(doc.events.count) events")
        }
        if let expected = expect.state, expected != state {
            var f = VerifyReport.Failure(seq: UInt64(doc.events.count), check: "state", message: "the final state differs from the expected one")
            f.diffTitle = "final state (expected → replayed)"
            f.before = expected
            f.after = state
            return f
        }
        if let digest = expect.digest, digest != state.digest {
            return VerifyReport.Failure(seq: UInt64(doc.events.count), check: VerificationFailure.Check.digest.rawValue,
                                        message: "expected digest \(digest.short), replayed \(state.digest.short)")
        }
        return nil
    }
}
