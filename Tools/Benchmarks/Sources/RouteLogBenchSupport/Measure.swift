import Foundation

/// Wall-clock timing on the monotonic clock.
public enum Measure {
    /// Runs `body` `runs` times and returns each run's duration in seconds.
    public static func seconds(runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
        let clock = ContinuousClock()
        var out: [Double] = []
        for _ in 0..<max(1, runs) {
            let d = try clock.measure { try body() }
            out.append(d.seconds)
        }
        return out
    }

    /// The duration of one call of `body`, in seconds, and its result.
    public static func once<T>(_ body: () throws -> T) rethrows -> (T, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        return (value, (clock.now - start).seconds)
    }

    /// Runs this program again with `arguments` (a figure measured in a process of its own) and
    /// returns its exit status and what it printed.
    public static func inNewProcess(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    public static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// Peak and current anonymous resident memory of this process (`RssAnon` in
    /// `/proc/self/status`), in bytes; `nil` where there is no `/proc`.
    public static func rssAnonBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("RssAnon:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kib = Int(parts[1]) else { return nil }
            return kib * 1024
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// A temporary directory, removed with everything in it by ``remove()``.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(prefix: String) throws {
        let base = ProcessInfo.processInfo.environment["BENCH_TMPDIR"] ?? NSTemporaryDirectory()
        let dir = (base as NSString).appendingPathComponent("\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        path = dir
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    public func subdirectory(_ name: String) throws -> String {
        let p = file(name)
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
