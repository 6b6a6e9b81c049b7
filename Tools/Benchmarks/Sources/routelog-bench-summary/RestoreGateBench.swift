import Foundation
@_spi(Tools) import RouteLog
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
import RouteLogTesting

/// `--only restore`: RouteLogTesting's restore gate (`restoreCorpus`) on a `last-states` corpus of
/// 100,000 small sessions in ten app versions, against reading the same lines into states.
enum RestoreGateBench {
    /// The routes versions 1.0 to 1.4 recorded.
    enum OldRoute: Routable {
        case episode(id: Int)
        case upsell(feature: String)
        case settings
        var id: String {
            switch self {
            case .episode(let id): "episode-\(id)"
            case .upsell: "upsell"
            case .settings: "settings"
            }
        }
    }

    /// Today's routes: `episode` renamed to `details`, `upsell` removed.
    enum Route: Routable {
        case details(episode: Int)
        case player(episode: Int)
        case settings
        var id: String {
            switch self {
            case .details(let e): "episode-\(e)"
            case .player: "player"
            case .settings: "settings"
            }
        }

        static func migrate(_ recorded: RecordedRoute) throws -> Route? {
            if let today = try? recorded.route(as: Route.self) { return today }
            switch try recorded.decode(OldRoute.self) {
            case .episode(let id): return .details(episode: id)
            case .upsell: return nil
            case .settings: return .settings
            }
        }
    }

    /// `n` sessions of one to four routes, as `routelog export --format last-states` writes them.
    static func corpus(_ n: Int) -> String {
        var rng = SplitMix64(seed: 0x6A7E)
        var out = ""
        out.reserveCapacity(n * 400)
        for i in 0..<n {
            let version = "1.\(i % 10)"
            let old = i % 10 < 5
            var events: [Event] = []
            for _ in 0...(rng.next() % 3) {
                let episode = Int(rng.next() % 1_000)
                events.append(.push(old ? try! RouteRef(OldRoute.episode(id: episode)) : try! RouteRef(Route.details(episode: episode))))
            }
            switch rng.next() % 8 {
            case 0: events.append(.show(try! RouteRef(OldRoute.upsell(feature: "f\(rng.next() % 20)")), style: .sheet))
            case 1, 2: events.append(.show(try! RouteRef(Route.player(episode: Int(rng.next() % 1_000))), style: .fullScreenCover))
            default: break
            }
            let state = replay(events).state
            out += JSONValue.object([
                "session": .string("s\(i)"), "app": .string("Pods"), "app_version": .string(version),
                "session_app_version": .string(version), "seq": .int(Int64(events.count)),
                "digest": .string(state.digest.hex), "state": state.json,
            ]).canonicalText + "\n"
        }
        return out
    }

    static func figures(_ o: Options) throws -> [Figure] {
        let n = o.count(100_000)
        let dir = try TemporaryDirectory(prefix: "routelog-bench-restore")
        defer { dir.remove() }
        progress("restore gate: generating a last-states corpus of \(n) sessions")
        let path = dir.file("last-states.jsonl")
        try corpus(n).write(toFile: path, atomically: false, encoding: .utf8)
        let runs = max(1, min(3, o.runs))

        var tRead: [Double] = [], tGate: [Double] = []
        for r in 0..<runs {
            progress("restore gate run \(r + 1)/\(runs)")
            tRead += try Measure.seconds(runs: 1) {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                var count = 0
                for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
                    let o = try JSONValue(parsing: Array(line))
                    _ = try NavigationState(json: o["state"] ?? .null)
                    count += 1
                }
                try require(count == n, "read \(count) lines, not \(n)")
            }
            var restoration: CorpusRestoration?
            tGate += try Measure.seconds(runs: 1) { restoration = try restoreCorpus(path, as: Route.self) }
            try require(restoration?.total.sessions == n, "the gate counted \(restoration?.total.sessions ?? 0) sessions, not \(n)")
            let total = restoration?.total
            try require((total?.whole ?? 0) > n / 2 && (total?.partly ?? 0) > 0, "the corpus has no mix of outcomes: \(restoration?.description ?? "")")
        }
        let read = Measure.median(tRead), gate = tGate.min()!
        let scaled = n < 100_000 ? "; \(n) sessions (scaled)" : ""
        return [
            Figure(name: "last-states-read", value: tRead.min()!, unit: "s", count: n, median: read, runs: runs,
                   note: "baseline: read the file, parse each line, NavigationState(json:)" + scaled),
            Figure(name: "restore-gate-100k", value: gate, unit: "s", baseline: "last-states-read", baselineValue: tRead.min()!,
                   target: .valueAtMost(10), count: n, median: Measure.median(tGate), runs: runs,
                   note: "restoreCorpus on a last-states file: 1-4 routes a session, 10 app versions, half of them an old route type "
                       + "(a renamed case migrated, a removed case dropped)" + scaled),
        ]
    }
}
