import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
import RouteLogSessions
@_spi(Tools) import RouteLogTimeline
import Testing

/// `log` writes its text lines as bytes, field by field, and keeps the summary column from one line
/// to the next. These tests hold that to the String-based formatting it replaced
/// (``ReferenceLog``), on generated sessions.
struct LogTextLineTests: InProcessSuite {
    let dir: TempDir

    /// Whole `log` outputs, against the reference, for sessions of every mix, with call sites
    /// (some wider than their column), notes, times minutes and hours apart, times before the
    /// first event's and events without a time.
    @Test(arguments: [(SessionGenerator.Mix.realistic, UInt64(1)), (.realistic, 2), (.deepPath, 3), (.realistic, clockSeed())])
    func logMatchesTheReference(mix: SessionGenerator.Mix, seed: UInt64) async throws {
        var rng = SplitMix64(seed: seed ^ 0x10C)
        var time: Int64 = 1_700_000_000_000
        let events = generatedEvents(400, seed: seed, mix: mix) { i in
            time += Int64(rng.next() % 4 == 0 ? rng.next() % 9_000_000 : rng.next() % 2_000)
            var meta = EventMetadata(timestamp: i % 97 == 5 ? 0 : (i % 89 == 7 ? time - 3_700_000 : time),
                                     origin: Origin.allCases[Int(rng.next() % 4)])
            switch rng.next() % 5 {
            case 0: meta.callSite = CallSite(file: "Feature/View\(i).swift", line: Int(rng.next() % 5_000))
            case 1 where i % 50 == 0: meta.callSite = CallSite(file: String(repeating: "LongName", count: 6) + ".swift", line: 12)
            default: break
            }
            if rng.next() % 10 == 0 { meta.note = "note ▸ \(i)" }
            return meta
        }
        try dir.writeSession("s.json", events)
        for range in [(1, events.count), (37, 300)] {
            let r = await run(["log", "$/s.json", "--from", "\(range.0)", "--to", "\(range.1)"])
            #expect(r.status == 0, "\(r)")
            let want = ReferenceLog.lines(events, from: range.0, through: range.1)
            let got = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(got.count == want.count, "seed \(seed)")
            for (i, (g, w)) in zip(got, want).enumerated() where g != w {
                Issue.record("seed \(seed), line \(i + range.0):\n got: \(g)\nwant: \(w)")
                break
            }
        }
    }

    /// The kept summary equals a summary written from scratch after every event, for every mix
    /// (the adversarial one has every event kind and rejection), printing from any seq.
    @Test(arguments: [SessionGenerator.Mix.realistic, .adversarial, .deepPath])
    func keptSummaryMatchesAFreshOne(mix: SessionGenerator.Mix) {
        for seed in [UInt64(11), 12, clockSeed()] {
            var generator = SessionGenerator(seed: seed, mix: mix)
            var replayer = Replayer()
            var line = SummaryLine()
            for i in 1...3_000 {
                let event = generator.next()
                let step = replayer.apply(event)
                // A gap (as when `log` starts at --from) writes the summary again.
                if i % 700 == 0 { continue }
                let e = StoredEvent(seq: step.seq, recorded: RecordedEvent(event), outcome: step.outcome, digest: step.digest)
                line.update(replayer.state, after: e)
                let got = String(decoding: line.bytes, as: UTF8.self)
                guard got == SessionJSON.summary(replayer.state), got == Render.summary(replayer.state) else {
                    Issue.record("seed \(seed), seq \(step.seq) (\(event), \(step.outcome)):\n got: \(got)\nwant: \(SessionJSON.summary(replayer.state))")
                    return
                }
            }
        }
    }

    @Test func fieldWritersMatchTheirStringForms() {
        for o in [Outcome.applied(.changed), .applied(.updatedInPlace)] + RejectionReason.allCases.map(Outcome.rejected) {
            var b: [UInt8] = []
            Render.writeOutcome(o, into: &b)
            #expect(String(decoding: b, as: UTF8.self) == o.description)
        }
        for v in [UInt64(0), 9, 10, 99, 100, 12_345, UInt64(Int64.max), .max] {
            var b: [UInt8] = []
            b.appendDecimal(v)
            #expect(String(decoding: b, as: UTF8.self) == String(v))
        }
        for v in [0, 7, -1, -42, Int.max, Int.min] {
            var b: [UInt8] = []
            b.appendDecimal(v)
            #expect(String(decoding: b, as: UTF8.self) == String(v))
        }
        var rng = SplitMix64(seed: clockSeed())
        let offsets: [Int64] = [0, 1, 999, 1_000, 59_999, 60_000, 3_599_999, 3_600_000, 360_000_000_000, -1, -61_000, -3_600_001]
        for d in offsets + (0..<2_000).map({ _ in Int64(bitPattern: rng.next() % 1_000_000_000) - 500_000_000 }) {
            #expect(Render.relativeTime(1_700_000_000_000 + d, from: 1_700_000_000_000) == ReferenceLog.relativeTime(1_700_000_000_000 + d, from: 1_700_000_000_000))
        }
        var generator = SessionGenerator(seed: 5, mix: .adversarial)
        for event in generator.events(2_000) {
            #expect(EventText.describe(event) == ReferenceLog.describe(event), "\(event)")
        }
    }
}

