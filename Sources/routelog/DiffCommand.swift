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
        Exit status: 0 when equal, 1 when different.
        """
    )

    @OptionGroup var store: StoreOptions
    @Argument(help: "The first ref.") var a: String
    @Argument(help: "The second ref.") var b: String
    @Flag(help: "Also align the two event lists and name the first divergent seq.") var events = false
    @Flag(help: "Print the changes as JSON.") var json = false

    func run() throws {
        let ws = store.workspace()
        let sa = try ws.resolve(try parseRef(a))
        let sb = try ws.resolve(try parseRef(b))
        let seqA = sa.seqOrHead, seqB = sb.seqOrHead
        let stA = try call { try sa.log.state(of: sa.id, at: seqA) }
        let stB = try call { try sb.log.state(of: sb.id, at: seqB) }
        let changes = Diffing.changes(stA, stB)
        var different = stA != stB
        var alignment: EventAlignment?
        if events {
            let ea = try call { try sa.log.events(sa.id, from: 1, through: seqA) }
            let eb = try call { try sb.log.events(sb.id, from: 1, through: seqB) }
            let al = EventAlignment(ea, eb)
            if al.firstDivergentSeq != nil { different = true }
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
            out.line(out.paint("--- \(a)  (seq \(seqA), digest \(stA.digest.short))", .red))
            out.line(out.paint("+++ \(b)  (seq \(seqB), digest \(stB.digest.short))", .green))
            if stA == stB {
                out.line("states are equal")
            } else {
                for line in Diffing.text(stA, stB, out: out) { out.line(line) }
            }
            if let alignment {
                out.line()
                for line in alignment.text(out: out) { out.line(line) }
            }
        }
        out.flush()
        if different { throw CommandResult.different }
    }
}

/// Two event lists aligned by a longest common subsequence of their events (metadata ignored).
struct EventAlignment {
    enum Row {
        case same(StoredEvent, StoredEvent)
        case removed(StoredEvent)
        case added(StoredEvent)
    }

    var rows: [Row] = []
    /// The first seq (in A's numbering, or B's when A ran out) where the lists stop matching, or
    /// where the digests differ although the events match (a session recorded by another reducer).
    var firstDivergentSeq: UInt64?

    init(_ a: [StoredEvent], _ b: [StoredEvent]) {
        let ops = Diffing.lineOps(a.map(\.event.canonicalJSON), b.map(\.event.canonicalJSON))
        var i = 0, j = 0
        for op in ops {
            switch op {
            case .same: rows.append(.same(a[i], b[j])); i += 1; j += 1
            case .removed: rows.append(.removed(a[i])); i += 1
            case .added: rows.append(.added(b[j])); j += 1
            }
        }
        var k = 0
        while k < a.count, k < b.count, a[k].event == b[k].event { k += 1 }
        if k < a.count || k < b.count { firstDivergentSeq = UInt64(k + 1) }
    }

    var json: JSONValue {
        .object([
            "firstDivergentSeq": firstDivergentSeq.map { .int(Int64($0)) } ?? .null,
            "rows": .array(rows.map { row in
                switch row {
                case .same(let x, let y): .object(["op": .string("same"), "a": .int(Int64(x.seq)), "b": .int(Int64(y.seq)), "event": x.event.json])
                case .removed(let x): .object(["op": .string("removed"), "a": .int(Int64(x.seq)), "event": x.event.json])
                case .added(let y): .object(["op": .string("added"), "b": .int(Int64(y.seq)), "event": y.event.json])
                }
            }),
        ])
    }

    func text(out: Output) -> [String] {
        var lines: [String]
        if let s = firstDivergentSeq {
            lines = [out.paint("events: first divergent seq \(s)", .bold)]
        } else {
            lines = [out.paint("events: identical", .bold)]
        }
        var body: [String] = []
        var kinds: [Character] = []
        func seq(_ n: UInt64) -> String { let s = String(n); return String(repeating: " ", count: max(0, 4 - s.count)) + s }
        for row in rows {
            switch row {
            case .same(let x, let y):
                body.append("\(seq(x.seq)) \(seq(y.seq))  \(Render.event(x.event))"); kinds.append(" ")
            case .removed(let x):
                body.append("\(seq(x.seq))   ·   \(Render.event(x.event))"); kinds.append("-")
            case .added(let y):
                body.append("  ·  \(seq(y.seq))  \(Render.event(y.event))"); kinds.append("+")
            }
        }
        // Keep two rows of context around each change and collapse the rest.
        var keep = [Bool](repeating: false, count: body.count)
        for (i, k) in kinds.enumerated() where k != " " {
            for c in max(0, i - 2)...min(body.count - 1, i + 2) { keep[c] = true }
        }
        var skipped = 0
        for (i, line) in body.enumerated() {
            if !keep[i] { skipped += 1; continue }
            if skipped > 0 { lines.append(out.paint("  … (\(skipped) identical events)", .dim)); skipped = 0 }
            switch kinds[i] {
            case "-": lines.append(out.paint("- " + line, .red))
            case "+": lines.append(out.paint("+ " + line, .green))
            default: lines.append("  " + line)
            }
        }
        if skipped > 0 { lines.append(out.paint("  … (\(skipped) identical events)", .dim)) }
        return lines
    }
}
