import ArgumentParser
import Dispatch
import Foundation
@_spi(Tools) import RouteLogLMDB

/// Keeps a damaged store from taking `routelog` down.
///
/// LMDB 0.9 trusts its pages: a flipped bit in the store's data file can make `mdb_cursor_get` read through a
/// wild pointer (SIGSEGV), map a page past the end of the file (SIGBUS), or follow a page loop
/// forever. No check in RouteLog can run before LMDB touches those pages, so the work is contained
/// instead: when the command will read an existing store, `routelog` re-executes itself as a child
/// process (marked by ``Heartbeat/childMarker``) that does the work with the same arguments, standard input,
/// output and error, and the parent only watches it. The child's exit status is passed through.
///
/// The watch is on progress, not on time: the child beats a heartbeat file (``Heartbeat/pathKey``)
/// twice a second while it makes progress, that is while its calls into LMDB return or while none
/// is in progress (see `LMDBProgress`). A slow but healthy command (a big report, a long import, a
/// heavy predicate) beats all along and runs to its end; only a child stuck inside one LMDB call
/// for ``timeoutKey`` seconds (default 60), the mark of a page loop, is stopped and reported as a
/// damaged store. A child killed by SIGSEGV or SIGBUS (what LMDB's reads through a damaged page
/// end in) is a damaged store too; any other crash signal is a crash of routelog itself, reported
/// as such with its signal, with `routelog verify` suggested to check the store.
///
/// `log --follow` is contained too: between its polls the follower is inside no LMDB call, so an
/// idle follow beats along for as long as it runs, and a data file replaced or cut under it (its
/// pages then read as garbage, or past the file's end: SIGBUS) ends it with one line, exit 3.
/// `mcp` is contained with the same heartbeat: `routelog mcp` executes `routelog-mcp` in the
/// child, which starts the heartbeat again (``Heartbeat/beatIfWatched(environment:)``), since a thread does
/// not survive an `execv`.
///
/// Not contained (no store is read, or the command runs for as long as the user wants):
/// help and version requests, `fixtures`, `serve` (the server runs until stopped and reads the
/// store only through short transactions) and a store directory without data.
public enum StoreContainment {
    /// Seconds a child may stay inside one LMDB call before it counts as a page loop; `0` means no bound.
    static let timeoutKey = "ROUTELOG_STORE_TIMEOUT"
    static let defaultTimeout: Double = 60
    /// The signals the parent forwards to the child (and then ends by itself).
    static let forwardedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Runs the command in a watched child when it reads a store; returns the exit status to end
    /// with, or `nil` when this process should run the command itself.
    public static func runIfNeeded(arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                            environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32? {
        if environment[Heartbeat.childMarker] != nil {
            // The parent ignores the signals it forwards (it handles them itself), and a spawned
            // process inherits ignored signals: without this the child ignored the very SIGTERM or
            // SIGINT forwarded to it, and `log --follow` never ended.
            for sig in forwardedSignals { signal(sig, SIG_DFL) }
            Heartbeat.beatIfWatched(environment: environment)
            injectTestFault(environment)
            return nil
        }
        guard let store = storeRead(by: arguments, environment: environment) else { return nil }
        guard let executable = Bundle.main.executablePath else { return nil }
        let timeout = Double(environment[timeoutKey] ?? "") ?? defaultTimeout
        guard let heartbeat = Heartbeat.File() else { return nil }
        defer { heartbeat.remove() }

        var childEnvironment = environment
        childEnvironment[Heartbeat.childMarker] = "1"
        childEnvironment[Heartbeat.pathKey] = heartbeat.path
        childEnvironment[Heartbeat.parentKey] = String(getpid())
        // A crash is reported by the parent in one line; the runtime's backtrace would only add noise.
        if childEnvironment["SWIFT_BACKTRACE"] == nil { childEnvironment["SWIFT_BACKTRACE"] = "enable=no" }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        child.environment = childEnvironment
        let finished = DispatchSemaphore(value: 0)
        child.terminationHandler = { _ in finished.signal() }

        // Signals meant for routelog go to the child; the parent then ends the same way.
        let forwarded = forwardedSignals
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
        // Waits for the end, looking at the heartbeat between waits: stuck is `timeout` seconds
        // without a beat.
        var lastBeat = heartbeat.read()
        var lastChange = DispatchTime.now()
        var stuck = false
        while finished.wait(timeout: .now() + Heartbeat.interval) == .timedOut {
            let beat = heartbeat.read()
            if beat != lastBeat {
                lastBeat = beat
                lastChange = .now()
            } else if timeout > 0, Double(DispatchTime.now().uptimeNanoseconds - lastChange.uptimeNanoseconds) / 1e9 >= timeout {
                stuck = true
                break
            }
        }
        if stuck {
            kill(child.processIdentifier, SIGKILL)
            finished.wait()
            sources.forEach { $0.cancel() }
            printError(damaged(store, "a read of its pages made no progress for \(Int(timeout)) s, the mark of an LMDB page loop"))
            return ExitCode(.damaged).rawValue
        }
        sources.forEach { $0.cancel() }
        for sig in forwarded { signal(sig, SIG_DFL) }
        let status = child.terminationStatus
        guard child.terminationReason == .uncaughtSignal else { return status }
        if forwarded.contains(status) || status == SIGKILL || status == SIGPIPE {
            // Interrupted or killed from outside: end the same way.
            heartbeat.remove()
            signal(status, SIG_DFL)
            kill(getpid(), status)
            return 128 + status
        }
        if status == SIGSEGV || status == SIGBUS {
            if following(arguments) {
                printError(changed(store, signal: status))
                return ExitCode(.damaged).rawValue
            }
            printError(damaged(store, "reading it crashed with \(signalName(status))"))
            return ExitCode(.damaged).rawValue
        }
        printError(crashed(arguments.first ?? "routelog", signal: status, store: store))
        return ExitCode(.internal).rawValue
    }


    /// The one-line error for a crash of routelog's own code: not the store's fault.
    static func crashed(_ command: String, signal: Int32, store: String) -> String {
        "routelog crashed (\(signalName(signal))) running '\(command)': a bug in routelog, not damage to the store; "
            + "'routelog verify --all --store \(store)' checks the store, and a report of the bug with the command helps fix it"
    }

    /// Test-only: `ROUTELOG_TEST_STORE_FAULT` makes the child misbehave where it would start
    /// reading the store, so tests can check what the parent makes of it: `crash` (SIGSEGV, as
    /// LMDB on a damaged page), `hang` (stuck inside an LMDB call, as a page loop), `trap` (a
    /// crash of routelog's own code), `slow` (healthy work that takes 3 s outside LMDB, then the
    /// command). Never set it outside tests.
    static func injectTestFault(_ environment: [String: String]) {
        switch environment["ROUTELOG_TEST_STORE_FAULT"] {
        case "crash": raise(SIGSEGV)
        case "hang": LMDBProgress.hangInside()
        case "trap": raise(SIGILL)
        case "slow": usleep(3_000_000)
        default: break
        }
    }

    /// The one-line data error for a store whose pages crash or hang LMDB.
    static func damaged(_ store: String, _ what: String) -> String {
        "damaged store: \(store): its LMDB pages are damaged (\(what)); copy out the sessions that still read "
            + "with 'routelog export', or restore the store from a backup"
    }

    /// The one-line data error for a followed store whose reads crashed. A follow runs for as
    /// long as the user wants, and a data file replaced or cut under it meanwhile (a copy over
    /// it) crashes LMDB as damaged pages do, so the message names both.
    static func changed(_ store: String, signal: Int32) -> String {
        "store changed or damaged: \(store): following it crashed with \(signalName(signal)): its data file was replaced or cut "
            + "while it was read, or its LMDB pages are damaged; 'routelog verify --all --store \(store)' checks it"
    }

    /// Whether the command is `log --follow`.
    static func following(_ arguments: [String]) -> Bool {
        arguments.first == "log" && arguments.prefix { $0 != "--" }.contains("--follow")
    }

    /// The store the command will read, if it reads one that exists.
    static func storeRead(by arguments: [String], environment: [String: String]) -> String? {
        // `mcp` is watched: the child replaces itself with routelog-mcp, which beats the heartbeat
        // itself (`Heartbeat.beatIfWatched`), so a damaged store still ends in one line.
        guard let command = arguments.first, !command.hasPrefix("-"), !["help", "fixtures", "serve"].contains(command) else { return nil }
        let options = arguments.prefix { $0 != "--" }
        if options.contains(where: { ["-h", "--help", "--version"].contains($0) || $0.hasPrefix("--generate-completion") }) {
            return nil
        }
        var path: String?
        for (i, arg) in options.enumerated() {
            if arg == "--store", i + 1 < options.count { path = options[options.startIndex + i + 1] }
            if arg.hasPrefix("--store=") { path = String(arg.dropFirst(8)) }
        }
        let store = path.flatMap { $0.isEmpty ? nil : $0 } ?? environment["ROUTELOG_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? LMDBEventLog.defaultPath
        return LMDBEventLog.hasData(at: store) ? store : nil
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
