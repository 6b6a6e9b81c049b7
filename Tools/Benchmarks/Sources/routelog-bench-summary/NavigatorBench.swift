import Foundation
import Observation
@_spi(Benchmarks) @_spi(Tools) import RouteLog
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

// MARK: - Navigator figures (the app-facing call on the main actor)

/// One step of the mix: pushes with payloads, sheets, alerts, dismissals, pops, and every 24
/// steps a return to the root (dismissAll then popToRoot: two calls); the stacks stay a few
/// screens deep, as in an app.
@MainActor
enum NavigatorMix {
    static let titles = (0..<64).map { "Episode \($0): a title of realistic length" }
    static let chapters = ["Intro", "Interview", "Listener questions", "Outro"]

    static func route(_ i: Int) -> BenchRoute {
        switch i % 5 {
        case 0, 1: .episode(id: i % 5_000, title: titles[i % titles.count])
        case 2: .show(name: "Show \(i % 97)", season: i % 7)
        case 3: .player(episode: i % 5_000, position: Double(i % 3_600) + 0.25, chapters: chapters)
        default: .settings
        }
    }

    static func call(_ nav: Navigator<BenchRoute>, _ i: Int) {
        navigatorStep(nav, i, push: route, sheet: { route($0 + 3) }, alert: { .alert(message: "Download \($0 % 50) finished") })
    }

    /// The same mutations on a plain `@Observable` model.
    static func call(_ model: PlainNavigationModel, _ i: Int) {
        switch i % 8 {
        case 0, 2, 5: model.path.append(route(i))
        case 1: model.presented = route(i + 3)
        case 3: model.presented = nil
        case 4: model.presented = .alert(message: "Download \(i % 50) finished")
        case 6: if !model.path.isEmpty { model.path.removeLast() }
        default:
            if i % 24 == 7 {
                model.presented = nil
                model.path.removeAll()
            } else {
                model.presented = nil
            }
        }
    }
}

/// The same mix with a payload no other call has on every call that takes a route (an episode's
/// id and title, a show's name, a player's position, an alert's message), as an app whose screens
/// carry ids does: nothing the navigator or the store could keep per distinct payload is shared.
@MainActor
enum DistinctMix {
    static func route(_ i: Int) -> BenchRoute {
        switch i % 5 {
        case 0, 1: .episode(id: i, title: "Episode \(i): a title of realistic length")
        case 2: .show(name: "Show \(i)", season: i % 7)
        case 3: .player(episode: i, position: Double(i) + 0.25, chapters: NavigatorMix.chapters)
        default: .settings
        }
    }

    static func call(_ nav: Navigator<BenchRoute>, _ i: Int) {
        navigatorStep(nav, i, push: route, sheet: { route($0 + 3) }, alert: { .alert(message: "Download \($0) finished") })
    }
}

/// What an app without RouteLog keeps: a path and a presented route.
@MainActor
@Observable
final class PlainNavigationModel {
    var path: [BenchRoute] = []
    var presented: BenchRoute?
}

/// Nanoseconds on the monotonic clock.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Per-call times on the main actor in microseconds, sorted.
@MainActor
func timedCalls(_ count: Int, from start: Int = 0, _ body: (Int) -> Void) -> [Double] {
    var times = [Double](repeating: 0, count: count)
    for k in 0..<count {
        let t0 = monotonicNanoseconds()
        body(start + k)
        times[k] = Double(monotonicNanoseconds() - t0) / 1_000
    }
    return times
}

/// One timed call: its wall time, the CPU time this thread spent in it (both µs: what the code
/// cost, without the time the thread did not run, which on a virtual machine includes time the
/// host gave the virtual CPU to someone else, invisible to the switch counts), and this thread's
/// voluntary and involuntary context switches during it.
typealias TimedCall = (micros: Double, cpuMicros: Double, voluntary: Int, involuntary: Int)

