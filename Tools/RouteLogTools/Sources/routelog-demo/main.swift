// routelog-demo: a scripted session of a podcast app, recorded through the real `Navigator`
// into the default store, then inspected with the `routelog` CLI.
//
//     make demo          # or: swift run --package-path Tools/RouteLogTools routelog-demo
//
// Each run appends a new session to the store (`$ROUTELOG_STORE`, else `./.routelog`).

import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

// MARK: - The app's routes

/// Every screen, sheet and alert of the podcast app.
enum PodcastRoute: Routable {
    case show(slug: String, title: String)
    case episode(show: String, number: Int, title: String)
    /// The player is one slot: playing another episode updates it in place.
    case player(episode: String)
    case chapters(episode: String)
    case upsell(feature: String)
    case downloadFailed(episode: String)
    case search(query: String)

    var id: String {
        switch self {
        case .show(let slug, _): "show/\(slug)"
        case .episode(let show, let number, _): "episode/\(show)/\(number)"
        case .player: "player"
        case .chapters(let episode): "chapters/\(episode)"
        case .upsell: "upsell"
        case .downloadFailed: "alert/download-failed"
        case .search(let query): "search/\(query)"
        }
    }
}

// MARK: - Output

let useColor = isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
func paint(_ s: String, _ code: String) -> String { useColor ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
func heading(_ s: String) { print("\n" + paint("== \(s)", "1")) }

func fail(_ message: String) -> Never {
    // write(2), not FileHandle: a closed stderr must not trap.
    let line = Array("routelog-demo: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// Prints one scripted step and its result.
@MainActor
func step(_ what: String, _ result: CallResult) {
    let seq = result.seq.map { "#\($0)" } ?? "  -"
    let outcome: String = switch result {
    case .recorded(_, let o) where o.isApplied: paint(o.description, "32")
    case .recorded(_, let o): paint(o.description, "33")
    case .refused(let r): paint("refused: \(r)", "31")
    }
    print("  \(seq.padding(toLength: 4, withPad: " ", startingAt: 0)) \(what.padding(toLength: 62, withPad: " ", startingAt: 0)) \(outcome)")
}

// MARK: - The session

let storePath = LMDBEventLog.defaultPath
let store: LMDBEventLog
do {
    store = try LMDBEventLog.open(at: storePath)
} catch {
    fail("cannot open the store at \(storePath): \(error)")
}

let navigator: Navigator<PodcastRoute>
do {
    navigator = try Navigator<PodcastRoute>(
        log: store, session: NewSession(label: "podcast demo", appName: "EchoCast", appVersion: "2.4"))
} catch {
    fail("cannot start a session in \(storePath): \(error)")
}
let sessionNumber = ((try? store.sessions().count) ?? 1)
heading("A podcast app session, recorded to \(storePath) (session \(sessionNumber) in this store)")
print("  session \(navigator.session)\n")

let atp = PodcastRoute.show(slug: "atp", title: "Accidental Tech Podcast")
let ep612 = PodcastRoute.episode(show: "atp", number: 612, title: "Live from the Lab")
let ep613 = PodcastRoute.episode(show: "atp", number: 613, title: "Sheets All the Way Down")

step("launch: tabs library, discover, queue", navigator.setTabs(["library", "discover", "queue"], selected: "library"))
step("library: open the show", navigator.push(atp))
step("open episode 612", navigator.push(ep612))
step("tap play: the player sheet", navigator.show(.player(episode: "atp-612"), as: .sheet))

// The player sheet has its own stack, driven through its scoped router.
let player = navigator.activeScope
step("player: push chapters onto the player's own stack", player.push(.chapters(episode: "atp-612")))
step("play 613 from Up Next: same player slot, updated in place", navigator.show(.player(episode: "atp-613"), as: .sheet))

// Chapters are a paid feature: a Sheet Stack-style upsell on top, not dismissible.
step("chapters are Plus-only: upsell on top (not dismissible)",
     navigator.sheetStack.push(.upsell(feature: "chapters"), dismissible: false))
let upsellBinding = navigator.presentationBinding(in: player.frame, style: .sheet)
let upsellSeq = navigator.headSeq
step("user swipes the upsell down", upsellBinding.set(nil))
let swipeSeq = navigator.headSeq
step("user taps \"Not now\"", navigator.sheetStack.pop())

// SwiftUI's binding for the player sheet, as the root view last rendered it.
let playerBinding = navigator.presentationBinding(style: .sheet)
step("download fails: an alert replaces the player sheet",
     navigator.router.show(.downloadFailed(episode: "atp-613"), as: .alert))
step("SwiftUI writes nil for the old player sheet, late", playerBinding.set(nil))
step("user taps OK on the alert", navigator.presentationBinding(style: .alert).set(nil))

step("discover tab", navigator.tabBinding.set("discover"))
step("search \"swiftui\"", navigator.push(.search(query: "swiftui")))
for r in navigator.pathBinding().set([]) { step("back button", r) }
step("back to the library tab", navigator.tabBinding.set("library"))

// A notification deep link: library › ATP › 613, with the player open.
var link = NavigationSnapshot<PodcastRoute>(
    tabs: [TabScreen(id: "library"), TabScreen(id: "discover"), TabScreen(id: "queue")], selectedTab: "library")
link.selectedScreen.path = [atp, ep613]
link.selectedScreen.presented = Presented(token: 0, route: .player(episode: "atp-613"), style: .sheet)
step("deep link from a notification: reset", navigator.reset(to: link))
step("user swipes the player down", navigator.presentationBinding(style: .sheet).set(nil))

await navigator.flush()
do { try store.flush() } catch { fail("cannot flush the store: \(error)") }
if let e = navigator.recordingError { fail("recording failed: \(e)") }

let head = navigator.headSeq
print("\n  \(head) events recorded; the log holds \(navigator.recordingStatus.writtenSeq).")
print("  path now: \(navigator.path.map(\.id).joined(separator: " › "))")

// MARK: - What the CLI shows

let cli = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("routelog").path
guard FileManager.default.isExecutableFile(atPath: cli) else {
    print("\n(the routelog CLI was not found next to this program at \(cli); build it with `swift build --package-path Tools/RouteLogTools --product routelog`)")
    exit(0)
}

/// Runs the CLI on the demo's store and prints its output; any exit status but the expected one
/// fails the demo (`diff` exits 1 when the states differ, `bisect` when it finds a bad seq).
@MainActor
func routelog(_ args: [String], expecting status: Int32 = 0) {
    print("\n" + paint("$ routelog " + args.map { $0.contains(" ") || $0.contains("\"") ? "'\($0)'" : $0 }.joined(separator: " "), "1;36"))
    let p = Process()
    p.executableURL = URL(fileURLWithPath: cli)
    p.arguments = args + ["--store", storePath]
    var env = ProcessInfo.processInfo.environment
    if !useColor { env["NO_COLOR"] = "1" }
    p.environment = env
    fflush(nil)
    do {
        try p.run()
        p.waitUntilExit()
    } catch {
        fail("could not run \(cli): \(error)")
    }
    if p.terminationStatus != status {
        fail("`routelog \(args.joined(separator: " "))` exited \(p.terminationStatus), expected \(status)")
    }
}

let id = navigator.session.rawValue
heading("What the routelog CLI shows")
routelog(["sessions"])
routelog(["log", id])
routelog(["state", id, "--at", "\(head / 2)"])
routelog(["diff", "\(id)@\(upsellSeq - 1)", "\(id)@\(upsellSeq)"], expecting: 1)
routelog(["bisect", "\(id)@\(swipeSeq)", "--predicate", "top.id == \"upsell\""], expecting: 1)
print("")
