import Testing
@_spi(Tools) import RouteLogCore

/// A session folded once, with everything a test needs to judge a bisect by hand.
private struct Reference {
    let events: [Event]
    /// `states[seq]`: the state after event `seq` (0: empty).
    let states: [NavigationState]
    /// `outcomes[seq - 1]`.
    let outcomes: [Outcome]

    init(seed: UInt64, count: Int, mix: SessionGenerator.Mix = .realistic) {
        var g = SessionGenerator(seed: seed, mix: mix)
        events = g.events(count)
        var r = Replayer()
        var states = [r.state]
        var outcomes: [Outcome] = []
        for e in events {
            outcomes.append(r.apply(e).outcome)
            states.append(r.state)
        }
        self.states = states
        self.outcomes = outcomes
    }

    var n: Int { events.count }

    /// The context a bisect should see at `seq`.
    func context(_ seq: Int) -> BisectContext {
        guard seq > 0 else { return BisectContext(seq: 0, state: states[0], event: nil) }
        let stored = StoredEvent(seq: UInt64(seq), recorded: RecordedEvent(events[seq - 1]), outcome: outcomes[seq - 1], digest: states[seq].digest)
        return BisectContext(seq: UInt64(seq), state: states[seq], event: stored)
    }

    /// A monotone predicate from a per-seq measure: true once the running maximum exceeds `t`.
    func prefixMax(_ measure: (Int) -> Int, exceeds t: Int) -> [Bool] {
        var best = Int.min
        return (0...n).map { seq in
            best = max(best, measure(seq))
            return best > t
        }
    }

    /// Checks that a context matches this session at its seq.
    func check(_ ctx: BisectContext, _ note: String) {
        let seq = Int(ctx.seq)
        #expect(ctx.state == states[seq], "\(note): state at seq \(seq)")
        #expect(ctx.state.digest == states[seq].digest, "\(note): digest at seq \(seq)")
        if seq == 0 {
            #expect(ctx.event == nil, "\(note)")
        } else {
            #expect(ctx.event?.seq == ctx.seq && ctx.event?.event == events[seq - 1], "\(note): event at seq \(seq)")
            #expect(ctx.outcome == outcomes[seq - 1], "\(note): outcome at seq \(seq)")
        }
    }
}

private func depth(_ s: NavigationState) -> Int { s.allTokens().count }

private func log2Ceil(_ x: Int) -> Int {
    var k = 0
    while (1 << k) < x { k += 1 }
    return k
}

@Suite struct BisectTests {
    /// Monotone predicates built as "the running maximum of a measure exceeded t".
    private func monotonePredicates(_ ref: Reference) -> [(String, [Bool])] {
        var out: [(String, [Bool])] = []
        for t in [0, 1, 2, 3, 5, 8, 13] {
            out.append(("path ever > \(t)", ref.prefixMax({ ref.states[$0].root.path.count }, exceeds: t)))
        }
        for t in [0, 1, 2] {
            out.append(("presentation depth ever > \(t)", ref.prefixMax({ depth(ref.states[$0]) }, exceeds: t)))
        }
        var rejected = 0
        let rejections = (0...ref.n).map { seq -> Int in
            if seq > 0, !ref.outcomes[seq - 1].isApplied { rejected += 1 }
            return rejected
        }
        for t in [0, 3, 10] { out.append(("rejections > \(t)", rejections.map { $0 > t })) }
        out.append(("had tabs", ref.prefixMax({ ref.states[$0].tabs == nil ? 0 : 1 }, exceeds: 0)))
        out.append(("never", [Bool](repeating: false, count: ref.n + 1)))
        out.append(("always", [Bool](repeating: true, count: ref.n + 1)))
        return out
    }

