// A child process for the crash tests: an app navigating on an LMDB store, then dying.
//
//   routelog-crash-app navigate STORE LABEL VERSION SEED COUNT DEATH
//       Opens the store with the default options, restores the newest session labelled LABEL of
//       app "CrashApp" (or starts one) as app version VERSION, makes COUNT navigator calls
//       (0: until killed, a call every 200 µs) from a seeded mix, printing "seq N" after each
//       call returned, then dies by DEATH:
//         trap   a Swift runtime trap (an out-of-range index) right after the last call
//         abort  abort()
//         segv   a store through a null pointer (SIGSEGV)
//         kill   SIGKILL sent to itself right after the last call
//         exit   exit(0) without flush()
//         clean  flush(), then exit(0)
//         idle   flush(), print "idle", then wait (the test kills it: a crash after the recorder
//                caught up)
//         suspend  suspend(), print "suspended", then wait (the test looks at its locks and kills it)
//         cycle  with COUNT 0: every 40 calls suspend(), print "suspended" and read a line from
//                standard input: "go" resumes (printing "resumed") and navigation goes on; the
//                test kills it while suspended or while navigating
//       Prints "session ID" first, and "recovered N" when opening recovered journaled events.
//   routelog-crash-app extension STORE SEED COUNT END
//       An app extension handling one request: opens its own store one process at a time, starts a
//       session labelled "share" of app "CrashApp" 2.0, makes COUNT calls (0: until killed),
//       printing "session ID" and "seq N"; END `suspend` ends the request (suspend(), then
//       exit(0)), `kill` dies by SIGKILL right after the last call.
//   routelog-crash-app requests STORE COUNT
//       An app extension handling COUNT requests one after the other (3 ms apart), each as the
//       extension example of SharingAStore.md does: opens its own store one process at a time,
//       starts a session labelled "share", makes 5 calls and suspends. Prints "request K waited MS
//       session ID lock MS2" once the open and the navigator are there (MS: how long that took,
//       MS2: how much of it was waiting for owner.lock), or "error K after MS: MESSAGE lock MS2",
//       then "done".
//   routelog-crash-app move APPSTORE EXTSTORE SEED
//       The app at launch: restores its "main" session on APPSTORE, makes 5 calls ("session ID",
//       "seq N"), then moves the extension's sessions from EXTSTORE ("moved ID N" each, "busy"),
//       then prints "done".
//   routelog-crash-app previous STORE LABEL VERSION
//       The next launch: restores the newest session labelled LABEL (as navigate does) and prints
//       what its navigator tells of the run before: "previous RUN END LASTSEQ", "screens LAYOUT",
//       then "fixture N LAYOUT": the events of the run's fixture (`fixtureData()`, read back) and
//       the screens its replay ends on; "previous none" without one. Then flushes and exits.
//   routelog-crash-app late STORE UNLOCK SEED [FALLBACK|-] [plain]
//       The guarded launch path on a store that cannot be opened at launch: restores through
//       `Navigator.restoringLatest(store:orStarting:…open:)` (label "main", app "CrashApp" 3.0)
//       with an `open` that fails with EPERM, as Data Protection does before the first unlock,
//       until the file UNLOCK exists. Prints "session ID", then makes calls until killed (one every
//       200 µs), printing "seq N" after each; prints "opened" once the store holds the calls. With
//       FALLBACK: early journals that do not fit in the store go there. With `plain`, `open`
//       returns `any EventLog`, which takes the path without an early journal (for measurements).
//   routelog-crash-app recover STORE
//       Opens the store read-write (recovering journals) and prints "recovered SESSION COUNT"
//       per recovered journal, "problem LINE" per problem, then "open".
import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB

enum Screen: Routable {
    case inbox
    case thread(Int)
    case compose(Int)
    case settings

    var id: String {
        switch self {
        case .inbox: "inbox"
        case .thread(let n): "thread/\(n)"
        case .compose(let n): "compose/\(n)"
        case .settings: "settings"
        }
    }
}

/// One line to stdout with write(2): nothing is buffered when the process dies.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    say("error: \(message)")
    exit(code)
}

