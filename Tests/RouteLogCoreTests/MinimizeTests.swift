import Testing
@_spi(Tools) import RouteLogCore

/// Failure predicates over a replayed session, each a plausible bug report.
private let failures: [(String, @Sendable ([Event]) -> Bool)] = [
    ("a stale swipe", { events in replay(events).steps.contains { $0.outcome == .rejected(.stale) } }),
    ("a swipe on a non-dismissible sheet", { events in replay(events).steps.contains { $0.outcome == .rejected(.notDismissible) } }),
    ("an in-place update", { events in replay(events).steps.contains { $0.outcome == .applied(.updatedInPlace) } }),
    ("root path ends at 3 or more", { events in replay(events).state.root.path.count >= 3 }),
    ("two presentations deep at the end", { events in replay(events).state.allTokens().count >= 2 }),
    ("blocked by an alert, then tabs", { events in
        let steps = replay(events).steps
        guard let i = steps.firstIndex(where: { $0.outcome == .rejected(.blockedByAlert) }) else { return false }
        return events[(i + 1)...].contains { if case .setTabs = $0 { true } else { false } }
    }),
]

@Suite struct MinimizeTests {
    @Test func ddminFindsTheTwoCulprits() throws {
        var calls = 0
        let result = try Minimize.ddmin(Array(0..<40)) { items in
            calls += 1
            return items.contains(3) && items.contains(27)
        }
        #expect(result.elements == [3, 27])
        #expect(result.indices == [3, 27])
        #expect(result.predicateCalls == calls)
        #expect(calls < 80, "calls \(calls)")
    }

    @Test func inputThatDoesNotFailIsAnError() {
        #expect(throws: MinimizeError.inputDoesNotFail(count: 3)) {
            try Minimize.events([.push(r("a")), .pop(), .pop()]) { _ in false }
        }
        #expect(MinimizeError.inputDoesNotFail(count: 3).description == "the input (3 events) does not fail the predicate, so it cannot be minimized")
        struct Boom: Error {}
        #expect(throws: Boom.self) { try Minimize.ddmin([1, 2, 3]) { _ in throw Boom() } }
    }

    @Test func alwaysFailingShrinksToNothing() throws {
        let result = try Minimize.events([.push(r("a")), .pop(), .push(r("b"))]) { _ in true }
        #expect(result.elements.isEmpty)
        #expect(result.indices.isEmpty)
    }

    @Test func renumberingKeepsTokenReferencesPointingAtTheSamePresentation() throws {
        var events: [Event] = (0..<20).map { .push(r("s\($0)")) }
        events.append(.show(r("upsell"), style: .sheet, dismissible: false))  // seq 21, token 21
        events += (0..<10).map { .push(r("in\($0)")) }
        events.append(.interactiveDismiss(token: 21))
        let failing: ([Event]) -> Bool = { replay($0).steps.contains { $0.outcome == .rejected(.notDismissible) } }
        let result = try Minimize.events(events, failing: failing)
        #expect(result.elements == [.show(r("upsell"), style: .sheet, dismissible: false), .interactiveDismiss(token: 1)])
        #expect(result.indices == [20, 31])
        // Without renumbering, the swipe only names the sheet while the sheet stays at seq 21.
        let plain = try Minimize.events(events, renumberingTokens: false, failing: failing)
        #expect(plain.elements.count == 22)
        #expect(failing(plain.elements))
    }

    @Test func subsequenceRenumbering() {
        var resetState = NavigationState()
        resetState.apply(.show(r("deep"), style: .sheet), seq: 3)
        let events: [Event] = [
            .push(r("a")),                                              // 1
            .show(r("s"), style: .sheet),                               // 2
            .reset(resetState),                                         // 3: holds token 3
            .push(r("b"), frame: .presentation(3)),                     // 4
            .dismiss(.token(2)),                                        // 5
            .show(r("t"), style: .sheet, placement: .in(.presentation(3))), // 6
            .interactiveDismiss(token: 0),                              // 7
            .interactiveDismiss(token: 99),                             // 8
        ]
        #expect(Minimize.subsequence(of: events, keeping: Array(0..<8)) == events)
        let sub = Minimize.subsequence(of: events, keeping: [2, 3, 4, 5, 6, 7])
        var renumbered = NavigationState()
        renumbered.apply(.show(r("deep"), style: .sheet), seq: 1)
        #expect(sub == [
            .reset(renumbered),
            .push(r("b"), frame: .presentation(1)),
            .dismiss(.token(8 + 2)),  // the sheet of event 2 is gone: a token that names nothing
            .show(r("t"), style: .sheet, placement: .in(.presentation(1))),
            .interactiveDismiss(token: 0),
            .interactiveDismiss(token: 99),
        ])
        if case .reset(let s) = sub[0] { #expect(s.digest == s.computeDigest()) }
        #expect(Minimize.subsequence(of: events, keeping: [1, 4], renumberingTokens: false) == [events[1], events[4]])
    }

    @Test func recordedEventsKeepTheirMetadata() throws {
        let events: [RecordedEvent] = (0..<12).map { i in
            RecordedEvent(i == 7 ? .pop(count: 9) : .push(r("p\(i)")), meta: EventMetadata(timestamp: Int64(1000 + i), origin: .user))
        }
        let result = try Minimize.events(events) { replay($0).steps.contains { $0.outcome == .rejected(.stackTooShort) } }
        #expect(result.indices == [7])
        #expect(result.elements == [events[7]])
    }

    /// On random sessions: the result still fails, no single removal keeps it failing, the count
    /// of predicate calls is exact, and a second run gives the same answer.
    @Test(arguments: [true, false])
    func resultsAreOneMinimal(renumbering: Bool) throws {
        var minimized = 0
        for seed in UInt64(1)...25 {
            var g = SessionGenerator(seed: seed, mix: seed % 4 == 0 ? .adversarial : .realistic)
            let events = g.events(60 + Int(seed % 7) * 20)
            for (name, fails) in failures where fails(events) {
                let note = "seed \(seed) renumbering \(renumbering) \(name)"
                var calls = 0
                let result = try Minimize.events(events, renumberingTokens: renumbering) { candidate in
                    calls += 1
                    return fails(candidate)
                }
                minimized += 1
                #expect(result.predicateCalls == calls, "\(note)")
                #expect(result.elements == Minimize.subsequence(of: events, keeping: result.indices, renumberingTokens: renumbering), "\(note)")
                #expect(fails(result.elements), "\(note): the result no longer fails")
                #expect(result.indices == result.indices.sorted() && Set(result.indices).count == result.indices.count, "\(note)")
                for k in result.indices.indices {
                    var keep = result.indices
                    keep.remove(at: k)
                    let smaller = Minimize.subsequence(of: events, keeping: keep, renumberingTokens: renumbering)
                    #expect(!fails(smaller), "\(note): still fails without index \(result.indices[k]) of \(result.indices)")
                }
                let again = try Minimize.events(events, renumberingTokens: renumbering, failing: fails)
                #expect(again.indices == result.indices && again.predicateCalls == result.predicateCalls, "\(note): not deterministic")
            }
        }
        #expect(minimized >= 40, "only \(minimized) sessions failed a predicate; the test would prove little")
    }
}
