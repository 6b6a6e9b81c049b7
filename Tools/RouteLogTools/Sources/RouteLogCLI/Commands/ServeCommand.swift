import ArgumentParser
import Foundation

/// `routelog serve`: runs `routelog-serve`, found beside this program (the way `git foo` runs `git-foo`),
/// so the CLI itself does not link the HTTP server.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store's sessions as a live timeline viewer in the browser.",
        discussion: """
        Lists the store's sessions at http://127.0.0.1:PORT/ and shows each one's timeline, \
        following new events as an app appends them. Read-only: it never writes to the store. \
        JSON API: GET /api/sessions, /api/sessions/REF/events?from=N, \
        /api/sessions/REF/state?at=N, /api/sessions/REF/lanes, /api/sessions/REF/screens (what \
        was on screen, with the divergences) and /api/sessions/REF/stream (Server-Sent Events). \
        It answers only requests addressed to localhost, 127.0.0.1, [::1] or --host with its port \
        (others get 403: no DNS rebinding), closes connections without a complete request within \
        10 s, and stops within a second on Ctrl-C or SIGTERM. Runs the routelog-serve program \
        installed beside routelog, in place of this process.
        """
    )

    @OptionGroup var store: StoreOptions
    @Option(help: "The port (0 picks a free one).") var port: Int = 8080
    @Option(help: "The address to bind (127.0.0.1: this machine only).") var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw RouteLogError.usage("--port out of range: \(port) (0...65535)") }
    }

    func run() throws {
        let path = StoreAccess.path(store.store)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw RouteLogError(.notAStore, "not a store: \(path) (no such directory; give --store DIR or set ROUTELOG_STORE)")
        }
        let server = try Self.siblingPath("routelog-serve")
        let args = [server, "--store", path, "--port", String(port), "--host", host]
        // Replace this process, so signals (Ctrl-C) and the exit status are the server's.
        var cArgs = args.map { strdup($0) } + [nil]
        execv(server, &cArgs)
        throw RouteLogError(.io, "cannot run \(server): \(String(cString: strerror(errno)))")
    }

    /// The program `name` in the directory of the running `routelog`.
    static func siblingPath(_ name: String) throws(RouteLogError) -> String {
        var me = CommandLine.arguments[0]
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { me = exe }
        else if let exe = Bundle.main.executablePath { me = exe }
        let dir = URL(fileURLWithPath: me).resolvingSymlinksInPath().deletingLastPathComponent()
        let server = dir.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: server) else {
            throw RouteLogError(.io, "\(name) not found beside routelog (looked for \(server)); build it with: swift build --package-path Tools/RouteLogTools --product \(name), or install the tools with make install")
        }
        return server
    }
}
