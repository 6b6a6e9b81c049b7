import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline
import Testing

/// The page's data: replayed by RouteLogCore, encoded as text splices the page applies.
@Suite struct TimelineTests {
    /// A generated session in an in-memory log (the same log type the CLI uses for files).
    static func session(_ n: Int, seed: UInt64, mix: SessionGenerator.Mix = .realistic) throws -> (InMemoryEventLog, SessionInfo, [StoredEvent]) {
        var g = SessionGenerator(seed: seed, mix: mix)
        let log = InMemoryEventLog(snapshotInterval: 64, clock: { 1_700_000_000_000 })
        let info = try log.createSession(NewSession(label: "generated"))
        let events = g.events(n).enumerated().map { i, e in
            RecordedEvent(e, meta: EventMetadata(timestamp: 1_700_000_000_000 + Int64(i) * 250, origin: i % 7 == 0 ? .user : .app,
                                                 callSite: CallSite(file: "App.swift", line: 10 + i % 5)))
        }
        let stored = try log.append(events, to: info.id, expectedSeq: 0)
        return (log, try log.session(info.id), stored)
    }

    @Test(arguments: [(UInt64(1), SessionGenerator.Mix.realistic), (2, .realistic), (3, .adversarial)])
    func splicesInOrderReproduceEveryStatesCanonicalJSON(_ seed: UInt64, _ mix: SessionGenerator.Mix) throws {
        let (log, info, stored) = try Self.session(1_500, seed: seed, mix: mix)
        let timeline = Timeline.build(header: .init(info), events: stored)
        #expect(timeline.entries.count == stored.count)
        #expect(timeline.initialStateJSON == NavigationState().json.canonicalText)
        let changedCount = try Self.checkEntries(timeline, stored, in: log, info.id)
        #expect(changedCount > stored.count / 3, "the generated session changes its state")
    }

    /// Every entry of `events`' timeline against the log's own states: the splices reproduce each
    /// state's canonical text, the changes are StateDiff's, and each range slices its value's text.
    static func checkAgainstTheLog(_ events: [RecordedEvent]) throws {
        let log = InMemoryEventLog(snapshotInterval: 64, clock: { 0 })
        let info = try log.createSession(NewSession(label: "checked"))
        let stored = try log.append(events, to: info.id, expectedSeq: 0)
        let timeline = Timeline.build(header: .init(try log.session(info.id)), events: stored)
        try checkEntries(timeline, stored, in: log, info.id)
    }

