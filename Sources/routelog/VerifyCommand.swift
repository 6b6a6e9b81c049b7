import ArgumentParser
import RouteLogCore

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

    func run() throws {
        let mutation = try ReducerMutation.fromEnvironment()
        let ws = store.workspace()
        var targets: [ResolvedSession] = []
        if all {
            let log = try ws.store()
            for info in try call({ try log.sessions() }) {
                targets.append(ResolvedSession(log: log, id: info.id, info: info, name: info.id.rawValue, document: nil, seq: nil))
            }
        } else {
            for text in sessions { targets.append(try ws.resolve(try parseRef(text))) }
        }
        let out = Output.stdout()
        var failed = 0
        for s in targets {
            let report = try Verifier.verify(s, mutation: mutation)
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
        /// `checksum`, `chain`, `digest`, `outcome` or `expect`.
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

enum Verifier {
    static func verify(_ s: ResolvedSession, mutation: ReducerMutation?) throws -> VerifyReport {
        var report = VerifyReport(name: s.name, events: s.info.eventCount)
        if let doc = s.document {
            report.failure = verifyDocument(doc, mutation: mutation)
            return report
        }
        if let integrity = try StoreAccess.verifyIntegrity(s) {
            report.failure = integrity
            return report
        }
        var r = VerifyReplayer(mutation: mutation)
        var failure: VerifyReport.Failure?
        try call {
            try s.log.read(s.id, from: 1, through: s.info.eventCount) { e in
                let before = r.state
                let outcome = r.apply(e.event)
                let digest = r.state.digest
                guard digest != e.digest || outcome != e.outcome else { return true }
                var f = VerifyReport.Failure(seq: e.seq, check: digest != e.digest ? "digest" : "outcome", message: "", event: e.event)
                f.message = "recorded \(e.outcome) with digest \(e.digest.short), replayed \(outcome) with digest \(digest.short)"
                if e.outcome.reason != nil {
                    // Recorded as rejected: the recorded state is the state before the event.
                    f.diffTitle = "state diff at seq \(e.seq) (recorded → replayed)"
                    f.before = before
                    f.after = r.state
                } else {
                    f.diffTitle = "state diff across seq \(e.seq) as replayed now"
                    f.before = before
                    f.after = r.state
                }
                failure = f
                return false
            }
        }
        report.failure = failure
        return report
    }

    /// A file has no stored digests per event: compare the replay with its expect block.
    static func verifyDocument(_ doc: Fixture, mutation: ReducerMutation?) -> VerifyReport.Failure? {
        guard let expect = doc.expect else {
            return VerifyReport.Failure(seq: nil, check: "expect", message: "the file has no expect block (record one with routelog fixtures record)")
        }
        var r = VerifyReplayer(mutation: mutation)
        let outcomes = expect.outcomes ?? []
        for (i, e) in doc.events.enumerated() {
            let before = r.state
            let outcome = r.apply(e.event)
            if i < outcomes.count, outcome != outcomes[i] {
                var f = VerifyReport.Failure(seq: UInt64(i + 1), check: "outcome", message: "expected \(outcomes[i]), replayed \(outcome)", event: e.event)
                f.diffTitle = "state diff across seq \(i + 1) as replayed now"
                f.before = before
                f.after = r.state
                return f
            }
        }
        if let o = expect.outcomes, o.count != doc.events.count {
            return VerifyReport.Failure(seq: nil, check: "expect", message: "expect has \(o.count) outcomes for \(doc.events.count) events")
        }
        if let state = expect.state, state != r.state {
            var f = VerifyReport.Failure(seq: UInt64(doc.events.count), check: "state", message: "the final state differs from the expected one")
            f.diffTitle = "final state (expected → replayed)"
            f.before = state
            f.after = r.state
            return f
        }
        if let digest = expect.digest, digest != r.state.digest {
            return VerifyReport.Failure(seq: UInt64(doc.events.count), check: "digest", message: "expected digest \(digest.short), replayed \(r.state.digest.short)")
        }
        return nil
    }
}
