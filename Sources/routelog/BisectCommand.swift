import ArgumentParser
import RouteLogCore

/// `routelog bisect`: the first seq at which a predicate holds.
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first seq where a predicate holds (or a command says bad).",
        discussion: """
        Binary search over the session's seqs: seq 0 (before any event) counts as good, and the \
        predicate is assumed to stay true once it holds; only O(log N) states are materialized. \
        For a predicate that can turn false again, --linear checks every seq in order.

        --run CMD follows git bisect run: the state's canonical JSON goes on stdin, ROUTELOG_SEQ \
        (and ROUTELOG_EVENT, ROUTELOG_OUTCOME) in the environment; exit 0 means good, 125 skip, \
        1-127 (but 125) bad, 128 or more aborts. The command's output goes to stderr.

        Prints the seq, the event, the state diff across it and how many states were \
        materialized. Exit status: 1 when a bad seq is found, 0 when the predicate never holds.

        \(Predicate.helpText)
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The session (REF@N searches seqs 1...N).") var session: String
    @Option(help: ArgumentHelp("The predicate that marks a bad state, e.g. 'top.id == \"upsell\"'.", valueName: "expr")) var predicate: String?
    @Option(name: .customLong("run"), help: ArgumentHelp("A shell command that judges each state (git bisect run semantics).", valueName: "cmd")) var command: String?
    @Flag(help: "Check every seq in order (for predicates that are not monotone).") var linear = false
    @Flag(help: "Print the result as JSON.") var json = false

    func run() throws {
        let judge = try Judge(predicate: predicate, run: command)
        let s = try store.workspace().resolve(try parseRef(session))
        try s.requireEvents()
        let n = s.seqOrHead
        if n == 0 { throw CLIError.usage("nothing to bisect: \(session) is at seq 0") }
        let result = linear ? try Bisector.linear(s, through: n, judge) : try Bisector.binary(s, through: n, judge)
        let out = Output.stdout()
        let mode = linear ? "linear" : "binary"
        switch result.answer {
        case .none:
            if json {
                out.line(JSONValue.object(["seq": .null, "materialized": .int(Int64(result.materialized)), "mode": .string(mode)]).canonicalText)
            } else {
                out.line("no bad seq: \(judge.summary) never says bad in seqs 1...\(n)")
                out.line(out.paint("materialized \(result.materialized) states (\(mode))", .dim))
            }
        case .ambiguous(let range):
            if json {
                out.line(JSONValue.object([
                    "seq": .null, "candidates": .array(range.map { .int(Int64($0)) }),
                    "materialized": .int(Int64(result.materialized)), "mode": .string(mode),
                ]).canonicalText)
            } else {
                out.line("the first bad seq is one of \(range.lowerBound)...\(range.upperBound) (the others were skipped)")
                out.line(out.paint("materialized \(result.materialized) states (\(mode))", .dim))
            }
            out.flush()
            throw CommandResult.different
        case .found(let seq):
            let before = try call { try s.log.state(of: s.id, at: seq - 1) }
            let after = try call { try s.log.state(of: s.id, at: seq) }
            guard let e = try s.event(at: seq) else { throw CLIError.data("seq \(seq) is missing from \(s.name)") }
            if json {
                out.line(JSONValue.object([
                    "seq": .int(Int64(seq)), "event": e.recorded.json, "outcome": e.outcome.json,
                    "changes": .array(Diffing.changes(before, after).map(\.json)),
                    "materialized": .int(Int64(result.materialized)), "mode": .string(mode),
                ]).canonicalText)
            } else {
                out.line(out.paint("first bad seq: \(seq) of \(n)", .bold))
                let site = e.meta.callSite.map { ", \($0.file):\($0.line)" } ?? ""
                out.line("event: \(Render.event(e.event))  (\(e.meta.origin.rawValue)\(site))  \(Render.outcome(e.outcome, out))")
                out.line("state diff \(seq - 1) → \(seq):")
                if before == after {
                    out.line("  (no change)")
                } else {
                    for line in Diffing.text(before, after, out: out) { out.line(line) }
                }
                out.line(out.paint("materialized \(result.materialized) states (\(mode))", .dim))
            }
            out.flush()
            throw CommandResult.different
        }
    }
}

/// The two search strategies of `bisect`.
enum Bisector {
    enum Answer: Equatable {
        case none
        case found(UInt64)
        /// Every seq in the range was skipped; the first bad one is among them (the upper bound is bad).
        case ambiguous(ClosedRange<UInt64>)
    }

    struct Result {
        var answer: Answer
        var materialized: Int
    }

    static func context(_ s: ResolvedSession, _ seq: UInt64) throws -> PredicateContext {
        let state = try call { try s.log.state(of: s.id, at: seq) }
        let e = try s.event(at: seq)
        return PredicateContext(seq: seq, state: state, event: e?.event, outcome: e?.outcome)
    }

    /// Binary search assuming good at 0 and monotone; skips move to the nearest unskipped seq.
    static func binary(_ s: ResolvedSession, through n: UInt64, _ judge: Judge) throws -> Result {
        var materialized = 0
        var cache: [UInt64: Verdict] = [:]
        func verdict(_ seq: UInt64) throws -> Verdict {
            if let v = cache[seq] { return v }
            materialized += 1
            let v = try judge.judge(try context(s, seq))
            cache[seq] = v
            return v
        }
        switch try verdict(n) {
        case .good: return Result(answer: .none, materialized: materialized)
        case .skip: throw CLIError.usage("--run skipped the last seq \(n); bisect needs it to be bad")
        case .bad: break
        }
        var lo: UInt64 = 0, hi = n   // lo good (or 0), hi bad
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            // Nearest unskipped seq to mid inside (lo, hi): mid, mid+1, mid-1, mid+2, …
            var probe: UInt64?
            var offset: UInt64 = 0
            while probe == nil, offset < hi - lo {
                for c in [mid + offset, offset <= mid ? mid - offset : 0] where c > lo && c < hi {
                    if try verdict(c) != .skip { probe = c; break }
                }
                offset += 1
            }
            guard let p = probe else { return Result(answer: .ambiguous((lo + 1)...hi), materialized: materialized) }
            if try verdict(p) == .bad { hi = p } else { lo = p }
        }
        return Result(answer: .found(hi), materialized: materialized)
    }

    /// Checks every seq in order with one running fold; skipped seqs are passed over.
    static func linear(_ s: ResolvedSession, through n: UInt64, _ judge: Judge) throws -> Result {
        var r = Replayer()
        var materialized = 0
        var found: UInt64?
        var failure: (any Error)?
        try call {
            try s.log.read(s.id, from: 1, through: n) { e in
                r.apply(e.event)
                materialized += 1
                do {
                    if try judge.judge(PredicateContext(seq: e.seq, state: r.state, event: e.event, outcome: e.outcome)) == .bad {
                        found = e.seq
                        return false
                    }
                } catch {
                    failure = error
                    return false
                }
                return true
            }
        }
        if let failure { throw failure }
        return Result(answer: found.map { .found($0) } ?? .none, materialized: materialized)
    }
}
