import Foundation
@testable import RouteLogCLI
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
@_spi(Tools) import RouteLogTimeline
import Testing

/// The paths built for sessions of millions of events (the streamed event alignment of `diff
/// --events`, files read as a read-only log) give what the whole-session code gives.
struct LargeSessionTests: InProcessSuite {
    let dir: TempDir

    /// `count` generated events, with one edit in about every `editEvery` positions of a copy
    /// (a replaced, removed or inserted event) when `base` is given.
    static func session(seed: UInt64, count: Int) -> [RecordedEvent] {
        var g = SessionGenerator(seed: seed)
        return (0..<count).map { i in RecordedEvent(g.next(), meta: Sessions.at(Int64(i) * 10)) }
    }

    static func edited(_ base: [RecordedEvent], seed: UInt64, editEvery: UInt64) -> [RecordedEvent] {
        var rng = SplitMix64(seed: seed)
        var out: [RecordedEvent] = []
        for e in base {
            switch rng.next() % editEvery {
            case 0: out.append(RecordedEvent(.dismiss(.top), meta: e.meta))
            case 1: continue
            case 2: out.append(e); out.append(RecordedEvent(.pop(count: 1), meta: e.meta))
            default: out.append(e)
            }
        }
        return out
    }

    /// The text of the event alignment as the whole-session code rendered it, from `SessionDiff`.
    static func referenceText(_ a: [RecordedEvent], _ b: [RecordedEvent]) -> [String] {
        let diff = SessionDiff.between(events: a.map(\.event), b.map(\.event))
        var lines = [diff.firstDivergence.map { "events: first divergent seq \($0)" } ?? "events: identical (\(a.count) events, same digests)"]
        if diff.searchStopped { lines.append(SessionDiff.searchStoppedNote) }
        func seq(_ n: UInt64?) -> String {
            let s = n.map(String.init) ?? "·"
            return String(repeating: " ", count: max(0, 4 - s.count)) + s
        }
        func event(_ list: [RecordedEvent], _ n: UInt64) -> String { EventText.describe(list[Int(n) - 1].event) }
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
        var keep = [Bool](repeating: false, count: body.count)
        for (i, row) in body.enumerated() where row.0 != " " {
            for c in max(0, i - 2)...min(body.count - 1, i + 2) { keep[c] = true }
        }
        var skipped = 0
        for (i, row) in body.enumerated() {
            if !keep[i] { skipped += 1; continue }
            if skipped > 0 { lines.append("  … (\(skipped) identical events)"); skipped = 0 }
            lines.append("\(row.0 == " " ? " " : row.0) " + row.1)
        }
        if skipped > 0 { lines.append("  … (\(skipped) identical events)") }
        return lines
    }

    @Test(arguments: [(UInt64(1), UInt64(7)), (2, 40), (3, 400), (4, 3)])
    func streamedAlignmentMatchesSessionDiff(seed: UInt64, editEvery: UInt64) async throws {
        let a = Self.session(seed: seed, count: 1_500)
        let b = Self.edited(a, seed: seed &+ 100, editEvery: editEvery)
        try dir.writeSession("a.json", a)
        try dir.writeSession("b.json", b)
        let diff = SessionDiff.between(events: a.map(\.event), b.map(\.event))

        let j = await run(["diff", "$/a.json", "$/b.json", "--events", "--json"])
        #expect(j.status == 1, "\(j)")
        let events = try #require(try j.stdout.json()["events"])
        #expect(events == diff.json)

        let t = await run(["diff", "$/a.json", "$/b.json", "--events"])
        #expect(t.status == 1)
        let text = t.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(text.firstIndex { $0.hasPrefix("events: ") })
        #expect(Array(text[start...].dropLast()) == Self.referenceText(a, b))
    }

    @Test func unrelatedSessionsAlignLikeSessionDiff() async throws {
        let a = Self.session(seed: 21, count: 3_000)
        let b = Self.session(seed: 22, count: 2_500)
        try dir.writeSession("a.json", a)
        try dir.writeSession("b.json", b)
        let j = await run(["diff", "$/a.json", "$/b.json", "--events", "--json"])
        #expect(try j.stdout.json()["events"] == SessionDiff.between(events: a.map(\.event), b.map(\.event)).json)
        let same = await run(["diff", "$/a.json", "$/a.json", "--events", "--json"])
        #expect(same.status == 0, "\(same)")
        #expect(try same.stdout.json()["events"] == SessionDiff.between(events: a.map(\.event), a.map(\.event)).json)
    }

    /// A file's session read through the read-only file log gives the states, events and digests
    /// an in-memory log of the same events gives, at every kind of seq (before, at and after a
    /// kept state).
    @Test func fileLogMatchesAnInMemoryLog() throws {
        let events = Self.session(seed: 5, count: 5_000)
        let fileLog = FileEventLog(Fixture(name: "five", events: events))
        let memory = InMemoryEventLog(snapshotInterval: 256, clock: { 0 })
        let info = try memory.createSession(NewSession(label: "five"))
        try memory.append(events, to: info.id, expectedSeq: 0)
        #expect(fileLog.info == (try memory.session(info.id)))
        for seq: UInt64 in [0, 1, 1023, 1024, 1025, 2048, 4999, 5000] {
            #expect(try fileLog.state(of: fileLog.info.id, at: seq) == memory.state(of: info.id, at: seq), "seq \(seq)")
        }
        for (from, through): (UInt64, UInt64) in [(1, 5000), (1000, 1100), (2048, 2048), (4990, 9000), (6000, 7000)] {
            #expect(try fileLog.events(fileLog.info.id, from: from, through: through) == memory.events(info.id, from: from, through: through))
        }
        #expect(throws: EventLogError.self) { try fileLog.session(SessionID("0000")) }
    }

    /// Letting go of a store's mapped pages in the middle of a read loses nothing: the events
    /// read after it are the stored ones.
    @Test func releasingMappedPagesKeepsTheData() throws {
        let events = Self.session(seed: 13, count: 3_000)
        let path = dir.path("store")
        let id: SessionID
        do {
            let log = try LMDBEventLog.open(at: path)
            id = try log.createSession(NewSession(label: "pages")).id
            try log.append(events, to: id, expectedSeq: 0)
        }
        let s = try Workspace(storePath: path).resolve(SessionRef(parsing: id.rawValue))
        let pages = MappedPages(s.store)
        var read: [RecordedEvent] = []
        try s.log.read(s.id, from: 1, through: .max) { e in
            if e.seq % 500 == 0 { pages.release() }
            read.append(e.recorded)
            return true
        }
        #expect(read == events)
        #expect(try s.log.state(of: s.id, at: 3_000).digest == s.info.headDigest)
    }

    @Test func stateOfAFileAtASeq() async throws {
        let events = Self.session(seed: 9, count: 3_000)
        try dir.writeSession("s.json", events)
        let r = await run(["state", "$/s.json@1500", "--json"])
        #expect(r.status == 0, "\(r)")
        var replayer = Replayer()
        for e in events.prefix(1500) { replayer.apply(e.event) }
        #expect(try r.stdout.json()["digest"]?.stringValue == replayer.state.digest.hex, "\(r.stdout.prefix(300))")
    }
}
