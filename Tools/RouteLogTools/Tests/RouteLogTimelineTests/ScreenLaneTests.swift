import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline
import Testing

/// The "on screen" lane: bars and marks from a session's screen records.
@Suite struct ScreenLaneTests {
    static let t0: Int64 = 1_700_000_000_000
    static let home = ScreenID.tabRoot("home")
    static let a = ScreenID.stackEntry(frame: .root, index: 0, routeID: "a", tab: "home")
    static let b = ScreenID.stackEntry(frame: .root, index: 0, routeID: "b", tab: "home")
    static let sheet = ScreenID.presentation(token: 2, routeID: "sheet")
    static let gone = Divergence(kind: .notOnScreen, screen: sheet, seq: 3, cause: .removedWithoutWrite, detectedAt: t0 + 2300)

    /// Seqs 1…4: the tab's root from the start, `a` pushed at 1, a sheet shown at 2 that the system
    /// removed after seq 3 (found a second later), `a` replaced by `b` at 4 (`a` reported gone
    /// without its tab, as a navigator records it).
    static let records: [ScreenRecord] = [
        ScreenRecord(.appeared(home), headSeq: 0, time: t0 - 500),
        ScreenRecord(.appeared(a), headSeq: 1, time: t0 + 100),
        ScreenRecord(.appeared(sheet), headSeq: 2, time: t0 + 200),
        ScreenRecord(.appeared(sheet), headSeq: 2, time: t0 + 250),  // reported twice: one bar
        ScreenRecord(.disappeared(sheet), headSeq: 3, time: t0 + 1300),
        ScreenRecord(.diverged(gone), headSeq: 3, time: t0 + 2300),
        ScreenRecord(.disappeared(.stackEntry(frame: .root, index: 0, routeID: "a")), headSeq: 4, time: t0 + 3000),
        ScreenRecord(.appeared(b), headSeq: 4, time: t0 + 3010),
    ]

    @Test func noRecordsNoLane() throws {
        #expect(ScreenLane([]) == nil)
        // Neither page has a "screens" member: a session without screen records is drawn as before.
        let events = [RecordedEvent(.push(RouteRef(id: "a"))), RecordedEvent(.show(RouteRef(id: "sheet"), style: .sheet))]
        let t = Timeline.build(header: Self.header, events: events)
        #expect(t.screens == nil && t.document()["screens"] == nil)
        var c = Timeline.Collector()
        for e in events { c.add(e) }
        #expect(try Self.data(c)["screens"] == nil)
    }

