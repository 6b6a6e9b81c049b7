import Testing
@_spi(Tools) @testable import RouteLogCore

@Suite struct SessionDiffTests {
    let base: [Event] = [
        .push(r("a")), .push(r("b")), .show(r("s"), style: .sheet), .push(r("in")), .pop(), .dismiss(), .push(r("c")),
    ]

    @Test func identicalSessions() {
        let d = SessionDiff.between(events: base, base)
        #expect(d.firstDivergence == nil)
        #expect(d.isEmpty)
        #expect(d.alignment == (1...7).map { .same(UInt64($0), UInt64($0)) })
        #expect(d.text() == """
            no divergence: 7 events, same digests
              … (7 unchanged)
            """)
    }

    @Test func changedEvent() {
        var b = base
        b[4] = .pop(count: 2, frame: .root)
        let d = SessionDiff.between(events: base, b)
        #expect(d.firstDivergence == 5)
        #expect(d.alignment == [.same(1, 1), .same(2, 2), .same(3, 3), .same(4, 4), .changed(5, 5), .same(6, 6), .same(7, 7)])
        #expect(!d.isEmpty)
        let da = replay(base).steps[4].digest.short, db = replay(b).steps[4].digest.short
        #expect(d.text() == """
            first divergence at seq 5: digest \(da) vs \(db)
              … (2 unchanged)
              a3 b3  {"show":{"route":{"id":"s"},"style":"sheet"}}
              a4 b4  {"push":{"route":{"id":"in"}}}
            - a5     {"pop":{}}
            +    b5  {"pop":{"count":2,"frame":"root"}}
              a6 b6  {"dismiss":{}}
              a7 b7  {"push":{"route":{"id":"c"}}}
            """)
        #expect(d.json.canonicalText == """
            {"alignment":[{"a":1,"b":1,"op":"same"},{"a":2,"b":2,"op":"same"},{"a":3,"b":3,"op":"same"},\
            {"a":4,"b":4,"op":"same"},{"a":5,"b":5,"op":"changed"},{"a":6,"b":6,"op":"same"},{"a":7,"b":7,"op":"same"}],\
            "digestA":"\(replay(base).steps[4].digest.hex)","digestB":"\(replay(b).steps[4].digest.hex)","firstDivergence":5}
            """)
    }

    @Test func insertedAndRemovedEvents() {
        var b = base
        b.insert(.push(r("extra")), at: 2)
        let d = SessionDiff.between(events: base, b)
        #expect(d.firstDivergence == 3)
        #expect(d.alignment == [.same(1, 1), .same(2, 2), .inserted(3), .same(3, 4), .same(4, 5), .same(5, 6), .same(6, 7), .same(7, 8)])
        let back = SessionDiff.between(events: b, base)
        #expect(back.firstDivergence == 3)
        #expect(back.alignment == [.same(1, 1), .same(2, 2), .removed(3), .same(4, 3), .same(5, 4), .same(6, 5), .same(7, 6), .same(8, 7)])
    }

    @Test func replacedRunPairsUpAsChangedThenLeftovers() {
        let a: [Event] = [.push(r("a")), .push(r("x")), .push(r("y")), .push(r("z")), .push(r("b"))]
        let b: [Event] = [.push(r("a")), .push(r("p")), .push(r("b"))]
        let d = SessionDiff.between(events: a, b)
        #expect(d.alignment == [.same(1, 1), .changed(2, 2), .removed(3), .removed(4), .same(5, 3)])
        #expect(d.firstDivergence == 2)
    }

    @Test func prefixSessionDivergesWhereItEnds() {
        let short = Array(base.prefix(4))
        let d = SessionDiff.between(events: base, short)
        #expect(d.firstDivergence == 5)
        #expect(d.alignment.suffix(3) == [.removed(5), .removed(6), .removed(7)])
        #expect(d.json["digestB"] == nil)
        #expect(d.text().hasPrefix("first divergence at seq 5: digest \(replay(base).steps[4].digest.short) vs (ended)"))
    }

    /// Same events, different digests: what a changed reducer looks like against a stored log.
    @Test func sameEventsDifferentDigests() throws {
        let log = InMemoryEventLog(snapshotInterval: 4, clock: { 1_700_000_000_000 })
        let s = try log.createSession(NewSession(label: "t"))
        try log.append(base.map { RecordedEvent($0, meta: EventMetadata(timestamp: 5)) }, to: s.id, expectedSeq: 0)
        let stored = try log.events(s.id)
        #expect(SessionDiff.between(stored, stored).isEmpty)
        let storedSteps = stored.map(SessionDiff.Step.init)
        var steps = storedSteps
        steps[5].digest = Digest(hi: 1, lo: 2)
        let d = SessionDiff.between(storedSteps, steps)
        #expect(d.firstDivergence == 6)
        #expect(d.alignment.allSatisfy { if case .same = $0 { true } else { false } })
        #expect(!d.isEmpty)
        // Metadata is not part of the comparison.
        let plain = SessionDiff.between(events: base, base)
        #expect(SessionDiff.between(storedSteps, plain.a).alignment == plain.alignment)
        #expect(SessionDiff.between(storedSteps, plain.a).firstDivergence == nil)
    }

    @Test func generatedSessionsAlignConsistently() {
        for seed in UInt64(1)...20 {
            var g = SessionGenerator(seed: seed)
            let a = g.events(200)
            var rng = SplitMix64(seed: seed &* 7919)
            var b = a
            for _ in 0..<5 {
                let i = Int(rng.next() % UInt64(b.count))
                switch rng.next() % 3 {
                case 0: b.remove(at: i)
                case 1: b.insert(.push(r("edit\(i)")), at: i)
                default: b[i] = .pop(count: 3)
                }
            }
            let d = SessionDiff.between(events: a, b)
            // Rebuild both lists from the alignment.
            var ra: [Event] = [], rb: [Event] = []
            for e in d.alignment {
                switch e {
                case .same(let x, let y):
                    #expect(a[Int(x) - 1] == b[Int(y) - 1], "seed \(seed)")
                    ra.append(a[Int(x) - 1]); rb.append(b[Int(y) - 1])
                case .removed(let x): ra.append(a[Int(x) - 1])
                case .inserted(let y): rb.append(b[Int(y) - 1])
                case .changed(let x, let y): ra.append(a[Int(x) - 1]); rb.append(b[Int(y) - 1])
                }
            }
            #expect(ra == a && rb == b, "seed \(seed)")
            // The first divergence is the first seq whose digests differ.
            let sa = replay(a).steps, sb = replay(b).steps
            let expected = (0..<max(sa.count, sb.count)).first { i in i >= sa.count || i >= sb.count || sa[i].digest != sb[i].digest }
            #expect(d.firstDivergence == expected.map { UInt64($0 + 1) }, "seed \(seed)")
        }
    }

    /// The edit script is a shortest one: its number of unchanged elements equals the LCS length.
    @Test func myersMatchesLCSLength() {
        var rng = SplitMix64(seed: 42)
        for round in 0..<400 {
            let (a, b) = randomLists(&rng, lengthBelow: 14, symbolsAtMost: 4)
            let n = a.count, m = b.count
            let ops = SequenceDiff.ops(a, b)
            var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
            let same = ops.filter { if case .same = $0 { true } else { false } }.count
            #expect(same == lcs[0][0], "round \(round): \(a) \(b)")
            expectEditScript(ops, from: a, to: b, "round \(round)")
        }
    }

    /// With a tiny cost limit the search splits heuristically: the script must stay valid, and
    /// it is never shorter than a shortest one.
    @Test func costLimitedScriptsStayValid() {
        var rng = SplitMix64(seed: 7)
        var longer = 0
        for round in 0..<300 {
            let (a, b) = randomLists(&rng, lengthBelow: 60, symbolsAtMost: 6)
            let exact = SequenceDiff.ops(a, b)
            for limit in [1, 2, 3, 5] {
                let ops = SequenceDiff.ops(a, b, costLimit: limit)
                expectEditScript(ops, from: a, to: b, "round \(round) limit \(limit)")
                #expect(ops.count >= exact.count, "round \(round) limit \(limit)")
                if ops.count > exact.count { longer += 1 }
            }
        }
        #expect(longer > 0, "the heuristic split was never taken")
        // Unrelated long lists finish and give a valid script.
        let a = (0..<20_000).map { _ in Int(rng.next() % 50) }
        let b = (0..<20_000).map { _ in Int(rng.next() % 50) }
        let ops = SequenceDiff.ops(a, b, costLimit: 64)
        let same = ops.filter { if case .same(let i, let j) = $0 { a[i] == b[j] } else { false } }.count
        #expect(ops.count - same == 40_000 - 2 * same)
    }

    /// A stored session against a replay of its own events: equal for a sound log; a changed
    /// outcome or digest in the record shows up at its seq.
    @Test func storedSessionAgainstItsReplay() throws {
        let log = InMemoryEventLog(snapshotInterval: 16, clock: { 1_700_000_000_000 })
        let s = try log.createSession(NewSession(label: "verify"))
        var g = SessionGenerator(seed: 11)
        try log.append(g.events(300).map { RecordedEvent($0) }, to: s.id, expectedSeq: 0)
        let stored = try log.events(s.id)
        let clean = SessionDiff.againstReplay(stored)
        #expect(clean.isEmpty && clean.firstDivergence == nil && clean.firstOutcomeDivergence == nil)
        // An older reducer rejected an event for another reason: same state, other outcome.
        let rejected = try #require(stored.firstIndex { !$0.outcome.isApplied && $0.seq > 100 })
        var tampered = stored
        tampered[rejected].outcome = tampered[rejected].outcome == .rejected(.stale) ? .rejected(.notDismissible) : .rejected(.stale)
        let d = SessionDiff.againstReplay(tampered)
        #expect(d.firstOutcomeDivergence == stored[rejected].seq)
        #expect(d.firstDivergence == nil)
        #expect(!d.isEmpty)
        #expect(d.text().hasPrefix("""
            no divergence: 300 events, same digests
            first outcome divergence at seq \(stored[rejected].seq): \(tampered[rejected].outcome) vs \(stored[rejected].outcome)
            """))
        // A wrong digest.
        tampered = stored
        tampered[200].digest = Digest(hi: 0, lo: 1)
        #expect(SessionDiff.againstReplay(tampered).firstDivergence == 201)
        #expect(SessionDiff.steps(replaying: stored.map(\.event)).map(\.digest) == stored.map(\.digest))
    }

    /// The search's step budget: a script found within it is the one found without a budget; past
    /// it, the script stays valid, says so, and ends in removals and insertions; the id entry
    /// point gives the generic one's script.
    @Test func stepBudgetBoundsTheSearch() {
        var rng = SplitMix64(seed: 99)
        let a = (0..<3_000).map { _ in Int(rng.next() % 40) }
        let b = (0..<2_000).map { _ in Int(rng.next() % 40) }
        let free = SequenceDiff.script(a, b, stepBudget: .max)
        let bounded = SequenceDiff.script(a, b)
        #expect(!bounded.budgetExhausted && bounded.ops == free.ops)
        #expect(SequenceDiff.script(ids: a, b).ops == bounded.ops)
        for budget in [1, 100, 10_000] {
            let s = SequenceDiff.script(a, b, stepBudget: budget)
            #expect(s.budgetExhausted, "budget \(budget)")
            expectEditScript(SequenceDiff.normalized(s.ops), from: a, to: b, "budget \(budget)")
            #expect(s.ops.count >= free.ops.count, "budget \(budget)")
        }
        // The id alignment pairs entries as SessionDiff does.
        var g = SessionGenerator(seed: 4)
        let ea = g.events(400)
        var eb = ea
        eb.removeSubrange(100..<130)
        eb.insert(contentsOf: g.events(25), at: 200)
        let diff = SessionDiff.between(events: ea, eb)
        var ids: [Event: Int] = [:]
        func id(_ e: Event) -> Int { if let i = ids[e] { return i }; ids[e] = ids.count; return ids.count - 1 }
        let ida = ea.map(id), idb = eb.map(id)
        var entries: [SessionDiff.Entry] = []
        let idAlignment = SessionDiff.IDAlignment(ida, idb)
        idAlignment.forEach { entries.append($0) }
        #expect(entries == diff.alignment)
        #expect(!idAlignment.searchStopped && !diff.searchStopped && !idAlignment.isAllSame)
        #expect(SessionDiff.IDAlignment(ida, ida).isAllSame)
    }
}

/// Two lists for a diff: lengths below `lengthBelow`, over one alphabet of 1 to `symbolsAtMost`
/// symbols (few symbols, many equal elements).
private func randomLists(_ rng: inout SplitMix64, lengthBelow: UInt64, symbolsAtMost: UInt64) -> ([Int], [Int]) {
    let n = Int(rng.next() % lengthBelow), m = Int(rng.next() % lengthBelow)
    let alphabet = UInt64(1 + rng.next() % symbolsAtMost)
    let a = (0..<n).map { _ in Int(rng.next() % alphabet) }
    let b = (0..<m).map { _ in Int(rng.next() % alphabet) }
    return (a, b)
}

/// Expects `ops` to be an edit script from `a` to `b`: it walks both in order, each element once,
/// and every unchanged step pairs equal elements. `label` names the input in a failure.
private func expectEditScript(_ ops: [SequenceDiff.Op], from a: [Int], to b: [Int], _ label: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
    var ia = 0, ib = 0
    for op in ops {
        switch op {
        case .same(let i, let j): #expect(i == ia && j == ib && a[i] == b[j], "\(label)", sourceLocation: sourceLocation); ia += 1; ib += 1
        case .delete(let i): #expect(i == ia, "\(label)", sourceLocation: sourceLocation); ia += 1
        case .insert(let j): #expect(j == ib, "\(label)", sourceLocation: sourceLocation); ib += 1
        }
    }
    #expect(ia == a.count && ib == b.count, "\(label)", sourceLocation: sourceLocation)
}
