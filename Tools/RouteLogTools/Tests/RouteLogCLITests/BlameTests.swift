import Foundation
@testable import RouteLogCLI
@testable import RouteLogSessions
@_spi(Tools) import RouteLogCore
import Testing

/// `routelog blame`, `routelog lifetimes` and the whole-state predicates, run in-process.
struct BlameTests: InProcessSuite {
    let dir: TempDir

    /// A shop: the checkout cover is presented twice (once over an address sheet).
    static let shop: [RecordedEvent] = [
        RecordedEvent(.setTabs(["home", "cart"], selected: "home"), meta: Sessions.at(0)),                                  // 1
        RecordedEvent(.push(RouteRef(id: "product")), meta: Sessions.at(100, .user)),                                        // 2
        RecordedEvent(.show(RouteRef(id: "checkout"), style: .fullScreenCover), meta: Sessions.at(200)),                     // 3
        RecordedEvent(.push(RouteRef(id: "shipping")), meta: Sessions.at(300, .user)),                                       // 4
        RecordedEvent(.show(RouteRef(id: "address"), style: .sheet, placement: .onTop), meta: Sessions.at(400)),             // 5
        RecordedEvent(.show(RouteRef(id: "checkout"), style: .fullScreenCover, placement: .onTop), meta: Sessions.at(500)),  // 6
        RecordedEvent(.show(RouteRef(id: "checkout"), style: .fullScreenCover, dismissible: false, placement: .onTop), meta: Sessions.at(550)), // 7: in place
        RecordedEvent(.interactiveDismiss(), meta: Sessions.at(600, .user)),                                                 // 8: rejected
        RecordedEvent(.dismiss(.top), meta: Sessions.at(700)),                                                               // 9
        RecordedEvent(.pop(frame: .root), meta: Sessions.at(800, .user)),                                                   // 10
        RecordedEvent(.selectTab("cart"), meta: Sessions.at(900, .user)),                                                    // 11
    ]

    static func directory() throws -> TempDir {
        let dir = try TempDir.withUpsell()
        try dir.writeSession("shop.json", Self.shop, label: "shop")
        try dir.writeSession("empty.json", [], label: "empty")
        return dir
    }

    @Test func blameText() async throws {
        let r = await run(["blame", "$/shop.json@7"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r)")
        try Golden.check(r.stdout, "blame-shop-7.txt")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        // Each element names the event that put it there in its present form, and its removal.
        #expect(lines.contains { $0.hasPrefix(" 2  push product") && $0.contains("[0] product") && $0.contains("removed at 10 (pop in root)") }, "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix(" 7  show fullScreenCover checkout ") && $0.contains("fullScreenCover #6: checkout") && $0.contains("removed at 9 (dismiss)") }, "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix(" 3  show fullScreenCover checkout ") && $0.contains("fullScreenCover #3: checkout") && !$0.contains("removed") }, "\(r.stdout)")
        #expect(lines.contains { $0.contains("tab home  (selected)") && $0.contains("selected by 1 (setTabs") && $0.contains("unselected at 11 (selectTab cart)") }, "\(r.stdout)")
        // The tree is `state`'s tree: the same lines after the prefixes.
        let state = await run(["state", "$/shop.json@7"])
        let tree = state.stdout.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("tab ") && $0 != "root" }
        let blamed = lines.dropFirst().map { line -> String in
            let body = line.split(separator: "│ ", maxSplits: 1).last.map(String.init) ?? line
            return body.components(separatedBy: "  ⟶")[0].components(separatedBy: "  selected by")[0]
        }
        #expect(Array(tree) == blamed)
    }

    @Test func blameJSONAndLatest() async throws {
        let r = await run(["blame", "$/shop.json", "--json"])
        #expect(r.status == 0, "\(r)")
        guard case .object(let o) = try r.stdout.json(), case .array(let elements)? = o["elements"] else { Issue.record("no elements: \(r)"); return }
        #expect(o["seq"] == .int(11))
        // The second checkout was dismissed at 9; the first is still there.
        let checkout = elements.filter { $0.field("id") == .string("checkout") }
        #expect(checkout.count == 1)
        #expect(checkout.first?.field("put") == .int(3) && checkout.first?.field("putEvent") == .string("show fullScreenCover checkout"))
        #expect(elements.first { $0.field("kind") == .string("selection") }?.field("put") == .int(11))
    }