@MainActor
func call(_ navigator: Navigator<Screen>, _ rng: inout SplitMix64) -> CallResult {
    let r = rng.next()
    let n = Int((r >> 8) % 1000)
    switch r % 10 {
    case 0, 1, 2: return navigator.push(.thread(n))
    case 3: return navigator.pop()
    case 4: return navigator.show(.compose(n), as: .sheet)
    case 5: return navigator.dismiss()
    case 6: return navigator.push(.settings)
    case 7: return navigator.popToRoot()
    case 8: return navigator.interactiveDismiss()
    default: return navigator.push(.inbox)
    }
}

@MainActor
func navigate(_ args: [String]) async {
    guard args.count == 8, let seed = UInt64(args[5]), let count = Int(args[6]) else {
        fail("usage: navigate STORE LABEL VERSION SEED COUNT DEATH", code: 64)
    }
    let death = args[7]
    do {
        let log = try LMDBEventLog.open(at: args[2])
        for r in log.journalRecovery.recovered { say("recovered \(r.count)") }
        for p in log.journalRecovery.problems { say("problem \(p)") }
        let navigator = try Navigator<Screen>.restoringLatest(
            log: log, orStarting: NewSession(label: args[3], appName: "CrashApp", appVersion: args[4], build: "b\(args[4])"))
        say("session \(navigator.session.rawValue)")
        var rng = SplitMix64(seed: seed)
        var made = 0
        while count == 0 || made < count {
            let result = call(navigator, &rng)
            if let seq = result.seq { say("seq \(seq)") }
            made += 1
            if count == 0 { usleep(200) }
            if death == "cycle" && made % 40 == 0 {
                await navigator.suspend()
                say("suspended")
                guard readLine() == "go" else { exit(0) }
                do { try navigator.resume() } catch { say("problem \(error)") }
                say("resumed")
            }
        }
        switch death {
        case "trap":
            let empty: [Int] = []
            _ = empty[made]
        case "abort":
            abort()
        case "segv":
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = made
        case "kill":
            kill(getpid(), SIGKILL)
        case "exit":
            exit(0)
        case "clean":
            await navigator.flush()
            exit(0)
        case "idle":
            await navigator.flush()
            say("idle")
            while true { sleep(60) }
        case "suspend":
            await navigator.suspend()
            say("suspended")
            while true { sleep(60) }
        default:
            fail("unknown death \(death)", code: 64)
        }
    } catch {
        fail("\(error)")
    }
}