/// Per-call wall and CPU times with the context switches during each call.
@MainActor
func timedCallsWithSwitches(_ count: Int, from start: Int, _ body: (Int) -> Void) -> [TimedCall] {
    var out: [TimedCall] = []
    out.reserveCapacity(count)
    var before = rusage(), after = rusage()
    // RUSAGE_THREAD (Linux): not imported into Swift, it needs _GNU_SOURCE.
    let rusageThread = __rusage_who_t(1)
    for k in 0..<count {
        getrusage(rusageThread, &before)
        let c0 = threadCPUNanoseconds()
        let t0 = monotonicNanoseconds()
        body(start + k)
        let t1 = monotonicNanoseconds()
        let c1 = threadCPUNanoseconds()
        getrusage(rusageThread, &after)
        out.append((Double(t1 - t0) / 1_000, Double(c1 - c0) / 1_000, after.ru_nvcsw - before.ru_nvcsw, after.ru_nivcsw - before.ru_nivcsw))
    }
    return out
}

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`: the scheduler's exact run
/// time, where `getrusage`'s user and system times are apportioned from ticks).
@inline(__always) func threadCPUNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func navigatorFigures(_ o: Options) throws -> [Figure] {
    try MainActor.assumeIsolated { try navigatorFiguresOnMain(o) }
}

@MainActor
func navigatorFiguresOnMain(_ o: Options) throws -> [Figure] {
    let n = o.count(100_000)
    let bigN = o.count(1_000_000)
    let dir = try TemporaryDirectory(prefix: "routelog-bench-navigator")
    defer { dir.remove() }
    let warmUp = 2_000

    // observable-mutation: the baseline.
    progress("observable-mutation, \(n) calls")
    let model = PlainNavigationModel()
    _ = timedCalls(warmUp) { NavigatorMix.call(model, $0) }
    let plain = timedCalls(n, from: warmUp) { NavigatorMix.call(model, $0) }.sorted()

    // The same-run baseline of the journal's cost: a navigator on the same kind of store seen
    // through a plain `EventLog` (no journal), same mix.
    progress("navigator-call without a journal, \(n) calls on an LMDB store")
    let bare = try Navigator<BenchRoute>(log: WithoutJournal(try LMDBEventLog.open(at: try dir.subdirectory("bare"))))
    _ = timedCalls(warmUp) { NavigatorMix.call(bare, $0) }
    let bareCalls = timedCalls(n, from: warmUp) { NavigatorMix.call(bare, $0) }.sorted()
    // Its calls with no context switch, the baseline of navigator-call-p999-unswitched.
    let bareUnswitched = timedCallsWithSwitches(n, from: warmUp + n) { NavigatorMix.call(bare, $0) }
        .filter { $0.involuntary == 0 && $0.voluntary == 0 }.map(\.micros).sorted()
    try waitForRecorder(bare)

    // navigator-call: the same mix on a navigator recording to an LMDB store, default options.
    progress("navigator-call, \(n) calls on an LMDB store")
    let store = try LMDBEventLog.open(at: try dir.subdirectory("calls"))
    let nav = try Navigator<BenchRoute>(log: store)
    _ = timedCalls(warmUp) { NavigatorMix.call(nav, $0) }
    let calls = timedCalls(n, from: warmUp) { NavigatorMix.call(nav, $0) }.sorted()
    // The same loop again, each call between two reads of this thread's context switches: a
    // voluntary switch means the call blocked (a lock, I/O); an involuntary one that the system
    // ran something else (on this machine other builds share the two cores).
    progress("navigator-call, \(n) more calls with context-switch counts")
    let switches = timedCallsWithSwitches(n, from: warmUp + n) { NavigatorMix.call(nav, $0) }
    try waitForRecorder(nav)
    try require(try store.session(nav.session).headDigest == nav.state.digest, "the store's head digest differs from the navigator's state")
    let unpreempted = switches.filter { $0.involuntary == 0 && $0.voluntary == 0 }.map(\.micros).sorted()
    let blocked = switches.filter { $0.voluntary > 0 }.count
    let preempted = switches.filter { $0.involuntary > 0 }.count

    // navigator-call-p50-observed: the same mix on a navigator with a breadcrumb observer (what a
    // crash reporter's forwarding adds before its own work: the top screen read after each call,
    // and the breadcrumb handed over), against a twin without one: two new navigators on two new
    // stores, timed in alternating chunks, so the machine's load changes both alike.
    progress("navigator-call-p50-observed, \(n) calls with a breadcrumb observer and \(n) without, alternating")
    let observed = try Navigator<BenchRoute>(log: try LMDBEventLog.open(at: try dir.subdirectory("observed")))
    let twin = try Navigator<BenchRoute>(log: try LMDBEventLog.open(at: try dir.subdirectory("unobserved")))
    var crumbsSeen: UInt64 = 0
    observed.onNavigation { crumb in crumbsSeen &+= crumb.seq }
    _ = timedCalls(warmUp) { NavigatorMix.call(observed, $0) }
    _ = timedCalls(warmUp) { NavigatorMix.call(twin, $0) }
    var observedCalls: [Double] = [], twinCalls: [Double] = []
    let chunk = max(1, n / 20)
    for start in stride(from: warmUp, to: warmUp + n, by: chunk) {
        let count = min(chunk, warmUp + n - start)
        twinCalls += timedCalls(count, from: start) { NavigatorMix.call(twin, $0) }
        observedCalls += timedCalls(count, from: start) { NavigatorMix.call(observed, $0) }
    }
    observedCalls.sort()
    twinCalls.sort()
    try waitForRecorder(observed)
    try waitForRecorder(twin)
    try require(crumbsSeen > 0, "the observer received no breadcrumb")

    // navigator-call-p50-screens: the same mix on a navigator whose screens report themselves (a
    // simulated view layer: after each call, the screens the state now requires appear and those it
    // no longer requires disappear), against a twin without screen reports, in alternating chunks.
    // Timed: the call plus its screenAppeared/screenDisappeared calls; not timed: working out which
    // screens changed, which a real view layer does by appearing. The twin runs the same loop, its
    // view layer working out the same changes (not timed) and reporting none: the untimed work
    // between two calls (sets of screens, their allocations) slows the next call by itself (with no
    // screen report at all, about 1.3x the p50 of calls made back to back), so a twin timed back to
    // back measured that as the cost of screen reports.
    progress("navigator-call-p50-screens, \(n) calls with screen reports and \(n) without, alternating")
    let reporting = try Navigator<BenchRoute>(log: try LMDBEventLog.open(at: try dir.subdirectory("screens")))
    let quiet = try Navigator<BenchRoute>(log: try LMDBEventLog.open(at: try dir.subdirectory("no-screens")))
    reporting.tracksScreens = true
    var onScreen = Set<ScreenID>(), quietOnScreen = Set<ScreenID>()
    var unreported = 0
    /// Call `i` of the mix on `nav`, then its view layer: the screens that changed, reported
    /// (`reports`) or only counted. Returns the timed part in µs.
    func viewLayerCall(_ nav: Navigator<BenchRoute>, _ i: Int, onScreen: inout Set<ScreenID>, reports: Bool) -> Double {
        let t0 = monotonicNanoseconds()
        NavigatorMix.call(nav, i)
        let t1 = monotonicNanoseconds()
        let required = Set(nav.requiredScreens)
        let gone = onScreen.subtracting(required), new = required.subtracting(onScreen)
        onScreen = required
        let t2 = monotonicNanoseconds()
        if reports {
            for s in gone { nav.screenDisappeared(s) }
            for s in new { nav.screenAppeared(s) }
        } else {
            unreported &+= gone.count &+ new.count
        }
        let t3 = monotonicNanoseconds()
        return Double((t1 - t0) + (t3 - t2)) / 1e3
    }
    func screensCall(_ i: Int) -> Double { viewLayerCall(reporting, i, onScreen: &onScreen, reports: true) }
    func quietCall(_ i: Int) -> Double { viewLayerCall(quiet, i, onScreen: &quietOnScreen, reports: false) }
    for i in 0..<warmUp { _ = screensCall(i) }
    for i in 0..<warmUp { _ = quietCall(i) }
    var screenCalls: [Double] = [], quietCalls: [Double] = []
    for start in stride(from: warmUp, to: warmUp + n, by: chunk) {
        let count = min(chunk, warmUp + n - start)
        for i in start..<(start + count) { quietCalls.append(quietCall(i)) }
        for i in start..<(start + count) { screenCalls.append(screensCall(i)) }
    }
    screenCalls.sort()
    quietCalls.sort()
    try waitForRecorder(reporting)
    try waitForRecorder(quiet)
    try require(unreported > 0, "the twin's view layer saw no screen change")
    try require(reporting.divergences.isEmpty, "a well-behaved simulated view layer got \(reporting.divergences.count) divergence report(s): \(reporting.divergences.first.map(\.description) ?? "")")

    let plainP50 = percentile(plain, 0.5)
    var figures: [Figure] = [
        Figure(name: "observable-mutation", value: plainP50, unit: "µs", count: n,
               note: "baseline: the same mutations on a plain @Observable model (path, presented), per call, p50; p99 \(Summary.format(percentile(plain, 0.99))) µs"),
    ]
    figures.append(Figure(name: "navigator-call-p50-no-journal", value: percentile(bareCalls, 0.5), unit: "µs", count: n,
                          note: "baseline: the same calls on an LMDB store behind a plain EventLog (no crash-safe journal); p99 \(Summary.format(percentile(bareCalls, 0.99))) µs, p999 \(Summary.format(percentile(bareCalls, 0.999))) µs"))
    for (name, p, limit) in [("navigator-call-p50", 0.5, 1.5), ("navigator-call-p99", 0.99, 20.0), ("navigator-call-p999", 0.999, 50.0)] {
        let value = percentile(calls, p)
        let ratio = name == "navigator-call-p50" ? "; \(Summary.format(value / plainP50)) × observable-mutation (goal within 10 ×)" : ""
        figures.append(Figure(name: name, value: value, unit: "µs", baseline: "observable-mutation", baselineValue: plainP50,
                              target: .valueAtMost(limit), count: n,
                              note: "Navigator call on the main actor, LMDB store with default durability and the crash-safe journal, realistic mix with payloads" + ratio))
    }
    figures.append(Figure(name: "navigator-call-p50-observed", value: percentile(observedCalls, 0.5), unit: "µs", baseline: "unobserved twin",
                          baselineValue: percentile(twinCalls, 0.5), target: .ratioAtMost(1.15), count: n,
                          note: "the same calls with one onNavigation observer (a breadcrumb per call), against a twin navigator without one timed in "
                              + "alternating chunks of \(chunk); p99 \(Summary.format(percentile(observedCalls, 0.99))) µs (twin "
                              + "\(Summary.format(percentile(twinCalls, 0.99))) µs); this run's navigator-call-p50 \(Summary.format(percentile(calls, 0.5))) µs"))
    figures.append(Figure(name: "navigator-call-p50-screens", value: percentile(screenCalls, 0.5), unit: "µs", baseline: "no-screens twin",
                          baselineValue: percentile(quietCalls, 0.5), target: .ratioAtMost(1.2), count: n,
                          note: "the same calls on a navigator whose screens report themselves (each call plus its screenAppeared/screenDisappeared "
                              + "calls), against a twin without screen reports timed in alternating chunks of \(chunk), its view layer working "
                              + "out the same screens between calls; p99 \(Summary.format(percentile(screenCalls, 0.99))) µs (twin "
                              + "\(Summary.format(percentile(quietCalls, 0.99))) µs); no divergence reported; calls made back to back (the "
                              + "unobserved twin above) p50 \(Summary.format(percentile(twinCalls, 0.5))) µs"))
    figures.append(Figure(name: "navigator-call-p999-unswitched", value: unpreempted.isEmpty ? nil : percentile(unpreempted, 0.999), unit: "µs",
                          baseline: bareUnswitched.isEmpty ? nil : "no-journal", baselineValue: bareUnswitched.isEmpty ? nil : percentile(bareUnswitched, 0.999),
                          target: .valueAtMost(50), count: unpreempted.count,
                          note: "the same loop, calls with no context switch; of \(n) calls \(blocked) blocked (voluntary switch), \(preempted) preempted; "
                              + "p50 \(Summary.format(unpreempted.isEmpty ? .nan : percentile(unpreempted, 0.5))) µs, p99 \(Summary.format(unpreempted.isEmpty ? .nan : percentile(unpreempted, 0.99))) µs"))

    // 1M calls in one session: memory, the slowest call, time travel.
    progress("navigator-1M: \(bigN) calls on an LMDB store")
    let bigStore = try LMDBEventLog.open(at: try dir.subdirectory("big"))
    let big = try Navigator<BenchRoute>(log: bigStore)
    let early = min(bigN, 10_000)
    _ = timedCalls(1) { NavigatorMix.call(big, $0) }
    let slowest = timedCalls(early - 1, from: 1) { NavigatorMix.call(big, $0) }.max() ?? 0
    try waitForRecorder(big)
    let anonEarly = Measure.rssAnonBytes()
    var done = early
    // Bursts of 10,000 calls, the recorder catching up between them (not timed): an app's million
    // calls come over hours, so its backlog stays small; a loop that outran the writer for the
    // whole million would measure the backlog, not what the navigator keeps.
    var tally = CallTally()
    tally.slowest = slowest
    while done < bigN {
        let chunk = min(10_000, bigN - done)
        tally.add(timedCallsWithSwitches(chunk, from: done, { NavigatorMix.call(big, $0) }), from: done)
        done += chunk
        try waitForRecorder(big)
    }
    try waitForRecorder(big)
    let anonLate = Measure.rssAnonBytes()
    let head = big.headSeq
    try require(try bigStore.session(big.session).eventCount == head, "the store holds fewer events than the navigator made")
    let footprint = big.memoryFootprint

    var rng = SplitMix64(seed: 0x7A7E1)
    var travels: [Double] = []
    var checked = 0
    for k in 0..<100 {
        let seq = rng.next() % (head + 1)
        let t0 = monotonicNanoseconds()
        try big.travel(to: seq)
        travels.append(Double(monotonicNanoseconds() - t0) / 1e6)
        if k % 10 == 0 {
            try require(big.state == (try bigStore.state(of: big.session, at: seq)), "travel to \(seq) shows another state than the store's")
            checked += 1
        }
    }
    big.returnToPresent()

    // restoringLatest on the 1M-event session: what an app pays at launch. The previous launch is
    // gone at a launch, but `big` still writes the session here, and restoringLatest never takes a
    // session a navigator of this process holds: each restore opens a copy of the store (made
    // before it, not timed), as the next launch finds it.
    try waitForRecorder(big)
    var restores: [Double] = []
    for k in 0..<5 {
        let launch = try dir.subdirectory("relaunch-\(k)") + "/store"
        try bigStore.compactCopy(to: launch)
        let relaunched = try LMDBEventLog.open(at: launch)
        let t0 = monotonicNanoseconds()
        let restored = try Navigator<BenchRoute>.restoringLatest(log: relaunched)
        restores.append(Double(monotonicNanoseconds() - t0) / 1e6)
        try require(restored.state == big.state && restored.headSeq == head, "restoringLatest does not reach the session's state")
    }

    let burst = try uninterruptedBurst(bigN, in: dir)
    let distinct = try DistinctPayloadMemory.measure(bigN, in: dir)

    let scaledNote = bigN == 1_000_000 ? "" : "; \(bigN) calls at this scale"
    let grown = anonEarly.flatMap { a in anonLate.map { Double($0 - a) / 1_048_576 } }
    figures += [
        Figure(name: "navigator-memory-1M", value: grown, unit: "MiB", target: .valueAtMost(8), count: bigN,
               note: "RssAnon after \(bigN) calls minus after \(early), same process, the recorder caught up; history \(footprint.historyEvents) events, "
                   + "\(footprint.historyCheckpoints) checkpoints, \(footprint.cachedRoutes) cached routes" + scaledNote),
        Figure(name: "navigator-call-max-1M", value: tally.slowest, unit: "µs", target: .valueAtMost(1_000), count: bigN,
               note: "the slowest single call of the session, the first excluded; bursts of 10,000 calls; slowest without a context switch "
                   + "\(Summary.format(tally.slowestUnswitched)) µs; the most CPU time one call used \(Summary.format(tally.mostCPU)) µs "
                   + "(call \(tally.mostCPUCall), the \(tally.mostCPUCall % 10_000 == 0 ? "first" : "\(tally.mostCPUCall % 10_000 + 1)th") of its burst; "
                   + "\(tally.over100) calls used over 100 µs); \(tally.blocked) calls blocked, \(tally.preempted) preempted (after the first \(early))" + scaledNote),
        Figure(name: "navigator-burst-memory-1M", value: burst.peakGrowth, unit: "MiB", target: .valueAtMost(8), count: bigN,
               note: "one uninterrupted burst of \(bigN) calls (the recorder never waited for): peak RssAnon, sampled every 10,000 calls, minus "
                   + "before the burst; the largest backlog \(burst.backlog) events, \(burst.held) of them in memory; \(Summary.format(burst.seconds)) s" + scaledNote),
        Figure(name: "navigator-memory-distinct-1M", value: distinct.grownMB, unit: "MB", target: .valueAtMost(8), count: bigN,
               note: "a new process: RssAnon after \(bigN) calls with a distinct payload on every route (the recorder then caught up, as flush() "
                   + "waits for it) minus before the first call, a new navigator on a new store; after each 100,000 calls (the recorder caught "
                   + "up, not timed) " + distinct.samplesMB.map { Summary.format($0) }.joined(separator: ", ") + " MB, "
                   + "\(Summary.format(distinct.bytesPerCall(after: min(bigN, 100_000), of: bigN))) bytes a call after the first 100,000; "
                   + "history \(distinct.historyEvents) events, \(distinct.checkpoints) checkpoints, \(distinct.cachedRoutes) cached routes, "
                   + "at most \(distinct.heldEvents) unwritten events held in memory" + scaledNote),
        Figure(name: "navigator-burst-max-1M", value: burst.calls.slowest, unit: "µs", target: .valueAtMost(1_000), count: bigN,
               note: "the slowest call of the same burst; slowest without a context switch \(Summary.format(burst.calls.slowestUnswitched)) µs; "
                   + "\(burst.calls.blocked) calls blocked, \(burst.calls.preempted) preempted" + scaledNote),
        Figure(name: "navigator-burst-max-cpu-1M", value: burst.calls.mostCPU, unit: "µs", target: .valueAtMost(1_000), count: bigN,
               note: "the most CPU time one call of the same burst used (CLOCK_THREAD_CPUTIME_ID around each call): what "
                   + "the slowest call costs the code, without the time the thread did not run" + scaledNote),
        Figure(name: "navigator-restore-1M", value: Measure.median(restores), unit: "ms", count: 5,
               note: "Navigator.restoringLatest on the \(head)-event session, median of 5" + scaledNote),
        Figure(name: "navigator-travel-1M", value: Measure.median(travels), unit: "ms", target: .valueAtMost(10), count: 100,
               note: "travel(to:) a seeded random seq of the \(head)-event session, median of 100 (\(checked) checked against the store); max "
                   + Summary.format(travels.max() ?? .nan) + " ms" + scaledNote),
    ]
    return figures
}

/// Waits (bounded) until the navigator's recorder has written everything.
@MainActor
func waitForRecorder(_ nav: Navigator<BenchRoute>) throws {
    let deadline = monotonicNanoseconds() + 300_000_000_000
    while nav.recordingStatus.pendingCount > 0 && monotonicNanoseconds() < deadline { usleep(1_000) }
    try require(nav.recordingStatus.pendingCount == 0 && nav.recordingStatus.error == nil,
                "the recorder did not write everything: \(nav.recordingStatus)")
}


/// An LMDB store seen as a plain `EventLog`: a navigator on it keeps no journal.
final class WithoutJournal: EventLog, @unchecked Sendable {
    let inner: LMDBEventLog
    init(_ inner: LMDBEventLog) { self.inner = inner }
    func createSession(_ session: NewSession) throws -> SessionInfo { try inner.createSession(session) }
    func sessions() throws -> [SessionInfo] { try inner.sessions() }
    func session(_ id: SessionID) throws -> SessionInfo { try inner.session(id) }
    func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        try inner.append(events, to: session, expectedSeq: expectedSeq)
    }
    func read(_ session: SessionID, from: UInt64, through: UInt64, _ body: (StoredEvent) throws -> Bool) throws {
        try inner.read(session, from: from, through: through, body)
    }
    func snapshot(_ session: SessionID, atOrBefore seq: UInt64) throws -> Snapshot? { try inner.snapshot(session, atOrBefore: seq) }
    func deleteSession(_ session: SessionID) throws { try inner.deleteSession(session) }
}

/// What a navigator keeps of calls whose routes never repeat a payload, measured in a process of
/// its own (a new process, as an app's: the benchmark's earlier figures leave freed memory in this
/// process's allocator that the calls would reuse).
struct DistinctPayloadMemory {
    /// RssAnon after every call was written, minus before the first call, in MB.
    var grownMB: Double
    /// The same after each 100,000 calls (the first: the history window and the route cache full).
    var samplesMB: [Double]
    /// The navigator's history events, checkpoints and cached routes at the end, and the most
    /// unwritten events it held in memory.
    var historyEvents: Int, checkpoints: Int, cachedRoutes: Int, heldEvents: Int

    /// RssAnon added per call from the first sample to the end.
    func bytesPerCall(after first: Int, of count: Int) -> Double {
        guard let s = samplesMB.first, count > first else { return 0 }
        return (grownMB - s) * 1e6 / Double(count - first)
    }

    /// The child process: `count` calls of ``DistinctMix`` on a new navigator on a new store at
    /// `path`, the recorder caught up after each 100,000 and at the end (as `flush()` waits for it;
    /// not timed); prints RssAnon before the first call, at the end, and after each 100,000.
    @MainActor
    static func child(store path: String, count: Int) throws {
        let store = try LMDBEventLog.open(at: path)
        let nav = try Navigator<BenchRoute>(log: store)
        let before = Measure.rssAnonBytes() ?? 0
        var held = 0
        var samples: [Int] = []
        for i in 0..<count {
            DistinctMix.call(nav, i)
            if i % 10_000 == 9_999 { held = max(held, nav.memoryFootprint.heldEvents) }
            if i % 100_000 == 99_999 && i < count - 1 {
                try waitForRecorder(nav)
                samples.append(Measure.rssAnonBytes() ?? 0)
            }
        }
        try waitForRecorder(nav)
        let after = Measure.rssAnonBytes() ?? 0
        try require(try store.session(nav.session).eventCount == nav.headSeq, "the store holds fewer events than the navigator made")
        let f = nav.memoryFootprint
        print("distinct-memory \(before) \(after) \(f.historyEvents) \(f.historyCheckpoints) \(f.cachedRoutes) \(held) "
            + samples.map(String.init).joined(separator: " "))
    }

    /// Runs ``child(store:count:)`` in a new process.
    static func measure(_ count: Int, in dir: TemporaryDirectory) throws -> DistinctPayloadMemory {
        progress("navigator-memory-distinct-1M: \(count) calls, a distinct payload on every route, in a new process")
        let (status, text) = try Measure.inNewProcess(["--navigator-distinct", try dir.subdirectory("distinct"), String(count)])
        let v = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).dropFirst().compactMap { Int($0) }
        guard status == 0, text.hasPrefix("distinct-memory "), v.count >= 6 else {
            throw BenchError("navigator-memory-distinct child failed (status \(status)): \(text)")
        }
        return DistinctPayloadMemory(grownMB: Double(v[1] - v[0]) / 1e6, samplesMB: v[6...].map { Double($0 - v[0]) / 1e6 },
                                     historyEvents: v[2], checkpoints: v[3], cachedRoutes: v[4], heldEvents: v[5])
    }
}

/// What one uninterrupted burst of calls costs: an app whose calls outrun the recorder for a while
/// (the paced bursts of navigator-memory-1M let it catch up every 10,000 calls).
struct BurstFigures {
    var peakGrowth: Double?
    var backlog: Int
    /// The most unwritten events held in memory (the rest were in the journal only).
    var held = 0
    var calls = CallTally()
    var seconds: Double
}

/// What timed calls said, call by call: the slowest, with and without a context switch, the most
/// CPU time one used, and how many blocked or were preempted.
struct CallTally {
    var slowest = 0.0
    var slowestUnswitched = 0.0
    var mostCPU = 0.0
    /// The index of the call that used the most CPU time.
    var mostCPUCall = 0
    var over100 = 0
    var blocked = 0
    var preempted = 0

    /// Counts `calls`, the first of them call `first`.
    mutating func add(_ calls: [TimedCall], from first: Int) {
        for (k, c) in calls.enumerated() {
            slowest = max(slowest, c.micros)
            if c.cpuMicros > mostCPU { (mostCPU, mostCPUCall) = (c.cpuMicros, first + k) }
            if c.cpuMicros > 100 { over100 += 1 }
            if c.voluntary > 0 { blocked += 1 }
            if c.involuntary > 0 { preempted += 1 }
            if c.voluntary == 0 && c.involuntary == 0 { slowestUnswitched = max(slowestUnswitched, c.micros) }
        }
    }
}

@MainActor
func uninterruptedBurst(_ count: Int, in dir: TemporaryDirectory) throws -> BurstFigures {
    progress("navigator-burst-1M: \(count) calls in one burst")
    let store = try LMDBEventLog.open(at: try dir.subdirectory("burst"))
    let nav = try Navigator<BenchRoute>(log: store)
    // A warm-up the recorder catches up with, so the burst starts from a steady navigator.
    _ = timedCalls(10_000) { NavigatorMix.call(nav, $0) }
    try waitForRecorder(nav)
    let before = Measure.rssAnonBytes()
    var peak = before ?? 0, backlog = 0
    var r = BurstFigures(peakGrowth: nil, backlog: 0, seconds: 0)
    let t0 = monotonicNanoseconds()
    var done = 10_000
    while done < 10_000 + count {
        let chunk = min(10_000, 10_000 + count - done)
        r.calls.add(timedCallsWithSwitches(chunk, from: done, { NavigatorMix.call(nav, $0) }), from: done)
        done += chunk
        peak = max(peak, Measure.rssAnonBytes() ?? 0)
        let footprint = nav.memoryFootprint
        backlog = max(backlog, footprint.unwrittenEvents)
        r.held = max(r.held, footprint.heldEvents)
    }
    r.seconds = Double(monotonicNanoseconds() - t0) / 1e9
    try waitForRecorder(nav)
    try require(try store.session(nav.session).eventCount == nav.headSeq, "the store holds fewer events than the burst made")
    r.peakGrowth = before.map { Double(peak - $0) / 1_048_576 }
    r.backlog = backlog
    return r
}
