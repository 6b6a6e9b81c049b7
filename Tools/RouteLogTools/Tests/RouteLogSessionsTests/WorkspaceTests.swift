import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogSessions
import RouteLogTestSupport
import Testing

/// Which files a reference may name: any for the CLI, none for a server, or those inside the
/// folder a server was started to serve (never one reached through `..` or a link).
@Suite struct WorkspaceTests {
    let dir: TempDir
    let served: String

    init() throws {
        dir = try TempDir()
        let fixture = Fixture(name: "shop", description: "", events: [RecordedEvent(.push(RouteRef(id: "cart")))])
        try dir.write("served/shop.json", fixture.rendered())
        try dir.write("served/deeper/cart.json", fixture.rendered())
        try dir.write("outside.json", fixture.rendered())
        try FileManager.default.createSymbolicLink(atPath: dir.path("served/link.json"), withDestinationPath: dir.path("outside.json"))
        served = dir.path("served")
        // A store for the references that name sessions.
        let log = try LMDBEventLog.open(at: dir.path)
        let s = try log.createSession(NewSession(label: "app"))
        try log.append([RecordedEvent(.push(RouteRef(id: "home")))], to: s.id, expectedSeq: 0)
    }

    func error(_ ws: Workspace, _ ref: String) -> RouteLogError? {
        do { _ = try ws.resolve(ref); return nil } catch { return error }
    }

    @Test func theCLIReadsAnyFile() throws {
        let ws = Workspace(storePath: dir.path)
        #expect(try ws.resolve(dir.path("outside.json")).info.eventCount == 1)
        #expect(try ws.resolve(dir.path("served/../outside.json")).document?.name == "shop")
    }

    @Test func aServerWithoutAFolderReadsNoFile() throws {
        let ws = Workspace(storePath: dir.path, files: .none)
        for ref in ["/etc/passwd", dir.path("outside.json"), "shop.json", "../outside.json", "a/b", "latest/x"] {
            let e = try #require(error(ws, ref), "\(ref) resolved")
            #expect(e.message.hasPrefix("not a session of this store:") && e.cause == .usage, "\(e.message)")
            #expect(!e.message.contains("root:"), "the file was read: \(e.message)")
        }
        // Sessions of the store still resolve.
        #expect(try ws.resolve("latest").info.label == "app")
        #expect(try ws.resolve("#1@1").seq == 1)
    }

    @Test func aServedFolderGivesItsFilesOnly() throws {
        let ws = Workspace(storePath: dir.path, files: .inside(served))
        #expect(try ws.resolve("shop.json").info.eventCount == 1)
        #expect(try ws.resolve("deeper/cart.json@1").seq == 1)
        #expect(try ws.resolve(dir.path("served/shop.json")).info.eventCount == 1)
        #expect(try ws.resolve("deeper/../shop.json").info.eventCount == 1)
        for ref in ["../outside.json", "deeper/../../outside.json", dir.path("outside.json"), "/etc/passwd", "link.json", served + "-x/y.json"] {
            let e = try #require(error(ws, ref), "\(ref) resolved")
            #expect(e.message.hasPrefix("not a served file:") && e.cause == .usage, "\(ref): \(e.message)")
        }
        #expect(error(ws, "missing.json")?.message.hasPrefix("no such file") == true)
    }

    @Test func aHugeOrHostileReferenceIsOneShortLine() throws {
        let ws = Workspace(storePath: dir.path, files: .none)
        for ref in [String(repeating: "f", count: 1_000_000), "--all", "-x", "\u{1B}[31mred\nline", String(repeating: "a/", count: 50_000)] {
            let e = try #require(error(ws, ref), "\(ref.prefix(20)) resolved")
            #expect(e.message.utf8.count < 600 && !e.message.contains("\n") && !e.message.contains("\u{1B}"), "\(e.message.prefix(300))")
            #expect(e.cause == .usage || e.cause == .unknownSession, "\(e.cause)")
        }
        #expect(error(ws, "ffff")?.cause == .unknownSession)
    }
}
