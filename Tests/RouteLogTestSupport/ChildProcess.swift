import Foundation

/// The built products directory, where the test programs (`Tests/Programs`) are built beside the tests.
public var productsDirectory: URL {
    let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }
    if let bundle { return bundle.bundleURL.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// A child process of a test: the tests' one way to start a program. Either read as it runs (its
/// standard output line by line, its standard input written with ``send(_:)``: `output: .lines`) or
/// run to its end with its output captured (``run(_:_:environment:unsetting:directory:stdin:output:timeout:)``,
/// or ``wait()`` from synchronous code). Used from one thread at a time.
public final class Child: @unchecked Sendable {
    /// The child's standard input.
    public enum Input: Sendable {
        /// A pipe the test writes with ``send(_:)`` and closes with ``closeInput()``.
        case pipe
        /// `/dev/null`.
        case empty
        /// This text, then the end.
        case text(String)
    }

    /// What becomes of the child's standard output and error.
    public enum Output: Sendable {
        /// Standard output read line by line (``nextLine()``, ``rest()``); standard error discarded.
        case lines
        /// Both captured, each on its own (``Result/stdout``, ``Result/stderr``).
        case separate
        /// Both captured together, in the order they were written (``Result/stdout``; `stderr` empty).
        case merged
    }

    /// How a child ended, and what it wrote (what `output` captured).
    public struct Result: Sendable, CustomStringConvertible {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Standard output then standard error (with `output: .merged`, everything, in order).
        public var output: String { stdout + stderr }
        public var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    /// The child ran past its timeout and was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: String
        public var timeout: Duration
        /// What it had written by then.
        public var result: Result
        public var description: String { "\(command) did not end within \(timeout) and was killed; \(result)" }
    }

    public let process = Process()
    public private(set) var lines: [String] = []
    private let outputMode: Output
    private var pipe: Pipe?
    private var input: Pipe?
    private var buffer: [UInt8] = []
    private var files: TempDir?
    private let exit = Exit()

    /// Starts the test program `executable` (built beside the tests) with `arguments`, and
    /// `environment` over this process's, its standard output read line by line.
    public convenience init(_ arguments: [String], executable: String = "routelog-lmdb-crashtest", environment: [String: String] = [:]) throws {
        try self.init(path: productsDirectory.appendingPathComponent(executable).path, arguments, environment: environment)
    }

    /// Starts the program at `path` with `arguments`, in `directory` (else this process's), with
    /// this process's environment less `unsetting` plus `environment`.
    public init(path: String, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
                directory: URL? = nil, stdin: Input = .pipe, output: Output = .lines) throws {
        outputMode = output
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty || !unsetting.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for key in unsetting { env[key] = nil }
            process.environment = env.merging(environment) { $1 }
        }
        switch stdin {
        case .pipe:
            let input = Pipe()
            self.input = input
            process.standardInput = input
        case .empty:
            process.standardInput = FileHandle.nullDevice
        case .text(let text):
            let files = try self.files ?? TempDir()
            self.files = files
            let url = files.url.appendingPathComponent("stdin")
            try Data(text.utf8).write(to: url)
            process.standardInput = try FileHandle(forReadingFrom: url)
        }
        // Captured output goes to files, which never fill up as a pipe does when nobody reads it.
        switch output {
        case .lines:
            let pipe = Pipe()
            self.pipe = pipe
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
        case .separate, .merged:
            let files = try self.files ?? TempDir()
            self.files = files
            process.standardOutput = try Self.file(files, "stdout")
            process.standardError = output == .merged ? process.standardOutput : try Self.file(files, "stderr")
        }
        let exit = self.exit
        process.terminationHandler = { _ in exit.signal() }
        try process.run()
    }

    private static func file(_ dir: TempDir, _ name: String) throws -> FileHandle {
        let url = dir.url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return try FileHandle(forWritingTo: url)
    }

    /// Runs the program at `path` to its end without holding a thread (other tests run meanwhile) and
    /// returns its status and captured output; with a `timeout`, kills it after that long and
    /// throws ``TimedOut``.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
                           directory: URL? = nil, stdin: Input = .empty, output: Output = .separate,
                           timeout: Duration? = nil) async throws -> Result {
        precondition(output != .lines, "Child.run captures the output: use .separate or .merged")
        let child = try Child(path: path, arguments, environment: environment, unsetting: unsetting,
                              directory: directory, stdin: stdin, output: output)
        guard let timeout else {
            await child.exit.wait()
            return try child.captured()
        }
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await child.exit.wait(); return true }
            group.addTask { try? await Task.sleep(for: timeout); return false }
            let first = await group.next() ?? true
            if !first { child.kill() }
            await group.waitForAll()
            return first
        }
        let result = try child.captured()
        if !ended { throw TimedOut(command: ([path] + arguments).joined(separator: " "), timeout: timeout, result: result) }
        return result
    }

    /// Waits for the exit (blocking this thread) and returns the status and the captured output.
    public func wait() throws -> Result {
        process.waitUntilExit()
        return try captured()
    }

    private func captured() throws -> Result {
        func read(_ name: String) throws -> String {
            guard let files else { return "" }
            let url = files.url.appendingPathComponent(name)
            return FileManager.default.fileExists(atPath: url.path) ? try String(contentsOf: url, encoding: .utf8) : ""
        }
        return Result(status: process.terminationStatus, stdout: try read("stdout"), stderr: outputMode == .separate ? try read("stderr") : "")
    }

    /// What the child has written to its standard output so far (`output: .separate` or `.merged`),
    /// read while it runs.
    public func stdoutSoFar() throws -> String {
        guard let files, outputMode != .lines else { preconditionFailure("stdoutSoFar() reads a child whose output is captured") }
        return try String(contentsOf: files.url.appendingPathComponent("stdout"), encoding: .utf8)
    }

    /// Blocks until one more line arrives; `nil` at end of output.
    public func nextLine() -> String? {
        guard let pipe else { preconditionFailure("nextLine() reads a child started with output: .lines") }
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
    public func send(_ line: String) { try? input?.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }

    /// Closes the child's standard input (children that wait for its end then exit).
    public func closeInput() { try? input?.fileHandleForWriting.close() }

    public func kill() { Foundation.kill(process.processIdentifier, SIGKILL) }
}

/// A child's exit, awaited without holding a thread: signalled by the process's termination handler.
private final class Exit: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func signal() {
        lock.lock()
        ended = true
        let resume = waiters
        waiters = []
        lock.unlock()
        for w in resume { w.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if ended {
                lock.unlock()
                c.resume()
            } else {
                waiters.append(c)
                lock.unlock()
            }
        }
    }
}