    /// Checks the entries of `timeline`, built from `stored`, session `id`'s events in `log`, in
    /// order against the log's own states: the splices reproduce each state's canonical text, the
    /// changes are StateDiff's, each range slices its value's text, and the outcome and digest are
    /// the stored event's. Returns how many entries change the state.
    @discardableResult
    static func checkEntries(_ timeline: Timeline, _ stored: [StoredEvent], in log: InMemoryEventLog, _ id: SessionID) throws -> Int {
        var text = timeline.initialStateJSON, previous = NavigationState()
        var changedCount = 0
        for (entry, event) in zip(timeline.entries, stored) {
            text = entry.splice.apply(to: text)
            // The reference: time travel through the log, as `routelog state REF@N --json` does.
            let state = try log.state(of: id, at: entry.seq)
            try #require(text == state.json.canonicalText, "seq \(entry.seq): \(event.event)")
            #expect(entry.changes == StateDiff.between(previous, state).changes, "seq \(entry.seq): \(event.event)")
            // A change's values are sliced out of the state texts where they are found there (the
            // tab id list is not a substring; it is carried as text).
            let before = Array(previous.json.canonicalText.utf16), after = Array(text.utf16)
            #expect(entry.changeRanges.count == entry.changes.count)
            for (c, r) in zip(entry.changes, entry.changeRanges) {
                if let old = r.old { #expect(c.old.map { Array($0.canonicalText.utf16) } == Array(before[old]), "seq \(entry.seq) \(c.path)") }
                if let new = r.new { #expect(c.new.map { Array($0.canonicalText.utf16) } == Array(after[new]), "seq \(entry.seq) \(c.path)") }
                if c.path != "tabs" { #expect((c.old == nil) == (r.old == nil) && (c.new == nil) == (r.new == nil), "seq \(entry.seq) \(c.path)") }
            }
            #expect(entry.outcome == event.outcome, "seq \(entry.seq)")
            #expect(entry.digest == event.digest, "seq \(entry.seq)")
            if entry.splice != .none { changedCount += 1 }
            previous = state
        }
        return changedCount
    }

    /// Each kind of edit the builder computes from the part of the state it touched: paths of the
    /// root, of a presentation and of a tab that is not selected; a presentation added, replaced,
    /// updated in place and removed; the selected tab; and the whole-state events around them.
    @Test func everyKindOfEditMatchesTheWholeStates() throws {
        func r(_ id: String, _ n: Int? = nil) -> RouteRef {
            RouteRef(id: id, type: n == nil ? nil : "T", payload: n.map { RawJSON(.object(["n": .int(Int64($0)), "s": .string("é😀<")])) })
        }
        var events: [Event] = [
            .push(r("a", 1)), .push(r("b")), .push(r("c", 3)), .pop(count: 2), .push(r("d")), .popToRoot(), .push(r("e")),
            .show(r("sheet"), style: .sheet), .push(r("in-sheet", 9)), .push(r("in-sheet-2")), .push(r("root-2"), frame: .root),
            .show(r("sheet", 4), style: .sheet, dismissible: false),  // in place: new payload and dismissible
            .show(r("cover"), style: .fullScreenCover, placement: .onTop), .push(r("in-cover")),
            .pop(frame: .presentation(8)), .show(r("alert"), style: .alert, placement: .onTop), .push(r("blocked")),
            .dismiss(.top), .interactiveDismiss(), .dismiss(.token(8)), .show(r("popover"), style: .popover),
            .dismiss(.all), .pop(count: 5),
            .setTabs(["home", "library"]), .push(r("h1")), .show(r("tab-sheet"), style: .sheet), .push(r("ts1")),
            .selectTab("library"), .push(r("l1")), .push(r("l2")), .pop(frame: .presentation(26)), .selectTab("home"),
            .setTabs(["library", "home", "search"], selected: "search"), .push(r("s1")), .dismiss(.token(26)),
            .reset(NavigationState(root: Frame(path: [r("x"), r("y")]))), .push(r("z")), .selectTab("nope"),
        ]
        for i in 0..<40 { events.append(i % 3 == 2 ? .pop() : .push(r("deep-\(i)", i))) }
        try Self.checkAgainstTheLog(events.map { RecordedEvent($0) })
    }

    /// A session whose stack grows deep: the page's data grows with the events, and the splices
    /// still lead to every state.
    @Test func deepPushSessionDataGrowsLinearly() throws {
        func deep(_ n: Int) -> [RecordedEvent] {
            (0..<n).map { RecordedEvent(.push(RouteRef(id: "screen-\($0)", payload: RawJSON(.object(["n": .int(Int64($0))]))))) }
        }
        func bytes(_ n: Int) -> Int {
            Timeline.build(header: Timeline.Header(session: "s", label: "deep", eventCount: UInt64(n), headDigest: ""), events: deep(n))
                .document().canonicalText.utf8.count
        }
        let a = bytes(2_000), b = bytes(4_000)
        #expect(Double(b) < 2.5 * Double(a), "2,000 deep: \(a) bytes, 4,000 deep: \(b) bytes")
        try Self.checkAgainstTheLog(deep(300) + [RecordedEvent(.pop(count: 150)), RecordedEvent(.popToRoot())])
    }

    @Test func splicesNeverSplitASurrogatePair() {
        let pairs: [(String, String)] = [
            (#"{"id":"a😀b"}"#, #"{"id":"a😁b"}"#),
            (#"{"id":"😀"}"#, #"{"id":"😀😀"}"#),
            ("x😀", "x😃"),
            ("😀y", "😃y"),
            ("", "😀"),
            ("😀", ""),
        ]
        for (a, b) in pairs {
            let s = Timeline.Splice.between(a, b)
            #expect(s.apply(to: a) == b, "\(a) → \(b)")
            #expect(!s.inserted.unicodeScalars.contains("\u{FFFD}"), "\(a) → \(b): \(s)")
        }
    }

    @Test func splicesAreSmall() {
        let a = #"{"root":{"path":[{"id":"inbox"},{"id":"thread-1"}],"presented":null}}"#
        let b = #"{"root":{"path":[{"id":"inbox"},{"id":"thread-1"},{"id":"thread-2"}],"presented":null}}"#
        let s = Timeline.Splice.between(a, b)
        #expect(s.removed == 0)
        #expect(s.inserted == #",{"id":"thread-2"}"#)
        #expect(s.apply(to: a) == b)
    }

    /// The file grows with events plus the size of the changes, not events × state size.
    @Test func documentGrowsWithEventsNotWithEventsTimesStateSize() throws {
        let (_, info1, small) = try Self.session(1_000, seed: 7)
        let (_, info2, large) = try Self.session(8_000, seed: 7)
        let a = Timeline.build(header: .init(info1), events: small).document().canonicalText.utf8.count
        let b = Timeline.build(header: .init(info2), events: large).document().canonicalText.utf8.count
        let perEvent = Double(b - a) / 7_000
        #expect(perEvent < 200, "bytes per event: \(perEvent)")
        // Deeper states later in a session must not make later events cost more per event.
        #expect(Double(b) / 8_000 < Double(a) / 1_000 * 1.6, "a: \(a), b: \(b)")
    }

    @Test func userTextIsEscapedInThePage() throws {
        let evil = "<img src=x onerror=alert(1)></script><script>alert(2)</script><!--"
        let log = InMemoryEventLog(snapshotInterval: 64, clock: { 0 })
        let info = try log.createSession(NewSession(label: evil, appName: evil, appVersion: "1</script>"))
        let stored = try log.append([
            RecordedEvent(.push(RouteRef(id: evil, type: evil, payload: RawJSON(.object(["html": .string(evil)])))),
                          meta: EventMetadata(callSite: CallSite(file: evil, line: 1), note: evil)),
            RecordedEvent(.show(RouteRef(id: evil), style: .alert)),
        ], to: info.id, expectedSeq: 0)
        let html = Timeline.build(header: .init(try log.session(info.id)), events: stored).html()
        #expect(!html.contains("<img"))
        #expect(!html.contains("alert(1)</"))
        #expect(html.components(separatedBy: "</script>").count == 3, "only the page's own two script elements end")
        #expect(!html.contains("<!--"))
        // The data element holds JSON that reads back to the same document.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"routelog-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = String(html[start.upperBound..<end.lowerBound])
        let parsed = try JSONValue(parsing: data)
        #expect(parsed["header"]?["label"]?.stringValue == evil)
        let events = try #require(parsed["chunk"]?["events"]?.arrayValue)
        #expect(events[0].arrayValue?[2].stringValue == "push " + evil)
    }

    @Test func escapeForHTML() {
        #expect(TimelinePage.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(TimelinePage.scriptSafe(#"["</script>"]"#) == #"["\u003c/script>"]"#)
    }

    @Test func chunksMergeFromAnyEncoder() throws {
        // A live page appends chunks from a new encoder: each chunk carries its own tables.
        let (_, info, stored) = try Self.session(300, seed: 11)
        let t = Timeline.build(header: .init(info), events: stored)
        var e1 = TimelineEncoder()
        let whole = e1.chunk(t.entries[...])
        var e2 = TimelineEncoder(origin: stored[0].meta.timestamp)
        let tail = e2.chunk(t.entries[200...])
        #expect(tail["from"]?.intValue == 201)
        let w = try #require(whole["events"]?.arrayValue), x = try #require(tail["events"]?.arrayValue)
        let wo = try #require(whole["outcomes"]?.arrayValue), xo = try #require(tail["outcomes"]?.arrayValue)
        for (i, ev) in x.enumerated() {
            let a = try #require(w[200 + i].arrayValue), b = try #require(ev.arrayValue)
            #expect(a[0] == b[0] && a[2] == b[2] && a[5...8] == b[5...8])
            #expect(wo[Int(a[3].intValue!)] == xo[Int(b[3].intValue!)])
        }
    }
}
