import Foundation
@_exported import RouteLogTestSupport
import RouteLogCore
@testable import RouteLogLMDB

/// `n` recorded events from a seeded generator, with timestamps that count up.
func generatedEvents(_ n: Int, seed: UInt64, mix: SessionGenerator.Mix = .realistic, startTime: Int64 = 1_700_000_000_000) -> [RecordedEvent] {
    var g = SessionGenerator(seed: seed, mix: mix)
    return g.events(n).enumerated().map { i, e in
        RecordedEvent(e, meta: EventMetadata(timestamp: startTime + Int64(i), origin: i % 3 == 0 ? .user : .app))
    }
}

/// The built products directory (where the crash-test helper lives).
var productsDirectory: URL {
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    if let bundle { return bundle.bundleURL.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

func testOptions(_ durability: LMDBEventLog.Durability = .none, snapshotInterval: UInt64 = 64, readOnly: Bool = false, mapSize: Int = 1 << 20) -> LMDBEventLog.Options {
    LMDBEventLog.Options(readOnly: readOnly, durability: durability, snapshotInterval: snapshotInterval, initialMapSize: mapSize,
                         clock: { 1_700_000_000_000 })
}

/// A running `routelog-lmdb-crashtest` child with its stdout read line by line.
final class Child {
    let process = Process()
    private let pipe = Pipe()
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []

    init(_ arguments: [String]) throws {
        process.executableURL = productsDirectory.appendingPathComponent("routelog-lmdb-crashtest")
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until one more line arrives; `nil` at end of output.
    func nextLine() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                lines.append(line)
                return line
            }
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty {
                if !buffer.isEmpty {
                    // A partial last line (killed mid-write) is not an acknowledgement.
                    buffer.removeAll()
                }
                return nil
            }
            buffer.append(contentsOf: data)
        }
    }

    /// Reads the rest of the output and waits for the exit.
    func finish() -> Int32 {
        while nextLine() != nil {}
        process.waitUntilExit()
        return process.terminationStatus
    }

    func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }
}
