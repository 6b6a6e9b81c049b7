import Dispatch
import Foundation
import RouteLogLMDB

/// Keeps a damaged store from taking `routelog` down.
///
/// LMDB 0.9 trusts its pages: a flipped bit in `data.mdb` can make `mdb_cursor_get` read through a
/// wild pointer (SIGSEGV), map a page past the end of the file (SIGBUS), or follow a page loop
/// forever. No check in RouteLog can run before LMDB touches those pages, so the work is contained
/// instead: when the command will read an existing store, `routelog` re-executes itself as a child
/// process (marked by ``childMarker``) that does the work with the same arguments, standard input,
/// output and error, and the parent only watches it. The child's exit status is passed through;
/// a child killed by a crash signal, or still running after ``timeoutKey`` seconds (default 300),
/// becomes the documented data error: one line naming the store, exit 3.
///
/// Not contained (no store is read, or the command runs for as long as the user wants):
/// help and version requests, `fixtures`, a store directory without `data.mdb`, and
/// `log --follow`. `bisect --run` is contained without the time bound.
public enum StoreContainment {
    /// Set in the child's environment: the child does the work itself.
    static let childMarker = "ROUTELOG_STORE_CHILD"
    /// Seconds a command may read the store before it counts as an LMDB page loop; `0` means no bound.
    static let timeoutKey = "ROUTELOG_STORE_TIMEOUT"
    static let defaultTimeout: Double = 300

    /// Runs the command in a watched child when it reads a store; returns the exit status to end
    /// with, or `nil` when this process should run the command itself.
    public static func runIfNeeded(arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        if environment[childMarker] != nil {
            injectTestFault(environment)
            return nil
        }
        guard let store = storeRead(by: arguments, environment: environment) else { return nil }
        guard let executable = Bundle.main.executablePath else { return nil }
        var timeout = Double(environment[timeoutKey] ?? "") ?? defaultTimeout
        if arguments.contains("--run") || arguments.contains(where: { $0.hasPrefix("--run=") }) { timeout = 0 }

        var childEnvironment = environment
        childEnvironment[childMarker] = "1"
        // A crash is reported by the parent in one line; the runtime's backtrace would only add noise.
        if childEnvironment["SWIFT_BACKTRACE"] == nil { childEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        child.environment = childEnvironment
        let finished = DispatchSemaphore(value: 0)
        child.terminationHandler = { _ in finished.signal() }

        // Signals meant for routelog go to the child; the parent then ends the same way.
        let forwarded = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
        var sources: [any DispatchSourceSignal] = []
        for sig in forwarded {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { if child.isRunning { kill(child.processIdentifier, sig) } }
            source.resume()
            sources.append(source)
        }
        do {
            try child.run()
        } catch {
            // Could not start the watcher's child: run the command unwatched rather than not at all.
            for sig in forwarded { signal(sig, SIG_DFL) }
            return nil
        }
        let timedOut: Bool
        if timeout > 0 {
            timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
        } else {
            finished.wait()
            timedOut = false
        }
        if timedOut {
            kill(child.processIdentifier, SIGKILL)
            finished.wait()
            printError(damaged(store, "reading it did not finish within \(Int(timeout)) s, the mark of an LMDB page loop"))
            return Exit.data
        }
        sources.forEach { $0.cancel() }
        for sig in forwarded { signal(sig, SIG_DFL) }
        let status = child.terminationStatus
        guard child.terminationReason == .uncaughtSignal else { return status }
        if forwarded.contains(status) || status == SIGKILL || status == SIGPIPE {
            // Interrupted or killed from outside: end the same way.
            signal(status, SIG_DFL)
            kill(getpid(), status)
            return 128 + status
        }
        printError(damaged(store, "reading it crashed with \(signalName(status))"))
        return Exit.data
    }

    /// Test-only: `ROUTELOG_TEST_STORE_FAULT=crash|hang` makes the child crash (SIGSEGV) or hang
    /// where it would start reading the store, so tests can check what the parent makes of it.
    /// Never set it outside tests.
    static func injectTestFault(_ environment: [String: String]) {
        switch environment["ROUTELOG_TEST_STORE_FAULT"] {
        case "crash": raise(SIGSEGV)
        case "hang": while true { sleep(1) }
        default: break
        }
    }

    /// The one-line data error for a store whose pages crash or hang LMDB.
    static func damaged(_ store: String, _ what: String) -> String {
        "damaged store: \(store): its LMDB pages are damaged (\(what)); copy out the sessions that still read "
            + "with 'routelog export', or restore the store from a backup"
    }

    /// The store the command will read, if it reads one that exists.
    static func storeRead(by arguments: [String], environment: [String: String]) -> String? {
        guard let command = arguments.first, !command.hasPrefix("-"), !["help", "fixtures"].contains(command) else { return nil }
        let options = arguments.prefix { $0 != "--" }
        if options.contains(where: { ["-h", "--help", "--version", "--follow"].contains($0) || $0.hasPrefix("--generate-completion") }) {
            return nil
        }
        var path: String?
        for (i, arg) in options.enumerated() {
            if arg == "--store", i + 1 < options.count { path = options[options.startIndex + i + 1] }
            if arg.hasPrefix("--store=") { path = String(arg.dropFirst(8)) }
        }
        let store = path.flatMap { $0.isEmpty ? nil : $0 } ?? environment["ROUTELOG_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? LMDBEventLog.defaultPath
        return FileManager.default.fileExists(atPath: (store as NSString).appendingPathComponent("data.mdb")) ? store : nil
    }

    static func signalName(_ sig: Int32) -> String {
        switch sig {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGFPE: "SIGFPE"
        default: "signal \(sig)"
        }
    }
}