    @Test func binaryAgreesWithALinearScanOnRandomSessions() throws {
        for seed in UInt64(1)...12 {
            let n = 200 + Int(seed % 5) * 173
            let ref = Reference(seed: seed, count: n)
            for k in [1, 7, 64] {
                let session = CheckpointedSession(ref.events, checkpointInterval: k)
                for (name, truth) in monotonePredicates(ref) {
                    let note = "seed \(seed) n \(n) K \(k) \(name)"
                    let expected = truth.firstIndex(of: true).map(UInt64.init)
                    let result = try Bisect.firstSeq(in: session, mode: .binary) { ctx in
                        ref.check(ctx, note)
                        return truth[Int(ctx.seq)]
                    }
                    #expect(result.seq == expected, "\(note)")
                    #expect(result.undecided.isEmpty, "\(note)")
                    let bound = 2 * log2Ceil(n + 1) + 2
                    #expect(result.materialized <= bound, "\(note): materialized \(result.materialized) > \(bound)")
                    #expect(result.eventsFolded <= result.materialized * (k - 1), "\(note): folded \(result.eventsFolded)")
                    #expect(result.evaluations == result.materialized - (result.seq.map { $0 > 0 && $0 % UInt64(k) == 0 } == true ? 1 : 0), "\(note)")
                    if let seq = expected {
                        ref.check(try #require(result.context, "\(note)"), note)
                        if seq > 0 {
                            #expect(result.stateBefore == ref.states[Int(seq) - 1], "\(note)")
                            #expect(result.diff == StateDiff.between(ref.states[Int(seq) - 1], ref.states[Int(seq)]), "\(note)")
                        } else {
                            #expect(result.stateBefore == nil, "\(note)")
                        }
                    } else {
                        #expect(result.context == nil && result.stateBefore == nil, "\(note)")
                    }
                    let linear = try Bisect.firstSeq(in: session, mode: .linear) { truth[Int($0.seq)] }
                    #expect(linear.seq == expected, "\(note) linear")
                    #expect(linear.materialized == 1, "\(note) linear")
                    #expect(linear.evaluations == Int(expected ?? UInt64(n)) + 1, "\(note) linear")
                }
            }
        }
    }

    @Test func bisectOverAnEventLogUsesItsSnapshots() throws {
        for seed in UInt64(20)...25 {
            let ref = Reference(seed: seed, count: 1500)
            let log = InMemoryEventLog(snapshotInterval: 50, clock: { 1_700_000_000_000 })
            let s = try log.createSession(NewSession(label: "bisect"))
            try log.append(ref.events.map { RecordedEvent($0) }, to: s.id, expectedSeq: 0)
            for (name, truth) in monotonePredicates(ref) {
                let note = "seed \(seed) \(name)"
                let result = try Bisect.firstSeq(in: log, session: s.id, mode: .binary) { ctx in
                    ref.check(ctx, note)
                    return truth[Int(ctx.seq)]
                }
                #expect(result.seq == truth.firstIndex(of: true).map(UInt64.init), "\(note)")
                #expect(result.materialized <= 2 * log2Ceil(1501) + 2, "\(note): \(result.materialized)")
                #expect(result.eventsFolded <= result.materialized * 49, "\(note): \(result.eventsFolded)")
                let linear = try Bisect.firstSeq(in: log, session: s.id, mode: .linear) { truth[Int($0.seq)] }
                #expect(linear.seq == result.seq, "\(note) linear")
                // A prefix: seqs 0...700 only.
                let prefix = try Bisect.firstSeq(in: log, session: s.id, through: 700, mode: .binary) { ctx in
                    #expect(ctx.seq <= 700, "\(note)")
                    return truth[Int(ctx.seq)]
                }
                #expect(prefix.seq == truth[0...700].firstIndex(of: true).map(UInt64.init), "\(note) through 700")
            #expect(linear.undecided == result.undecided, "\(note) linear undecided \(linear.undecided)")
            }
        }
    }

    @Test func linearModeIsExactForNonMonotonePredicates() throws {
        for seed in UInt64(1)...15 {
            let ref = Reference(seed: seed, count: 600, mix: seed % 3 == 0 ? .adversarial : .realistic)
            let session = CheckpointedSession(ref.events, checkpointInterval: 32)
            let predicates: [(String, (BisectContext) -> Bool)] = [
                ("path == 3 with a sheet", { $0.state.root.path.count == 3 && $0.state.root.presented?.style == .sheet }),
                ("stale swipe", { $0.outcome == .rejected(.stale) }),
                ("in-place update", { $0.outcome == .applied(.updatedInPlace) }),
                ("empty again after seq 10", { $0.seq > 10 && $0.state == NavigationState() }),
                ("alert on top", { $0.state.root.presented?.content?.presented?.style == .alert }),
                ("tab search selected", { $0.state.selectedTab == "search" }),
            ]
            for (name, p) in predicates {
                let note = "seed \(seed) \(name)"
                let expected = (0...ref.n).first { p(ref.context($0)) }
                let result = try Bisect.firstSeq(in: session, mode: .linear) { ctx in
                    ref.check(ctx, note)
                    return p(ctx)
                }
                #expect(result.seq == expected.map(UInt64.init), "\(note)")
                if let e = expected, e > 0 { #expect(result.stateBefore == ref.states[e - 1], "\(note)") }
                // Binary mode on a non-monotone predicate finds a transition, if the last seq holds.
                let binary = try Bisect.firstSeq(in: session, mode: .binary) { p($0) }
                if let b = binary.seq.map(Int.init) {
                    #expect(p(ref.context(b)) && (b == 0 || !p(ref.context(b - 1))), "\(note) binary \(b)")
                } else {
                    #expect(!p(ref.context(ref.n)), "\(note) binary nil")
                }
            }
        }
    }

    @Test func skippedSeqsAreReportedAsUndecided() throws {
        var rng = SplitMix64(seed: 99)
        for round in 0..<300 {
            let n = 1 + Int(rng.next() % 60)
            let boundary: Int? = rng.next() % 6 == 0 ? nil : Int(rng.next() % UInt64(n + 1))
            var skips = Set<Int>()
            let skipCount = Int(rng.next() % 8)
            for _ in 0..<skipCount {
                // Cluster skips near the boundary, where they matter.
                let centre = boundary ?? n
                let s = centre + Int(rng.next() % 7) - 3
                if (0...n).contains(s) { skips.insert(s) }
            }
            let note = "round \(round) n \(n) boundary \(boundary.map(String.init) ?? "none") skips \(skips.sorted())"
            let session = CheckpointedSession([Event](repeating: .push(RouteRef(id: "a")), count: n), checkpointInterval: 4)
            let result = try Bisect.run(in: session, mode: .binary, verdict: { ctx -> Bisect.Verdict in
                let seq = Int(ctx.seq)
                if skips.contains(seq) { return .skip }
                return boundary.map { seq >= $0 } == true ? .bad : .good
            })
            // The answer is the first seq at or after the boundary that was not skipped.
            let expected = boundary.flatMap { b in (b...n).first { !skips.contains($0) } }
            #expect(result.seq == expected.map(UInt64.init), "\(note): got \(String(describing: result.seq))")
            // Undecided: exactly the run of skipped seqs just below the answer (or the end).
            func skippedRun(below top: Int) -> [UInt64] {
                var run: [UInt64] = []
                var s = top - 1
                while s >= 0 && skips.contains(s) { run.insert(UInt64(s), at: 0); s -= 1 }
                return run
            }
            #expect(result.undecided == skippedRun(below: result.seq.map(Int.init) ?? n + 1), "\(note): undecided \(result.undecided)")
            if let b = boundary, result.seq != UInt64(b) {
                #expect(result.undecided.contains(UInt64(b)), "\(note): undecided \(result.undecided)")
            }
            if boundary == nil { #expect(result.seq == nil, "\(note)") }
            // Linear mode agrees.
            let linear = try Bisect.run(in: session, mode: .linear, verdict: { ctx -> Bisect.Verdict in
                let seq = Int(ctx.seq)
                if skips.contains(seq) { return .skip }
                return boundary.map { seq >= $0 } == true ? .bad : .good
            })
            #expect(linear.seq == result.seq, "\(note) linear")
            #expect(linear.undecided == result.undecided, "\(note) linear undecided \(linear.undecided)")
            if let b = boundary, linear.seq != UInt64(b) { #expect(linear.undecided.contains(UInt64(b)), "\(note) linear") }
        }
    }

    @Test func edgeCases() throws {
        // An empty session: only seq 0 exists.
        let empty = CheckpointedSession([Event](), checkpointInterval: 8)
        let r0 = try Bisect.firstSeq(in: empty, mode: .binary) { _ in true }
        #expect(r0.seq == 0 && r0.context?.event == nil && r0.stateBefore == nil)
        #expect(try Bisect.firstSeq(in: empty, mode: .binary) { _ in false }.seq == nil)
        #expect(try Bisect.firstSeq(in: empty, mode: .linear) { _ in true }.seq == 0)
        // A predicate that throws stops the search with its error.
        struct Boom: Error {}
        let s = CheckpointedSession([Event](repeating: .push(RouteRef(id: "a")), count: 10))
        #expect(throws: Boom.self) { try Bisect.firstSeq(in: s) { _ in throw Boom() } }
        // `state(at:)` of the in-memory session.
        #expect(s.state(at: 4).root.path.count == 4)
        #expect(s.state(at: 99).root.path.count == 10)
        // The event-list entry point.
        let r = try Bisect.firstSeq(in: [Event](repeating: .push(RouteRef(id: "a")), count: 100), checkpointInterval: 10, mode: .binary) { $0.state.root.path.count >= 37 }
        #expect(r.seq == 37)
        #expect(r.diff?.changes.map(\.path) == ["root.path[36]"])
    }

    @Test func theDefaultModeIsLinearAsTheCLIs() throws {
        // A predicate that holds for a while and then stops: binary mode judges the last seq
        // (false) and answers nil; the default must find the first seq where it holds.
        let events = [Event](repeating: .push(RouteRef(id: "a")), count: 40)
        let holdsForAWhile: (BisectContext) -> Bool = { (10...20).contains($0.state.root.path.count) }
        let byDefault = try Bisect.firstSeq(in: events, where: holdsForAWhile)
        #expect(byDefault.mode == .linear)
        #expect(byDefault.seq == 10)
        #expect(try Bisect.firstSeq(in: events, mode: .binary, where: holdsForAWhile).seq == nil)
        #expect(try Bisect.firstSeq(in: CheckpointedSession(events), where: holdsForAWhile).seq == 10)
        #expect(try Bisect.run(in: CheckpointedSession(events), verdict: { holdsForAWhile($0) ? .bad : .good }).mode == .linear)
    }

    @Test func aLogThatMissesEventsIsAnError() throws {
        let log = ShortLog()
        #expect(throws: BisectError.missingEvent(seq: 6)) {
            try Bisect.firstSeq(in: log, session: log.id, mode: .linear) { _ in false }
        }
        #expect(throws: BisectError.self) {
            try Bisect.firstSeq(in: log, session: log.id, mode: .binary) { $0.seq >= 8 }
        }
        #expect(throws: EventLogError.seqOutOfRange(session: log.id, seq: 11, count: 10)) {
            try Bisect.firstSeq(in: log, session: log.id, through: 11) { _ in true }
        }
        #expect(try Bisect.firstSeq(in: log, session: log.id, through: 5, mode: .linear) { $0.seq == 5 }.seq == 5)
        #expect(BisectError.missingEvent(seq: 6).description == "the log has no event at seq 6, although the session counts past it")
    }
}

/// A broken log: it claims 10 events but holds only 5.
private final class ShortLog: EventLog, @unchecked Sendable {
    let id = SessionID("s")
    let stored: [StoredEvent] = {
        var r = Replayer()
        return (0..<5).map { _ in
            let step = r.apply(.push(RouteRef(id: "a")))
            return StoredEvent(seq: step.seq, recorded: RecordedEvent(.push(RouteRef(id: "a"))), outcome: step.outcome, digest: step.digest)
        }
    }()
    func createSession(_ session: NewSession) throws -> SessionInfo { try self.session(id) }
    func sessions() throws -> [SessionInfo] { [try session(id)] }
    func session(_ id: SessionID) throws -> SessionInfo { SessionInfo(id: id, label: "", createdAt: 0, eventCount: 10) }
    func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] { [] }
    func read(_ session: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        for e in stored where e.seq >= from && e.seq <= through { if try !body(e) { return } }
    }
    func snapshot(_ session: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? { nil }
    func deleteSession(_ session: SessionID) throws { throw EventLogError.sessionNotFound(session) }
}
