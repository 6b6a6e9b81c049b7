// routelog-demo: a scripted session of a podcast app, recorded through the real `Navigator`
// into the default store, then inspected with the `routelog` CLI.
//
//     make demo          # or: swift run --package-path Tools/RouteLogTools routelog-demo
//
// Each run appends a new session to the store (`$ROUTELOG_STORE`, else `./.routelog`).
//
// A simulated view layer reports the app's screens to the navigator after every call, as
// RouteStack and the presentation modifiers do in an app, and the navigator's clock is the demo's
// own (it starts at the wall clock and moves only when the demo says), so the one divergence the
// script provokes is found at the same seq, with the same cause, on every run.

import Foundation
@_spi(Tools) @_spi(Benchmarks) import RouteLog
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

// MARK: - The clock and the screens

/// The navigator's clock: milliseconds since 1970, moved by the script (each step takes 900 ms).
final class DemoClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Int64
    init() { now = Int64(Date().timeIntervalSince1970 * 1000) }
    var ms: Int64 { lock.withLock { now } }
    func advance(_ by: Int64) { lock.withLock { now += by } }
    var read: @Sendable () -> Int64 { { self.ms } }
}

/// The app's view layer on Linux: it reports to the navigator the screens a container shows for
/// the navigator's state (the selected tab's root, the top of its stack, and for each sheet,
/// cover or popover of the chain the presentation and the top of its own stack; alerts and
/// dialogs are not screens; nothing below a full-screen cover: the navigator's own
/// `requiredScreens`), after every call.
@MainActor
final class DemoScreens {
    let nav: Navigator<PodcastRoute>
    let clock: DemoClock
    private(set) var on: Set<ScreenID> = []
    /// While set, the script moves the screens itself (a transition under way).
    var manual = false

    init(_ nav: Navigator<PodcastRoute>, clock: DemoClock) {
        self.nav = nav
        self.clock = clock
    }

    /// The screen catches up with the state (disappearances first, each in a stable order), the
    /// user looks at it for a while, and the navigator checks.
    func settle() {
        guard !manual else { return }
        let want = Set(nav.requiredScreens)
        for id in on.subtracting(want).sorted(by: { $0.description < $1.description }) { disappear(id) }
        for id in want.subtracting(on).sorted(by: { $0.description < $1.description }) { appear(id) }
        wait(900)
    }

    func appear(_ id: ScreenID) {
        on.insert(id)
        nav.screenAppeared(id)
    }

    func disappear(_ id: ScreenID) {
        on.remove(id)
        nav.screenDisappeared(id)
    }

    /// Moves the clock by `ms` and lets the navigator check what is on screen.
    func wait(_ ms: Int64) {
        clock.advance(ms)
        nav.checkScreens()
    }
}

/// The view layer, once the navigator exists.
var view: DemoScreens?

/// Prints one scripted step and its result; then the view layer shows it.
@MainActor
func step(_ what: String, _ result: CallResult) {
    let seq = result.seq.map { "#\($0)" } ?? "  -"
    let outcome: String = switch result {
    case .recorded(_, let o) where o.isApplied: paint(o.description, "32")
    case .recorded(_, let o): paint(o.description, "33")
    case .refused(let r): paint("refused: \(r)", "31")
    }
    print("  \(seq.padding(toLength: 4, withPad: " ", startingAt: 0)) \(what.padding(toLength: 62, withPad: " ", startingAt: 0)) \(outcome)")
    view?.settle()
}


// MARK: - The session

let storePath = LMDBEventLog.defaultPath
let store: LMDBEventLog
do {
    store = try LMDBEventLog.open(at: storePath)
} catch {
    fail("cannot open the store at \(storePath): \(error)")
}

let clock = DemoClock()
let navigator: Navigator<PodcastRoute>
do {
    navigator = try Navigator<PodcastRoute>(
        log: store, session: NewSession(label: "podcast demo", appName: "EchoCast", appVersion: "2.4"), clock: clock.read)
} catch {
    fail("cannot start a session in \(storePath): \(error)")
}
// The screens report themselves, and the navigator says when they and its state disagree.
navigator.tracksScreens = true
view = DemoScreens(navigator, clock: clock)
var found: [Divergence] = []
navigator.onDivergence { d in
    found.append(d)
    print("  " + paint("! the screen and the state disagree: \(d)", "35"))
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

// A presentation requested while another is still dismissing: UIKit refuses to present over a
// view that is still presenting, so the new player sheet never shows, though the state has it.
step("tap play: the player sheet", navigator.show(.player(episode: "atp-613"), as: .sheet))
let slidingDown = ScreenID.presentation(token: navigator.headSeq, routeID: "player")
view?.manual = true
step("user taps Done: the player sheet slides down", navigator.dismiss())
view?.wait(250)
step("Up Next plays 614 while it is still sliding down", navigator.show(.player(episode: "atp-614"), as: .sheet))
let refusedSeq = navigator.headSeq
view?.wait(150)
view?.disappear(slidingDown)  // the old sheet is gone at last; the new one never appears
view?.wait(1000)              // the grace period: the navigator names the divergence
view?.manual = false          // the next call's screens come as the state says
step("the app hears of it: dismiss the sheet no one sees", navigator.dismiss())
step("and show the player again", navigator.show(.player(episode: "atp-614"), as: .sheet))

await navigator.flush()
do { try store.flush() } catch { fail("cannot flush the store: \(error)") }
if let e = navigator.recordingError { fail("recording failed: \(e)") }

let head = navigator.headSeq
print("\n  \(head) events recorded; the log holds \(navigator.recordingStatus.writtenSeq).")
print("  path now: \(navigator.path.map(\.id).joined(separator: " › "))")
let screenRecords: [ScreenRecord]
do { screenRecords = try store.screenRecords(navigator.session) } catch { fail("cannot read the screen records: \(error)") }
let stored = screenRecords.compactMap(\.divergence)
print("  \(screenRecords.count) screen reports stored beside the events, \(stored.count) of them a divergence:")
for d in stored { print("    \(d)") }
guard found.map(\.seq) == [refusedSeq], stored == found else {
    fail("expected one divergence, at #\(refusedSeq); found \(found.map(\.description)), stored \(stored.map(\.description))")
}

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
