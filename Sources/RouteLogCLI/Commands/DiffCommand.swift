import ArgumentParser
import RouteLogCore

/// `routelog diff`: the state diff between two refs, optionally with the event alignment.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff the states (and optionally the events) of two session refs.",
        discussion: """
        A and B are session refs, e.g. latest@40 latest@41, or a session against a fixture:
        latest Fixtures/upsell.json. Prints the state diff with -/+ lines and unchanged runs \
        collapsed. --events also aligns the two event lists (up to each ref's seq) and names the \
        first divergent seq. --json gives the changes as data. \
        With one ref (like git show), the change made by the event at that ref's seq (its head \
        without @N): REF@N-1 against REF@N, after a line naming the event and its outcome. \
        Exit status: 0 when equal, 1 when different.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The first ref.") var a: String
    @Argument(help: "The second ref (without it: what the event at A's seq changed).") var b: String?
    @Flag(help: "Also align the two event lists and name the first divergent seq.") var events = false
    @Flag(help: "Print the changes as JSON.") var json = false

    func run() throws {
        let ws = store.workspace()
        guard let b else { return try show(ws) }
        let sa = try ws.resolve(try parseRef(a))
        let sb = try ws.resolve(try parseRef(b))
        let seqA = sa.seqOrHead, seqB = sb.seqOrHead
        let stA = try call { try sa.log.state(of: sa.id, at: seqA) }
        let stB = try call { try sb.log.state(of: sb.id, at: seqB) }
        let changes = StateDiff.between(stA, stB).changes
        var different = stA != stB
        var alignment: EventAlignment?
        if events {
            let ea = try call { try sa.log.events(sa.id, from: 1, through: seqA) }
            let eb = try call { try sb.log.events(sb.id, from: 1, through: seqB) }
            let al = EventAlignment(ea, eb)
            if al.isDifferent { different = true }
            alignment = al
        }
        let out = Output.stdout()
        if json {
            func side(_ s: ResolvedSession, _ ref: String, _ seq: UInt64, _ st: NavigationState) -> JSONValue {
                .object(["ref": .string(ref), "session": .string(s.name), "seq": .int(Int64(seq)), "digest": .string(st.digest.hex)])
            }
            var o: [String: JSONValue] = [
                "a": side(sa, a, seqA, stA), "b": side(sb, b, seqB, stB), "equal": .bool(!different),
                "changes": .array(changes.map(\.json)),
            ]
            if let alignment { o["events"] = alignment.json }
            out.line(JSONValue.object(o).canonicalText)
        } else {
            writeStates(out, "\(a)  (seq \(seqA), digest \(stA.digest.short))", stA, "\(b)  (seq \(seqB), digest \(stB.digest.short))", stB)
            if let alignment {
                out.line()
                for line in alignment.text(out: out) { out.line(line) }
            }
        }
        out.flush()
        if different { throw CommandResult.different }
    }

    /// The `--- labelA` and `+++ labelB` lines, then the state diff as text.
    private func writeStates(_ out: Output, _ labelA: String, _ stA: NavigationState, _ labelB: String, _ stB: NavigationState) {
        out.line(out.paint("--- \(labelA)", .red))
        out.line(out.paint("+++ \(labelB)", .green))
        if stA == stB {
            out.line("states are equal")
        } else {
            for line in Diffing.text(stA, stB, out: out) { out.line(line) }
        }
    }

    /// `diff REF`: what the event at REF's seq changed, as `git show` shows a commit.
    func show(_ ws: Workspace) throws {
        if events { throw CLIError.usage("--events compares two refs; give A and B") }
        let s = try ws.resolve(try parseRef(a))
        try s.requireEvents()
        let seq = s.seqOrHead
        if seq == 0 { throw CLIError.usage("\(a) is seq 0, before any event: name an event's seq (\(a.split(separator: "@").first ?? "")@1 or later)") }
        guard let e = try s.event(at: seq) else { throw CLIError.usage("\(a): no event at seq \(seq)") }
        let before = try call { try s.log.state(of: s.id, at: seq - 1) }
        let after = try call { try s.log.state(of: s.id, at: seq) }
        let changes = StateDiff.between(before, after).changes
        let out = Output.stdout()
        if json {
            out.line(JSONValue.object([
                "ref": .string(a), "session": .string(s.name), "seq": .int(Int64(seq)), "event": e.recorded.json,
                "outcome": e.outcome.json, "before": .string(before.digest.hex), "after": .string(after.digest.hex),
                "equal": .bool(before == after), "changes": .array(changes.map(\.json)),
            ]).canonicalText)
        } else {
            let site = e.meta.callSite.map { ", \($0.file):\($0.line)" } ?? ""
            out.line(out.paint("seq \(seq) of \(s.info.eventCount): \(Render.event(e.event))", .bold)
                + "  (\(e.meta.origin.rawValue)\(site))  \(Render.outcome(e.outcome, out))")
            writeStates(out, "seq \(seq - 1)  (digest \(before.digest.short))", before, "seq \(seq)  (digest \(after.digest.short))", after)
        }
        out.flush()
        if before != after { throw CommandResult.different }
    }
}

/// Two event lists aligned by ``SessionDiff`` (events compared by canonical JSON, metadata
/// ignored; the first divergence is the first seq whose digests differ), rendered with the CLI's
/// compact event descriptions.
struct EventAlignment {
    let diff: SessionDiff
    let a: [StoredEvent]
    let b: [StoredEvent]

    init(_ a: [StoredEvent], _ b: [StoredEvent]) {
        self.a = a
        self.b = b
        diff = SessionDiff.between(a, b)
    }

    var firstDivergentSeq: UInt64? { diff.firstDivergence }

    /// Whether the event lists differ (a divergence, or any edit in the alignment).
    var isDifferent: Bool { !diff.isEmpty }

    var json: JSONValue { diff.json }

    func text(out: Output) -> [String] {
        var lines: [String]
        if let s = firstDivergentSeq {
            lines = [out.paint("events: first divergent seq \(s)", .bold)]
        } else {
            lines = [out.paint("events: identical (\(a.count) events, same digests)", .bold)]
        }
        func seq(_ n: UInt64?) -> String {
            let s = n.map(String.init) ?? "·"
            return String(repeating: " ", count: max(0, 4 - s.count)) + s
        }
        func event(_ list: [StoredEvent], _ n: UInt64) -> String {
            let i = Int(n) - 1
            return list.indices.contains(i) ? Render.event(list[i].event) : "?"
        }
        var body: [(Character, String)] = []
        for entry in diff.alignment {
            switch entry {
            case .same(let x, let y): body.append((" ", "\(seq(x)) \(seq(y))  \(event(a, x))"))
            case .removed(let x): body.append(("-", "\(seq(x)) \(seq(nil))  \(event(a, x))"))
            case .inserted(let y): body.append(("+", "\(seq(nil)) \(seq(y))  \(event(b, y))"))
            case .changed(let x, let y):
                body.append(("-", "\(seq(x)) \(seq(nil))  \(event(a, x))"))
                body.append(("+", "\(seq(nil)) \(seq(y))  \(event(b, y))"))
            }
        }
        // Keep two rows of context around each edit and collapse the rest.
        var keep = [Bool](repeating: false, count: body.count)
        for (i, row) in body.enumerated() where row.0 != " " {
            for c in max(0, i - 2)...min(body.count - 1, i + 2) { keep[c] = true }
        }
        var skipped = 0
        for (i, row) in body.enumerated() {
            if !keep[i] { skipped += 1; continue }
            if skipped > 0 { lines.append(out.paint("  … (\(skipped) identical events)", .dim)); skipped = 0 }
            switch row.0 {
            case "-": lines.append(out.paint("- " + row.1, .red))
            case "+": lines.append(out.paint("+ " + row.1, .green))
            default: lines.append("  " + row.1)
            }
        }
        if skipped > 0 { lines.append(out.paint("  … (\(skipped) identical events)", .dim)) }
        return lines
    }
}
