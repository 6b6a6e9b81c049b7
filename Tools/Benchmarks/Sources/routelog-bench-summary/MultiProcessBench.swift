import Foundation
import RouteLogBenchSupport
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

/// `append-multiprocess`: several processes appending batches to one store, against one process.
///
/// The appenders are this executable re-invoked as `--append-child STORE COUNT BATCH`: each opens
/// the store (the first ones race its creation), creates its own session, generates its events,
/// says `ready`, waits for `go` on its stdin, appends, flushes and says `done`. The clock runs
/// from the moment the last child is ready and told to go until the last one is done, so process
/// start-up, event generation and session creation are not measured.
enum MultiProcessBench {
    static let batch = 100

    static func figures(_ o: Options) throws -> [Figure] {
        let total = o.count(200_000) / 4 * 4
        let dir = try TemporaryDirectory(prefix: "routelog-bench-mp")
        defer { dir.remove() }
        let runs = max(1, min(3, o.runs))
        var tSingle: [Double] = [], tFour: [Double] = []
        for r in 0..<runs {
            progress("append-1process run \(r + 1)/\(runs), \(total) events")
            tSingle.append(try measure(processes: 1, total: total, at: dir.file("single-\(r)")))
            progress("append-multiprocess run \(r + 1)/\(runs), 4 processes × \(total / 4) events")
            tFour.append(try measure(processes: 4, total: total, at: dir.file("four-\(r)")))
        }
        let single = rate(total, tSingle), four = rate(total, tFour)
        let how = "batches of \(batch), default .grouped durability, each process its own session, final flush included"
        return [
            Figure(name: "append-1process", value: single.best, unit: "events/s", count: total, median: single.median, runs: runs,
                   note: "baseline: one process appending \(total) events, \(how)"),
            Figure(name: "append-multiprocess", value: four.best, unit: "events/s", baseline: "append-1process", baselineValue: single.best,
                   count: total, median: four.median, runs: runs,
                   note: "4 processes appending \(total / 4) events each to one store at once, \(how); no target: LMDB serializes writers"),
        ]
    }

    /// Seconds for `processes` children to append `total` events between them, checked afterwards.
    static func measure(processes: Int, total: Int, at path: String) throws -> Double {
        let per = total / processes
        let children = try (0..<processes).map { _ in try AppendChild(store: path, count: per) }
        defer { children.forEach { $0.terminate() } }
        for child in children {
            let line = child.nextLine()
            guard line == "ready" else { throw BenchError("append-multiprocess: a child said \(line ?? "nothing") (status \(child.status))") }
        }
        let clock = ContinuousClock()
        let start = clock.now
        for child in children { child.go() }
        var sessions: [String] = []
        for child in children {
            let line = child.nextLine() ?? ""
            guard line.hasPrefix("done ") else { throw BenchError("append-multiprocess: a child said \(line) (status \(child.status))") }
            sessions.append(String(line.dropFirst(5)))
        }
        let seconds = (clock.now - start).seconds
        let log = try LMDBEventLog.open(at: path, options: .init(readOnly: true))
        let stored = try log.sessions()
        guard stored.count == processes, Set(stored.map(\.id.rawValue)) == Set(sessions),
              stored.allSatisfy({ $0.eventCount == UInt64(per) }) else {
            throw BenchError("append-multiprocess: the store holds \(stored.map(\.eventCount)), not \(processes) × \(per) events")
        }
        return seconds
    }

    /// The child: `routelog-bench-summary --append-child STORE COUNT`.
    static func child(store: String, count: Int) throws {
        let log = try LMDBEventLog.open(at: store)
        let session = try log.createSession(NewSession(label: "bench-\(getpid())")).id
        let events = Workloads.recorded(Workloads.realistic(count))
        say("ready")
        guard readLine() == "go" else { throw BenchError("no go") }
        var seq = 0
        while seq < events.count {
            let end = min(events.count, seq + batch)
            try log.append(Array(events[seq..<end]), to: session, expectedSeq: UInt64(seq))
            seq = end
        }
        try log.flush()
        say("done \(session.rawValue)")
    }
}

/// Writes one line to stdout at once (unbuffered), for the parent waiting on it.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A running `--append-child` process: its stdin takes `go`, its stdout is read line by line.
final class AppendChild {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer: [UInt8] = []

    init(store: String, count: Int) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--append-child", store, "\(count)"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    var status: String { process.isRunning ? "running" : "\(process.terminationStatus)" }

    func go() { input.fileHandleForWriting.write(Data("go\n".utf8)) }

    /// The next line, or `nil` at the end of the output.
    func nextLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                defer { buffer.removeSubrange(...nl) }
                return String(decoding: buffer[..<nl], as: UTF8.self)
            }
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { return nil }
            buffer.append(contentsOf: data)
        }
    }

    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
