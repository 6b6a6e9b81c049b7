// A small driver for profilers (callgrind, perf): one workload per run, timed.
//
//   routelog-profile append|append-folded|append-grouped|replay|fold|fold-without-digest|digest|rawscan|route-encode|navigator[-distinct][-paced] COUNT [DIR]
import Foundation
@_spi(Benchmarks) @_spi(Tools) import RouteLogCore
import RouteLogBenchSupport
@_spi(Tools) import RouteLogLMDB

let args = CommandLine.arguments
let mode = args.count > 1 ? args[1] : "append"
let count = args.count > 2 ? Int(args[2])! : 50_000
let dir = args.count > 3 ? args[3] : NSTemporaryDirectory() + "routelog-profile-\(getpid())"
// The navigator modes make their own calls (and measure the process's memory).
let events = mode.hasPrefix("navigator") ? [] : Workloads.recorded(Workloads.realistic(count))
let clock = ContinuousClock()

/// PROFILE_FORMAT=3: the modes that make a store make it in format 3.
let profileFormat = ProcessInfo.processInfo.environment["PROFILE_FORMAT"].flatMap(UInt32.init)

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

func report(_ what: String, _ d: Duration) {
    let s = seconds(d)
    print("\(what): \(count) events in \(String(format: "%.3f", s)) s = \(Int(Double(count) / s)) ev/s")
}

func appendAll(_ path: String) throws -> SessionID {
    var options = LMDBEventLog.Options()
    if let profileFormat { options.storeFormat = profileFormat }
    let log = try LMDBEventLog.open(at: path, options: options)
    let session = try log.createSession(NewSession(label: "profile")).id
    var i = 0
    while i < events.count {
        let end = min(events.count, i + 1000)
        try log.append(Array(events[i..<end]), to: session, expectedSeq: UInt64(i))
        i = end
    }
    try log.flush()
    return session
}

/// The events' digests, as the navigator's fold gives them (for `append-folded`, outside the timing).
func foldedDigests() -> [Digest] {
    var r = Replayer()
    return events.map { r.apply($0.event).digest }
}

func appendAllFolded(_ path: String, digests: [Digest]) throws {
    let log = try LMDBEventLog.open(at: path)
    let session = try log.createSession(NewSession(label: "profile")).id
    var i = 0
    while i < events.count {
        let end = min(events.count, i + 1000)
        try log.appendFolded(Array(events[i..<end]), digests: Array(digests[i..<end]), to: session, expectedSeq: UInt64(i))
        i = end
    }
    try log.flush()
}

switch mode {
case "make-store":
    // A store at DIR with one session of COUNT realistic events, kept (to profile the CLI on).
    let session = try appendAll(dir)
    print(session.rawValue)
case "append-folded":
    try? FileManager.default.removeItem(atPath: dir)
    let digests = foldedDigests()
    let t = try clock.measure { try appendAllFolded(dir, digests: digests) }
    report("append-folded", t)
    try? FileManager.default.removeItem(atPath: dir)
case "append-grouped":
    // One event per append from 4 threads, `.grouped(maxDelay: 100 ms)`: the store bench's
    // append-grouped (PROFILE_FORMAT=3: a store in format 3).
    try? FileManager.default.removeItem(atPath: dir)
    let t = try GroupedAppends.seconds(events, appenders: 4, at: dir, storeFormat: profileFormat)
    report("append-grouped", .seconds(t))
    try? FileManager.default.removeItem(atPath: dir)
case "fold-without-digest":
    let plain = events.map(\.event)
    var state = NavigationState()
    let t = clock.measure {
        for (i, e) in plain.enumerated() { state.applyWithoutDigest(e, seq: UInt64(i + 1)) }
        state.refreshDigest()
    }
    report("fold-without-digest", t)
    print(state.digest)
case "append":
    try? FileManager.default.removeItem(atPath: dir)
    let t = try clock.measure { _ = try appendAll(dir) }
    report("append", t)
    try? FileManager.default.removeItem(atPath: dir)
case "replay":
    try? FileManager.default.removeItem(atPath: dir)
    let session = try appendAll(dir)
    var digest = Digest.zero
    let t = try clock.measure {
        let log = try LMDBEventLog.open(at: dir, options: .init(readOnly: true))
        var r = Replayer()
        // As `make bench`'s replay: the stored digests (format 4: each block's) checked against the fold.
        try log.readWithoutDigests(session, from: 1, through: .max) { e in
            let step = r.apply(e.event)
            precondition(step.outcome == e.outcome && (e.digest == .zero || step.digest == e.digest))
            return true
        }
        digest = r.state.digest
    }
    report("replay", t)
    print(digest)
    try? FileManager.default.removeItem(atPath: dir)
case "fold":
    let plain = events.map(\.event)
    var applied = 0
    let t = clock.measure { applied = Folds.withDigest(plain).applied }
    report("fold+digest", t)
    print(applied)
case "digest":
    let plain = events.map(\.event)
    var d = Digest.zero
    let t = clock.measure { d = Folds.digestTerms(plain) }
    report("digest-terms", t)
    print(d)
case "route-encode":
    // The navigator's routes as its calls encode them (RawJSON(encoding:), RouteRef), COUNT each.
    let routes: [BenchRoute] = [.episode(id: 42, title: "Pilot"), .show(name: "Lost", season: 2),
                                .player(episode: 7, position: 12.5, chapters: ["a", "b"]), .alert(message: "Oops"), .settings]
    for route in routes {
        var bytes = 0
        let t = try clock.measure { for _ in 0..<count { bytes &+= try RawJSON(encoding: route).text.utf8.count } }
        let refs = try clock.measure { for _ in 0..<count { bytes &+= try RouteRef(route).id.utf8.count } }
        let ns = { (d: Duration) in seconds(d) * 1e9 / Double(count) }
        print("\(route.id): RawJSON(encoding:) \(String(format: "%.0f", ns(t))) ns, RouteRef(_:) \(String(format: "%.0f", ns(refs))) ns (\(bytes))")
    }
case "navigator", "navigator-distinct", "navigator-paced", "navigator-distinct-paced":
    try MainActor.assumeIsolated { try profileNavigator(count: count, dir: dir, distinct: mode.contains("distinct"), paced: mode.hasSuffix("paced")) }
default:
    print("unknown mode \(mode)")
}