    @Test func barsFromAppearancesAndMarksAtTheDivergencesSeqs() throws {
        let lane = try #require(ScreenLane(Self.records))
        #expect(lane.records == 8 && lane.rows == 3)
        let bars = lane.bars.map { [$0.screen.description, "\($0.row)", "\($0.start)", $0.end.map(String.init) ?? "-", $0.diverged ? "!" : ""] }
        #expect(bars == [
            ["tab home", "0", "0", "-", ""],
            ["a at root[0] of tab home", "1", "1", "4", ""],
            ["sheet (#2)", "2", "2", "3", "!"],
            ["b at root[0] of tab home", "1", "4", "-", ""],
        ])
        #expect(lane.bars[2].appearedAt == Self.t0 + 200 && lane.bars[2].disappearedAt == Self.t0 + 1300)
        #expect(lane.marks == [ScreenLane.Mark(divergence: Self.gone, headSeq: 3, time: Self.t0 + 2300)])
        #expect(lane.onScreen(at: 0) == [Self.home])
        #expect(lane.onScreen(at: 2) == [Self.home, Self.a, Self.sheet])
        #expect(lane.onScreen(at: 3) == [Self.home, Self.a])
        #expect(lane.onScreen(at: 4) == [Self.home, Self.b])
        // The page's data: five numbers a bar, times from the session's first event, marks with their line.
        let json = lane.json(origin: Self.t0)
        #expect(json["bars"]?.arrayValue?.compactMap(\.intValue) == [0, 0, -1, 0, 0, 1, 1, 4, 1, 0, 2, 2, 3, 2, 1, 1, 4, -1, 1, 0])
        #expect(json["times"]?.arrayValue?.map(\.intValue) == [-500, nil, 100, 3000, 200, 1300, 3010, nil])
        #expect(json["marks"] == .array([.array([.int(3), .int(3), .int(2300), .string("notOnScreen"),
                                                 .string("#3 not on screen: sheet (#2) (likely cause: removed without its binding write)")])]))
        #expect(json["ids"]?.arrayValue?.compactMap(\.stringValue) == lane.bars.map(\.screen.description))
    }

    @Test func aScreenGoneAtTheSameHeadTakesItsSeqAndAScreenGoneUnreportedStartsAtZero() throws {
        let flash = ScreenID.presentation(token: 5, routeID: "toast")
        let lane = try #require(ScreenLane([
            ScreenRecord(.disappeared(Self.home), headSeq: 2, time: Self.t0),  // there before the first report
            ScreenRecord(.appeared(flash), headSeq: 5, time: Self.t0 + 10),
            ScreenRecord(.disappeared(flash), headSeq: 5, time: Self.t0 + 90),
            ScreenRecord(.appeared(Self.a), headSeq: 5, time: Self.t0 + 100),
            ScreenRecord(.appeared(Self.b), headSeq: 6, time: Self.t0 + 200),
        ]))
        #expect(lane.bars.map(\.row) == [0, 0, 1, 0])
        #expect(lane.bars[0].start == 0 && lane.bars[0].end == 2 && lane.bars[0].unreportedStart)
        #expect(lane.bars[1].start == 5 && lane.bars[1].end == 5)
        #expect(lane.onScreen(at: 5) == [Self.a] && lane.onScreen(at: 6) == [Self.b, Self.a])
        #expect(lane.json(origin: Self.t0)["bars"]?.arrayValue?.compactMap(\.intValue)[0..<5] == [0, 0, 2, 0, 2])
    }

    @Test func aPartOfASessionKeepsWhatIsOnScreenInItsSeqs() throws {
        // Seqs 3…3 (the page starts from the state after seq 3): the sheet, gone at 3, is left
        // out; the tab's root and `a` are there from 3 on, `a` still there at the page's end; `b`
        // comes after it. The divergence at seq 3 is on the page; with seqs 4…4 it is not.
        let lane = try #require(ScreenLane(Self.records, first: 3, last: 3))
        #expect(lane.bars.map(\.screen) == [Self.home, Self.a])
        #expect(lane.bars.map(\.start) == [3, 3] && lane.bars.map(\.end) == [nil, nil])
        #expect(lane.bars.allSatisfy { $0.appearedAt == nil })
        #expect(lane.marks.map(\.divergence) == [Self.gone])
        let later = try #require(ScreenLane(Self.records, first: 4))
        #expect(later.marks.isEmpty && later.bars.map(\.screen) == [Self.home, Self.b])
    }

    @Test func aReportPageCarriesTheLaneOfItsRecords() throws {
        var c = Timeline.Collector()
        for e in [RecordedEvent(.setTabs(["home"], selected: "home")), RecordedEvent(.push(RouteRef(id: "a"))),
                  RecordedEvent(.show(RouteRef(id: "sheet"), style: .sheet)), RecordedEvent(.push(RouteRef(id: "c"), frame: .root)),
                  RecordedEvent(.push(RouteRef(id: "b"), frame: .root))] {
            c.add(e)
        }
        c.screenRecords = Self.records
        let screens = try #require(try Self.data(c)["screens"])
        #expect(screens == ScreenLane(Self.records, first: 0, last: 5)?.json(origin: nil))
        #expect(screens["rows"]?.intValue == 3 && screens["marks"]?.arrayValue?.count == 1)
    }

    static let header = Timeline.Header(session: "s", label: "screens", eventCount: 2, headDigest: "")

    /// The data document of a collector's page.
    static func data(_ c: Timeline.Collector) throws -> JSONValue {
        let html = String(decoding: c.page(header: header).joined(), as: UTF8.self)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"routelog-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONValue(parsing: String(html[start.upperBound..<end.lowerBound]))
    }
}
