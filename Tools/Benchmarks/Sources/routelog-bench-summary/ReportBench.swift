import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogTimeline

// MARK: - Report figures (the timeline HTML page)

/// The size of `routelog report`'s page for 100,000 realistic events, and the time to build and
/// write it (replay with per-event splices and state diffs, encode, write the file).
func reportFigures(_ o: Options) throws -> [Figure] {
    let n = o.count(100_000)
    progress("generating \(n) realistic events for a report")
    // Realistic metadata: timestamps, origins and a few dozen call sites, as an app records them.
    let recorded = Workloads.realistic(n).enumerated().map { i, e in
        var r = Workloads.recorded(e, index: i)
        r.meta.callSite = CallSite(file: "Features/Screen\(i % 23).swift", line: 40 + (i * 7) % 61)
        return r
    }
    let log = InMemoryEventLog(snapshotInterval: 256, clock: { 1_795_000_000_000 })
    let info = try log.createSession(NewSession(label: "bench report", appName: "Bench", appVersion: "1.0"))
    let stored = try log.append(recorded, to: info.id, expectedSeq: 0)
    let header = Timeline.Header(try log.session(info.id))
    let dir = try TemporaryDirectory(prefix: "routelog-bench-report")
    defer { dir.remove() }
    let path = (dir.path as NSString).appendingPathComponent("report.html")
    var size = 0
    let runs = max(1, min(3, o.runs))
    let times = try Measure.seconds(runs: runs) {
        let html = Timeline.build(header: header, events: stored).html()
        try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        size = html.utf8.count
    }
    // The last state's text in the page's data must be what the splices lead to.
    let t = Timeline.build(header: header, events: stored)
    var text = t.initialStateJSON
    for e in t.entries { text = e.splice.apply(to: text) }
    try require(text == (try log.state(of: info.id, at: UInt64(n))).json.canonicalText, "the report's splices do not reach the last state")
    let limit = 25_000_000 * Double(n) / 100_000
    return [
        Figure(name: "report-size", value: Double(size), unit: "bytes", target: .valueAtMost(limit), count: n,
               note: "routelog report's HTML page, \(Summary.format(Double(size) / Double(n))) bytes/event; target 25 MB per 100k events"),
        Figure(name: "report-write", value: times.min()!, unit: "s", count: n, median: Measure.median(times), runs: runs,
               note: "build the timeline (replay, splices, state diffs), encode and write the page"),
    ]
}

/// `routelog report` of a session whose stack grows 100,000 deep (one push per event): the page's
/// data must grow with the events plus their changes, not events × state size. Runs the release
/// binary on a fixture file (wall time and peak RSS of the child, see ``CLIBench``).
enum DeepReportBench {
    static func figures(bin: String, runs: Int) throws -> [Figure] {
        let n = 100_000
        let dir = try TemporaryDirectory(prefix: "routelog-bench-deep-report")
        defer { dir.remove() }
        let file = (dir.path as NSString).appendingPathComponent("deep.json")
        let page = (dir.path as NSString).appendingPathComponent("deep.html")
        let events = (0..<n).map { i in Event.push(RouteRef(id: "screen-\(i)", type: "Screen", payload: RawJSON(.object(["n": .int(Int64(i))])))) }
        try Fixture(name: "deep", events: events).write(toFile: file)
        progress("report-deep-100k, \(runs) run(s)")
        let run = try CLIBench.measure(bin, ["report", file, "-o", page], runs: runs, expect: [0])
        let size = (try? FileManager.default.attributesOfItem(atPath: page)[.size] as? Int) ?? 0
        return [
            Figure(name: "report-deep-100k", value: run.best.seconds, unit: "s", target: .valueAtMost(15), count: n, median: run.median, runs: runs,
                   note: "routelog report FILE -o PAGE, \(n) pushes (the stack grows \(n) deep), page \(Summary.format(Double(size) / 1_048_576)) MiB; \(CLIBench.cpu(run.best)); target 15 s"),
            Figure(name: "report-deep-100k-rss", value: Double(run.best.maxRSS) / 1_048_576, unit: "MiB", target: .valueAtMost(1024), count: n,
                   note: "peak RSS (ru_maxrss) of that run"),
        ]
    }
}
