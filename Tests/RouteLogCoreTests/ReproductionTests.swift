@_spi(Tools) import RouteLogCore
import Testing

/// A run reproduced from the state it started in: its fixture replays to the screens the session
/// showed after the run's last event, whatever the start held (tabs, stacks, presentations in
/// presentations) and whatever tokens the run's events name.
@Suite struct ReproductionTests {
    /// 300 generated sessions (realistic and adversarial mixes), each cut into a "run" at a
    /// seeded seq: the fixture's setup events build the start's screens exactly, and the whole
    /// fixture ends on the session's screens at the run's last seq.
    @Test(arguments: [SessionGenerator.Mix.realistic, .adversarial])
    func aRunReplaysToTheScreensItEndedOn(mix: SessionGenerator.Mix) throws {
        var built = 0
        for seed in UInt64(1)...150 {
            var g = SessionGenerator(seed: seed, mix: mix)
            let events = g.events(120).map { RecordedEvent($0) }
            var rng = SplitMix64(seed: seed &* 7)
            let first = UInt64(rng.next() % 100) + 1
            let last = first + UInt64(rng.next() % 20)
            let before = replay(events.prefix(Int(first - 1)).map(\.event)).state
            let after = replay(events.prefix(Int(last)).map(\.event)).state
            guard let setup = Reproduction.building(before) else { continue }
            built += 1
            #expect(ScreenLayout(replay(setup.events).state) == ScreenLayout(before), "seed \(seed): setup")
            let fixture = try #require(Reproduction.fixture(name: "run", description: "", session: nil, start: before, firstSeq: first,
                                                            run: Array(events[Int(first - 1)..<Int(last)])))
            let result = replay(fixture.events.map(\.event))
            #expect(ScreenLayout(result.state) == ScreenLayout(after), "seed \(seed), run \(first)…\(last)")
            // The run's events keep their outcomes: each rejection stays a rejection, each
            // applied event stays applied (its tokens name the same presentations).
            let original = replay(events.prefix(Int(last)).map(\.event)).steps.suffix(Int(last - first + 1)).map(\.outcome.isApplied)
            #expect(Array(result.steps.suffix(original.count).map(\.outcome.isApplied)) == original, "seed \(seed)")
            #expect(fixture.check().passed)
        }
        // Nearly every start can be built by calls (a generated state always can: it was).
        #expect(built >= 145, "built \(built) of 150")
    }

    @Test func aStartWithTabsAndAChainIsBuiltByCalls() throws {
        var r = Replayer()
        r.apply(.setTabs(["home", "library"], selected: "home"))
        r.apply(.push(RouteRef(id: "episode-42")))
        r.apply(.show(RouteRef(id: "player"), style: .sheet))
        r.apply(.push(RouteRef(id: "queue")))
        r.apply(.show(RouteRef(id: "share"), style: .fullScreenCover, dismissible: false, placement: .onTop))
        r.apply(.selectTab("library"))
        r.apply(.push(RouteRef(id: "downloads")))
        let setup = try #require(Reproduction.building(r.state))
        #expect(ScreenLayout(replay(setup.events).state) == ScreenLayout(r.state))
        #expect(ScreenLayout(r.state).description
            == "[home] episode-42 ┃ sheet player ▸ queue ┃ fullScreenCover share; [library*] downloads")
        // A swipe on the player (token 3 in the session) names the player's new token in the fixture.
        let fixture = try #require(Reproduction.fixture(name: "run", description: "", session: nil, start: r.state, firstSeq: 8,
                                                        run: [RecordedEvent(.selectTab("home")), RecordedEvent(.dismiss(.token(3)))]))
        let end = replay(fixture.events.map(\.event))
        #expect(end.steps.last?.outcome.isApplied == true)
        #expect(ScreenLayout(end.state).description == "[home*] episode-42; [library] downloads")
    }

    @Test func theShortestPathReachesTheSameScreens() throws {
        let events = [
            Event.push(RouteRef(id: "a")), .push(RouteRef(id: "b")), .pop(), .show(RouteRef(id: "s"), style: .sheet),
            .dismiss(), .push(RouteRef(id: "c")), .show(RouteRef(id: "t"), style: .sheet),
        ].map { RecordedEvent($0) }
        let target = replay(events.map(\.event)).state
        let shortest = try #require(try Reproduction.shortest(events, reaching: target))
        #expect(shortest.elements.map(\.event) == [.push(RouteRef(id: "a")), .push(RouteRef(id: "c")), .show(RouteRef(id: "t"), style: .sheet)])
        #expect(ScreenLayout(replay(shortest.elements.map(\.event)).state) == ScreenLayout(target))
    }

    /// On generated sessions the shortest path reaches the screens, and every event in it is
    /// needed: without any one of them the screens differ.
    @Test func theShortestPathOfGeneratedSessionsIsMinimal() throws {
        for seed in UInt64(1)...40 {
            var g = SessionGenerator(seed: seed)
            let events = g.events(60).map { RecordedEvent($0) }
            let target = replay(events.map(\.event)).state
            let shortest = try #require(try Reproduction.shortest(events, reaching: target), "seed \(seed)")
            let plain = shortest.elements.map(\.event)
            #expect(ScreenLayout(replay(plain).state) == ScreenLayout(target), "seed \(seed)")
            for i in plain.indices {
                var keep = Array(plain.indices)
                keep.remove(at: i)
                #expect(ScreenLayout(replay(Minimize.subsequence(of: plain, keeping: keep)).state) != ScreenLayout(target),
                        "seed \(seed): event \(i) is not needed")
            }
        }
    }
}

