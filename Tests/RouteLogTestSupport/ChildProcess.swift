import Foundation

/// The built products directory, where the test programs (`Tests/Programs`) are built beside the tests.
public var productsDirectory: URL {
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    if let bundle { return bundle.bundleURL.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// A running test program (`routelog-lmdb-crashtest` unless told otherwise) with its standard
/// output read line by line. Used from one thread at a time.
public final class Child: @unchecked Sendable {
    public let process = Process()
    private let pipe = Pipe()
    private var buffer: [UInt8] = []
    public private(set) var lines: [String] = []
    private let input = Pipe()

    /// Starts the test program `executable` (built beside the tests) with `arguments`, and
    /// `environment` over this process's.
    public init(_ arguments: [String], executable: String = "routelog-lmdb-crashtest", environment: [String: String] = [:]) throws {
        process.executableURL = productsDirectory.appendingPathComponent(executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = pipe
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until one more line arrives; `nil` at end of output.
    public func nextLine() -> String? {
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

    /// The lines until the end of the output (a partial last line is dropped), after waiting for
    /// the exit.
    public func rest() -> [String] {
        var out: [String] = []
        while let line = nextLine() { out.append(line) }
        process.waitUntilExit()
        return out
    }

    /// Reads the rest of the output and waits for the exit.
    public func finish() -> Int32 {
        _ = rest()
        return process.terminationStatus
    }

    /// Writes `line` and a newline to the child's standard input.
    public func send(_ line: String) { try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

    /// Closes the child's standard input (children that wait for its end then exit).
    public func closeInput() { try? input.fileHandleForWriting.close() }

    public func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }
}