/// The text lines of `routelog log` as the String-based formatting wrote them: each field a
/// String, padded by its visible width, the summary from ``SessionJSON/summary(_:)``.
enum ReferenceLog {
    static func lines(_ events: [RecordedEvent], from: Int, through: Int) -> [String] {
        let shown = events[(from - 1)..<through]
        func site(_ e: RecordedEvent) -> String { e.meta.callSite.map { "\($0.file):\($0.line)" } ?? "-" }
        let eventWidth = min(LogPrinter.maxEventWidth, shown.map { Render.visibleWidth(describe($0.event)) }.reduce(38, max))
        let siteWidth = min(LogPrinter.maxSiteWidth, shown.map { Render.visibleWidth(site($0)) }.reduce(22, max))
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - Render.visibleWidth(s))) + "  " }
        let origin = events[0].meta.timestamp
        var replayer = Replayer()
        var out: [String] = []
        for (i, e) in events.enumerated() {
            let outcome = replayer.apply(e.event).outcome
            guard i + 1 >= from, i + 1 <= through else { continue }
            let seq = String(i + 1)
            var line = String(repeating: " ", count: max(0, 4 - seq.count)) + seq + "  "
            line += pad(e.meta.timestamp == 0 || origin == 0 ? "-" : relativeTime(e.meta.timestamp, from: origin), 9)
            line += pad(e.meta.origin.rawValue, LogPrinter.originWidth)
            line += pad(Render.truncate(describe(e.event), eventWidth), eventWidth)
            line += pad(outcome.description, 23)
            line += pad(Render.truncate(site(e), siteWidth), siteWidth)
            line += SessionJSON.summary(replayer.state)
            if let note = e.meta.note { line += "  # " + note }
            out.append(line)
        }
        return out
    }

    static func relativeTime(_ ms: Int64, from origin: Int64) -> String {
        let d = ms - origin
        let sign = d < 0 ? "-" : "+"
        let a = d.magnitude
        let millis = a % 1000, secs = a / 1000
        func p(_ v: UInt64, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        if secs < 60 { return "\(sign)\(secs).\(p(millis, 3))s" }
        if secs < 3600 { return "\(sign)\(secs / 60)m\(p(secs % 60, 2)).\(p(millis, 3))s" }
        return "\(sign)\(secs / 3600)h\(p(secs / 60 % 60, 2))m\(p(secs % 60, 2)).\(p(millis, 3))s"
    }

    static func describe(_ event: Event) -> String {
        func frame(_ f: FrameRef) -> String {
            switch f {
            case .root: "root"
            case .presentation(let t): "#\(t)"
            }
        }
        switch event {
        case .push(let r, let f):
            return "push \(r.id)" + (f.map { " in \(frame($0))" } ?? "")
        case .pop(let count, let f):
            return "pop" + (count == 1 ? "" : " \(count)") + (f.map { " in \(frame($0))" } ?? "")
        case .popToRoot(let f):
            return "popToRoot" + (f.map { " in \(frame($0))" } ?? "")
        case .show(let r, let style, let dismissible, let placement):
            var s = "show \(style.rawValue) \(r.id)"
            if !dismissible { s += " undismissible" }
            switch placement {
            case .replacingTop: break
            case .onTop: s += " onTop"
            case .in(let f): s += " in \(frame(f))"
            }
            return s
        case .dismiss(let target):
            switch target {
            case .top: return "dismiss"
            case .token(let t): return "dismiss #\(t)"
            case .all: return "dismiss all"
            }
        case .interactiveDismiss(let token):
            return "interactiveDismiss" + (token.map { " #\($0)" } ?? "")
        case .setTabs(let ids, let selected):
            return "setTabs \(ids.joined(separator: ","))" + (selected.map { " [\($0)]" } ?? "")
        case .selectTab(let id):
            return "selectTab \(id)"
        case .reset:
            return "reset"
        }
    }
}
