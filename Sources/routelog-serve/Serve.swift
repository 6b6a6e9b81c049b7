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
import RouteLogCore
import RouteLogLMDB
import RouteLogTimeline

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

    func run() async throws {
        let path = store.flatMap { $0.isEmpty ? nil : $0 }
            ?? ProcessInfo.processInfo.environment["ROUTELOG_STORE"].flatMap { $0.isEmpty ? nil : $0 } ?? "./.routelog"
        let log: LMDBEventLog
        do {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
                throw ServeFailure("not a store: \(path) (no such directory; give --store DIR or set ROUTELOG_STORE)")
            }
            log = try LMDBEventLog.open(at: path, options: .init(readOnly: true, durability: .none))
        } catch {
            FileHandle.standardError.write(Data("routelog-serve: \(oneLine(String(describing: error)))\n".utf8))
            throw ExitCode(3)
        }
        let api = API(log: log, storePath: path)
        var logger = Logger(label: "routelog-serve")
        logger.logLevel = .warning
        let app = Application(
            router: api.router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "routelog-serve"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shown = host.contains(":") ? "[\(host)]" : host
                let line = "routelog-serve: serving \(path) read-only at http://\(shown):\(bound)/ (bound to \(host) only; Ctrl-C stops)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger
        )
        try await app.runService()
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}