let args = CommandLine.arguments
guard args.count >= 3 else { fail("usage: routelog-crash-app navigate|recover STORE …", code: 64) }
switch args[1] {
case "navigate":
    await navigate(args)
case "late":
    guard args.count >= 5, let seed = UInt64(args[4]) else { fail("usage: late STORE UNLOCK SEED [FALLBACK]", code: 64) }
    let unlock = args[3]
    let fallback = args.count > 5 && args[5] != "-" ? args[5] : nil
    let new = NewSession(label: "main", appName: "CrashApp", appVersion: "3.0", build: "b3.0")
    @Sendable func open(_ path: String) throws -> LMDBEventLog {
        guard FileManager.default.fileExists(atPath: unlock) else {
            throw LMDBEventLogError.permissionDenied(path: path, reason: "the store cannot be read (Operation not permitted)")
        }
        return try LMDBEventLog.open(at: path, options: .init(earlyJournalDirectory: fallback))
    }
    let navigator = args.count > 6 && args[6] == "plain"
        ? Navigator<Screen>.restoringLatest(store: args[2], orStarting: new, retryDelay: 0.02) { path -> any EventLog in try open(path) }
        : Navigator<Screen>.restoringLatest(store: args[2], orStarting: new, retryDelay: 0.02, earlyJournalDirectory: fallback) { try open($0) }
    say("session \(navigator.session.rawValue)")
    var rng = SplitMix64(seed: seed)
    var opened = false
    while true {
        if let seq = call(navigator, &rng).seq { say("seq \(seq)") }
        usleep(200)
        if !opened && navigator.recordingError == nil && navigator.recordingStatus.writtenSeq > 0 {
            opened = true
            say("opened")
        }
        // Let the main actor run the store's "opened" callback.
        await Task.yield()
    }
case "extension":
    guard args.count == 6, let seed = UInt64(args[3]), let count = Int(args[4]) else {
        fail("usage: extension STORE SEED COUNT END", code: 64)
    }
    do {
        let log = try LMDBEventLog.open(at: args[2], options: .init(retention: .none, oneProcessAtATime: true))
        let navigator = try Navigator<Screen>(log: log, session: NewSession(label: "share", appName: "CrashApp", appVersion: "2.0", build: "b2.0"))
        say("session \(navigator.session.rawValue)")
        var rng = SplitMix64(seed: seed)
        var made = 0
        while count == 0 || made < count {
            if let seq = call(navigator, &rng).seq { say("seq \(seq)") }
            made += 1
            if count == 0 { usleep(300) }
        }
        if args[5] == "kill" { kill(getpid(), SIGKILL) }
        await navigator.suspend()
        exit(0)
    } catch {
        fail("\(error)")
    }
case "requests":
    guard args.count == 4, let count = Int(args[3]) else { fail("usage: requests STORE COUNT", code: 64) }
    var kept: [Navigator<Screen>] = []  // suspended, as an extension's process keeps them between requests
    let clock = ContinuousClock()
    func ms(_ d: Duration) -> String { String(format: "%.1f", Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15) }
    for k in 0..<count {
        let start = clock.now
        do {
            let log = try LMDBEventLog.open(at: args[2], options: .init(retention: .none, oneProcessAtATime: true))
            let navigator = try Navigator<Screen>(log: log, session: NewSession(label: "share", appName: "CrashApp", appVersion: "2.0", build: "b2.0"))
            say("request \(k) waited \(ms(start.duration(to: clock.now))) session \(navigator.session.rawValue) lock \(ms(LMDBEnvironment.lastOwnerLockWait))")
            var rng = SplitMix64(seed: UInt64(k))
            for _ in 0..<5 { _ = call(navigator, &rng) }
            await navigator.suspend()
            kept.append(navigator)
        } catch {
            say("error \(k) after \(ms(start.duration(to: clock.now))): \(error) lock \(ms(LMDBEnvironment.lastOwnerLockWait))")
        }
        usleep(3_000)
    }
    say("done")
    exit(0)
case "move":
    guard args.count == 5, let seed = UInt64(args[4]) else { fail("usage: move APPSTORE EXTSTORE SEED", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: args[2], options: .init(retention: .none))
        let navigator = try Navigator<Screen>.restoringLatest(log: log, orStarting: NewSession(label: "main", appName: "CrashApp", appVersion: "2.0"))
        say("session \(navigator.session.rawValue)")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<5 {
            if let seq = call(navigator, &rng).seq { say("seq \(seq)") }
        }
        let moved = try log.moveSessions(fromStoreAt: args[3])
        if moved.busy { say("busy") }
        for m in moved.sessions { say("moved \(m.session.rawValue) \(m.events)") }
        await navigator.flush()
        say("done")
    } catch {
        fail("\(error)")
    }
case "previous":
    guard args.count == 5 else { fail("usage: previous STORE LABEL VERSION", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: args[2])
        let navigator = try Navigator<Screen>.restoringLatest(
            log: log, orStarting: NewSession(label: args[3], appName: "CrashApp", appVersion: args[4], build: "b\(args[4])"))
        guard let previous = navigator.previousRun else {
            say("previous none")
            exit(0)
        }
        say("previous \(previous.run.number) \(previous.run.end.name) \(previous.lastSeq)")
        say("screens \(previous.screens)")
        let fixture = try Fixture(text: String(decoding: try previous.fixtureData(), as: UTF8.self), file: "previous.json")
        say("fixture \(fixture.events.count) \(ScreenLayout(replay(fixture.events.map(\.event)).state))")
        await navigator.flush()
        exit(0)
    } catch {
        fail("\(error)")
    }
case "recover":
    do {
        let log = try LMDBEventLog.open(at: args[2], options: .init(retention: .none))
        for r in log.journalRecovery.recovered { say("recovered \(r.session.rawValue) \(r.count)") }
        for p in log.journalRecovery.problems { say("problem \(p)") }
        say("open")
    } catch {
        fail("\(error)")
    }
default:
    fail("unknown command \(args[1])", code: 64)
}