extension ReproductionTests {
    /// A prefix too long to minimize in reasonable time is refused, not searched for hours.
    @Test func aLongPrefixIsRefused() throws {
        let events = (0..<50).map { RecordedEvent(.push(RouteRef(id: "r\($0)"))) }
        let target = replay(events.map(\.event)).state
        #expect(throws: ShortestPathError.tooLong(events: 50, limit: 20)) { try Reproduction.shortest(events, reaching: target, limit: 20) }
        #expect(try Reproduction.shortest(events, reaching: target, limit: 50)?.elements.count == 50)
    }
}

extension ReproductionTests {
    /// The search for a shortest path stops at its budget (a count of events folded, not a time):
    /// the answer so far reaches the screens, says it is not complete, and is the same every time.
    @Test func theShortestPathSearchStopsAtItsBudget() throws {
        // Two tabs pushed onto in turn: every push is needed, most tab switches are not.
        let plain: [Event] = [.setTabs(["a", "b"], selected: "a")] + (0..<100).flatMap { i -> [Event] in
            [.selectTab("a"), .push(RouteRef(id: "a\(i)")), .selectTab("b"), .push(RouteRef(id: "b\(i)"))]
        }
        let events = plain.map { RecordedEvent($0) }
        let target = replay(plain).state
        let cut = try #require(try Reproduction.shortestPath(events, reaching: target, budget: 20_000))
        #expect(!cut.complete && cut.folds <= 20_000)
        #expect(ScreenLayout(replay(cut.result.elements.map(\.event)).state) == ScreenLayout(target))
        let again = try #require(try Reproduction.shortestPath(events, reaching: target, budget: 20_000))
        #expect(again.result.indices == cut.result.indices && again.folds == cut.folds)
        // With room enough it ends: the tabs, the 200 pushes and the 199 switches between them
        // (the first switch to a is not needed).
        let full = try #require(try Reproduction.shortestPath(events, reaching: target))
        #expect(full.complete && full.result.elements.count == 400 && full.result.elements.count <= cut.result.elements.count)
        #expect(ScreenLayout(replay(full.result.elements.map(\.event)).state) == ScreenLayout(target))
    }

    /// Loops (a push and its pop, a show and its dismiss) go in one pass, whatever their number.
    @Test func loopsGoInOnePass() throws {
        var plain: [Event] = []
        for i in 0..<2_000 {
            if i % 200 == 0 { plain.append(.push(RouteRef(id: "keep-\(i / 200)"))) }
            plain += i % 2 == 0 ? [.push(RouteRef(id: "detour")), .pop()] : [.show(RouteRef(id: "sheet"), style: .sheet), .dismiss()]
        }
        let target = replay(plain).state
        let found = try #require(try Reproduction.shortestPath(plain.map { RecordedEvent($0) }, reaching: target, budget: 0))
        #expect(found.complete && found.result.elements.count == 10 && found.folds <= plain.count + 10)
    }
}
