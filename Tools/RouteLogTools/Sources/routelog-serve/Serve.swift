// routelog-serve: the live timeline viewer over HTTP. `routelog serve` runs it.
//
//     routelog-serve [--store DIR] [--port N] [--host ADDR]
//
// Read-only: it opens the store read-only and never writes to it; it keeps reading while an app
// appends, and an app's crash does not disturb it (LMDB readers never wait for the writer).

import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogSessions
@_spi(Tools) import RouteLogTimeline
import ServiceLifecycle

@main
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routelog-serve",
        abstract: "Serve a RouteLog store's sessions as a live timeline viewer (read-only)."
    )

    @Option(help: "The store directory (default: $ROUTELOG_STORE, else ./.routelog).") var store: String?
    @Option(help: "The port (0 picks a free one).") var port: Int = 8080
    @Option(help: "The address to bind.") var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port out of range: \(port)") }
    }

    /// A connection with no complete request for this long is closed: it bounds both the wait
    /// for a request's header and a keep-alive connection's idle time.
    static let requestTimeout: TimeAmount = .seconds(10)
    /// The most streams open at once.
    static let maxStreams = 256
    /// How long a stop waits for responses in flight before the process ends anyway.
    static let stopBound: Double = 0.7

    func run() async throws {
        let path = store.flatMap { $0.isEmpty ? nil : $0 }
            ?? ProcessInfo.processInfo.environment["ROUTELOG_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? "./.routelog"
        let handle: StoreHandle
        do {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
                throw RouteLogError(.notAStore, "not a store: \(path) (no such directory; give --store DIR or set ROUTELOG_STORE)")
            }
            handle = try StoreHandle(path: path, interval: API.pollInterval)
        } catch {
            FileHandle.standardError.write(Data("routelog-serve: \(oneLine(String(describing: error)))\n".utf8))
            throw ExitCode(3)
        }
        let stopping = Stopping()
        let api = API(store: handle, streams: Streams(limit: Self.maxStreams), stopping: stopping)
        let names = AllowedNames(host: host)
        let connections = Connections(limit: Self.connectionLimit())
        var logger = Logger(label: "routelog-serve")
        logger.logLevel = .warning
        let app = Application(
            router: api.router(names: names),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ConnectionTracker(connections)], idleTimeout: Self.requestTimeout)),
            configuration: .init(address: .hostname(host, port: port), serverName: "routelog-serve"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                names.port = bound
                let shown = host.contains(":") ? "[\(host)]" : host
                let line = "routelog-serve: serving \(path) read-only at http://\(shown):\(bound)/ (bound to \(host) only; Ctrl-C stops)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let signals = Self.onStop { sig in
            // Streams end at their next poll; connections close as their responses end; whatever
            // is still running after the bound is cut off (the store is only read: nothing to lose).
            stopping.set()
            Task { await group.triggerGracefulShutdown() }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.stopBound) { Foundation.exit(0) }
        }
        try await group.run()
        withExtendedLifetime(signals) {}
    }

    /// Calls `stop` on SIGINT or SIGTERM (instead of the default end).
    static func onStop(_ stop: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stop(sig) }
            source.resume()
            return source
        }
    }

    /// The most connections kept open: raises the descriptor limit to its hard limit, and keeps
    /// room under it for the store, the listener and a burst of new connections (past the limit,
    /// a new connection closes the longest-idle one).
    static func connectionLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 512 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur)
        return max(16, min(4096, available - 128))
    }
}
