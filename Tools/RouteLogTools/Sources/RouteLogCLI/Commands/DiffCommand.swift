import ArgumentParser
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline
@_spi(Tools) import RouteLogLMDB

/// `routelog diff`: the state diff between two refs, optionally with the event alignment.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Diff the states (and optionally the events) of two session refs.",
        discussion: """
        A and B are session refs, e.g. latest@40 latest@41, or a session against a fixture:
        latest Fixtures/upsell.json. Prints the state diff with -/+ lines and unchanged runs \
        collapsed. --events also aligns the two event lists (up to each ref's seq) and names the \
        first divergent seq. The alignment is a shortest one unless the sessions differ a lot: \
        its search stops after 2^26 steps (a few tenths of a second; sessions that differ by more \
        than a few thousand events can reach it, two unrelated sessions of 100,000 events do), \
        and the output then says "alignment not minimal" and matches only the common runs at the \
        ends of what is left. --json gives the changes as data ("searchStopped": true then). \
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
        let sa = try ws.resolve(a)
        let sb = try ws.resolve(b)
        let states = try StateComparison(sa, a, sb, b)
        let seqA = states.seqA, seqB = states.seqB, stA = states.stateA, stB = states.stateB
        var different = stA != stB
        var alignment: EventAlignment?
        if events {
            let al = try EventAlignment(sa, through: seqA, sb, through: seqB)
            if al.isDifferent { different = true }
            alignment = al
        }
        let out = Output.stdout()
        if json {
            let o = states.json(equal: !different)
            if let alignment {
                // "events" sorts last among the keys: the rest, then the alignment streamed.
                out.write(String(JSONValue.object(o).canonicalText.dropLast()) + ",\"events\":")
                alignment.writeJSON(out)
                out.line("}")
            } else {
                out.line(JSONValue.object(o).canonicalText)
            }
        } else {
            writeStates(out, "\(a)  (seq \(seqA), digest \(stA.digest.short))", stA, "\(b)  (seq \(seqB), digest \(stB.digest.short))", stB)
            if let alignment {
                out.line()
                alignment.writeText(out)
            }
        }
        out.flush()
        if different { throw ExitCode.failure }
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
        if events { throw RouteLogError.usage("--events compares two refs; give A and B") }
        let s = try ws.resolve(a)
        try s.requireEvents()
        let seq = s.seqOrHead
        if seq == 0 { throw RouteLogError.usage("\(a) is seq 0, before any event: name an event's seq (\(a.split(separator: "@").first ?? "")@1 or later)") }
        guard let e = try s.event(at: seq) else { throw RouteLogError.usage("\(a): no event at seq \(seq)") }
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
            out.line(out.paint("seq \(seq) of \(s.info.eventCount): \(EventText.describe(e.event))", .bold)
                + "  (\(e.meta.origin.rawValue)\(site))  \(Render.outcome(e.outcome, out))")
            writeStates(out, "seq \(seq - 1)  (digest \(before.digest.short))", before, "seq \(seq)  (digest \(after.digest.short))", after)
        }
        out.flush()
        if before != after { throw ExitCode.failure }
    }
}