    @Test func lifetimesTextAndFilters() async throws {
        let r = await run(["lifetimes", "$/shop.json"])
        #expect(r.status == 0, "\(r)")
        try Golden.check(r.stdout, "lifetimes-shop.txt")
        let checkout = await run(["lifetimes", "$/shop.json", "--route", "checkout", "--json"])
        guard case .object(let o) = try checkout.stdout.json(), case .array(let l)? = o["lifetimes"] else { Issue.record("\(checkout)"); return }
        #expect(l.map { $0.field("start") } == [.int(3), .int(6)])
        #expect(l.map { $0.field("end") } == [.null, .int(9)])
        #expect(l[1].field("updates") == .array([.int(7)]))
        #expect(l[1].field("depth") == .int(2) && l[1].field("placement") == .string("onTop"))
        #expect(o["rejected"] == .array([.int(8)]))
        let none = await run(["lifetimes", "$/shop.json", "--route", "nope"])
        #expect(none.status == 0 && none.stdout.contains("no screen with route id nope"))
    }

    @Test func rowWidthsAreTheRowsWidths() {
        // With tabs, tokens, in-place updates, ends and reset-made presentations; and without tabs.
        let cover = Presentation(token: 12, route: RouteRef(id: "welcome"), style: .fullScreenCover, content: Frame(path: [RouteRef(id: "terms")]))
        let home = Tab(id: "home", root: Frame(path: [RouteRef(id: "product")], presented: cover))
        let reset = RecordedEvent(.reset(NavigationState(tabs: [home], selectedTab: "home")))
        for events in [Self.shop + [reset], Sessions.upsell] {
            let lives = Lifetimes(events: events.map(\.event))
            #expect(lives.all.count > 5)
            if events.count == Self.shop.count + 1 { #expect(lives.all.contains { $0.kind == .presentation && $0.createdBy == .reset && $0.placement == nil }) }
            for l in lives.all {
                #expect(BlameRender.rowWidths(l) == BlameRender.row(l, events: [:]).map(Render.visibleWidth), "\(l)")
            }
        }
    }

    @Test func badInputIsAOneLineError() async throws {
        CLI.expectError(await run(["blame", "$/shop.json@99"]), status: 2, "seq out of range: 99")
        CLI.expectError(await run(["lifetimes", "$/shop.json@3"]), status: 2, "lifetimes covers the whole session")
        CLI.expectError(await run(["lifetimes", "$/missing.json"]), status: 2, "no such file: missing.json")
        CLI.expectError(await run(["blame", "$/shop.json@x"]), status: 2, "expected a seq number after '@'")
        // A session without events (an app that has just started) is not an error, as in log and state.
        let empty = await run(["blame", "$/empty.json"])
        #expect(empty.status == 0 && empty.stdout.contains("at seq 0 of 0") && empty.stdout.contains("root"), "\(empty)")
        let emptyLives = await run(["lifetimes", "$/empty.json"])
        #expect(emptyLives.status == 0 && emptyLives.stdout.contains("has no events yet"), "\(emptyLives)")
        let emptyJSON = await run(["lifetimes", "$/empty.json", "--json"])
        #expect(emptyJSON.status == 0 && emptyJSON.stdout.contains(#""lifetimes":[]"#), "\(emptyJSON)")
        let zero = await run(["blame", "$/shop.json@0"])
        #expect(zero.status == 0 && zero.stdout.contains("root"), "\(zero)")
    }

    @Test func helpTexts() async throws {
        try Golden.check(await run(["help", "blame"]).stdout, "help-blame.txt")
        try Golden.check(await run(["help", "lifetimes"]).stdout, "help-lifetimes.txt")
        let predicates = await run(["help", "predicates"])
        #expect(predicates.status == 0 && predicates.stdout.contains("count(COLLECTION, CONDITION)") && predicates.stdout.contains("chain.ids"), "\(predicates)")
    }

    // MARK: - Whole-state predicates

    static func holds(_ source: String, _ state: NavigationState) throws -> Bool {
        try Predicate(source).holds(in: PredicateContext(seq: 1, state: state, event: nil, outcome: nil))
    }

    @Test func collectionPredicatesReadEveryElement() throws {
        var s = NavigationState()
        for (i, e) in Self.shop.prefix(7).enumerated() { s.apply(e.event, seq: UInt64(i + 1)) }
        #expect(try Self.holds(#"count(chain, id == "checkout") >= 2"#, s))
        #expect(try !Self.holds(#"count(chain, id == "checkout") >= 3"#, s))
        #expect(try Self.holds(#"count(chain, id == "checkout" && !dismissible) == 1"#, s))
        #expect(try Self.holds(#"count(chain, style == "sheet" && level == 2) == 1"#, s))
        #expect(try Self.holds(#"chain.ids contains "address" && !(chain.ids contains "product")"#, s))
        #expect(try Self.holds(#"paths.ids contains "product" && paths.ids contains "shipping""#, s))
        #expect(try Self.holds(#"count(paths, id == "shipping" && level == 1 && index == 0 && tab == "home") == 1"#, s))
        #expect(try Self.holds(#"count(tabs, selected && path.count == 1 && depth == 3) == 1 && tabs.ids contains "cart""#, s))
        #expect(try Self.holds(#"count(tabs, id == "cart" && depth == 0) == 1"#, s))
        // Global fields are still readable inside a condition.
        #expect(try Self.holds(#"count(chain, id == top.id) == 2"#, s))
        #expect(try Self.holds(#"count(paths, true) == 2 && count(chain, true) == depth"#, s))
    }

    static let collectionErrors: [(String, Int, String)] = [
        (#"count(stack, id == "x") > 1"#, 7, "count( needs a collection (chain, paths, tabs)"),
        (#"count(chain id == "x") > 1"#, 13, "expected ',' and a condition after count(chain"),
        (#"count(chain, index == 1) > 1"#, 14, "unknown field 'index' of chain"),
        (#"count(chain, id) > 1"#, 14, "the condition of count(…) must be true or false"),
        (#"count(chain, id == "x" > 1"#, 24, "comparisons do not chain"),
        (#"count(chain, count(paths, true) > 1) > 1"#, 14, "cannot be nested"),
        (#"count(chain, id == "x")"#, 1, "the predicate must be true or false"),
    ]

    @Test(arguments: collectionErrors)
    func collectionSyntaxErrorsPointAtTheColumn(_ source: String, _ column: Int, _ message: String) {
        let error = PredicateTests.error(parsing: source)
        #expect(error?.column == column, "\(source): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(source): \(String(describing: error))")
    }

    @Test func bisectAndMinimizeWithAWholeChainPredicate() async throws {
        let predicate = #"count(chain, id == "checkout") >= 2"#
        let b = await run(["bisect", "$/shop.json", "--predicate", predicate, "--json"])
        #expect(b.status == 1, "\(b)")
        guard case .object(let o) = try b.stdout.json() else { Issue.record("\(b)"); return }
        #expect(o["seq"] == .int(6))
        let m = await run(["minimize", "$/shop.json", "--predicate", predicate, "-o", "$/min.json"])
        #expect(m.status == 0, "\(m)")
        let fixture = try Fixture.load(dir.url.appendingPathComponent("min.json").path)
        let final = replay(fixture.events.map(\.event)).state
        #expect(final.presentationChain.filter { $0.route.id == "checkout" }.count >= 2)
        #expect(fixture.events.count <= 4, "\(fixture.events.count) events")
    }
}

extension JSONValue {
    /// The value of `key` in an object (nil otherwise).
    func field(_ key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}
