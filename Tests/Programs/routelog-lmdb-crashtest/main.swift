// A child process for the RouteLogLMDB reliability tests.
//
//   routelog-lmdb-crashtest append STORE SESSION SEED DURABILITY
//       Appends small batches forever, printing "acked SEQ" after each commit (until killed).
//   routelog-lmdb-crashtest follow STORE SESSION UNTIL
//       Follows the session, replaying as it goes; prints "mismatch SEQ …" and exits 2 if a stored
//       digest or seq is not the replay's, "done SEQ" once it reached UNTIL.
//   routelog-lmdb-crashtest open STORE (rw|ro) [nobody]
//       Opens the store (as user nobody when asked and run as root); prints "ok SESSIONS" or
//       "error: MESSAGE" (exit 1). Lets tests see permission errors that root would bypass.
//   routelog-lmdb-crashtest race BASE ROUNDS START_MS PERIOD_MS INDEX [ro]
//       For each round R, waits until START_MS + R × PERIOD_MS (milliseconds since 1970), opens
//       BASE/R read-write (creating the store if no other process has yet), creates a session
//       labelled "racer INDEX" with one event and closes the store; prints "ok R" or
//       "error R MESSAGE". Many of these started together race the first open of each store.
//       With `ro`, opens BASE/R read-only instead, again while no directory or an empty one says
//       that no creator has begun yet (at most 2 s), and lists its sessions.
//   routelog-lmdb-crashtest write STORE SEED COUNT (hold|verify)
//       Opens the store read-write (creating it if needed), creates a session, prints
//       "session ID", then appends durable batches of the events `writerBatches(seed:)` gives,
//       printing "acked SEQ" after each, until COUNT events (0: forever), then "done SEQ". A
//       second thread reads while it writes: `verify` checks the session's chain again and again
//       (prints "error …" and exits 2 on a failure); `hold` keeps one read transaction open for
//       the process's whole life (to leave a stale reader slot when killed) and prints "holding".
//   routelog-lmdb-crashtest follow-to STORE SESSION TARGET_FILE TIMEOUT_MS
//       Follows the session like `follow` until it has seen the event whose seq TARGET_FILE holds
//       (written by the test once the writers are done), then verifies the session's chain and
//       prints "done SEQ DIGEST"; "timeout SEQ" (exit 3) when TIMEOUT_MS pass first.
//   routelog-lmdb-crashtest fleet STORE SESSIONS SEED
//       Writes SESSIONS generated sessions (app "Mail", versions 1.0, 1.1 and 2.0 in turn, a few
//       hundred events each with times, origins and call sites) and prints one JSON line with
//       the answers of the four queries of RouteLogLMDB's "Fleet export" article, computed from
//       the replay: rejections by app version and reason, refused swipes by the screen on top, the
//       sessions that ended inside an undismissible presentation, and what was on screen when a
//       run crashed (every fourth session's second run, of the next version, dies with its last
//       events only in its journal, left for the export to show). Most sessions also get screen
//       records with divergences (of every kind, some after a crashed run's first journaled
//       event, so of its version); the line also holds the divergences by route id and app
//       version, the answer of the article's divergence query.
//   routelog-lmdb-crashtest screens STORE SESSION diverged|agreed
//       Appends screen records to SESSION (which has at least 6 events): appearances and
//       disappearances, and with diverged one divergence of each kind (notOnScreen,
//       stillOnScreen, unknownScreen, depthMismatch) after seqs 3, 4, 4 and 5; prints "ok N".
//   routelog-lmdb-crashtest die-in-write STORE
//       Opens the store's LMDB environment, begins a write transaction, prints "in-txn" and waits
//       inside it until killed: a writer that dies holding LMDB's cross-process writer lock.
//   routelog-lmdb-crashtest hold-open STORE
//       Opens the store read-only, prints "open LOCKMODE" and keeps it open until its standard
//       input ends, then exits 0.
//   routelog-lmdb-crashtest delete STORE SESSION…
//       Deletes the sessions one by one (durable commits), printing "deleted ID" after each.
//   routelog-lmdb-crashtest append-screens STORE SESSION COUNT
//       Appends COUNT pairs of screen records to the session, 200 ms apart, no event: a screen
//       the state does not have appears (`ghost (#1000+i)`), and a divergence names it (unknown
//       screen, at the session's head); prints "screens N" (the records appended) after each.
import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
import RouteLogTestSupport
import Synchronization

/// Writes one line to stdout, unbuffered, so a kill never loses an acknowledged line.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    say("error: \(message)")
    exit(code)
}

let args = CommandLine.arguments
guard args.count >= 3 else { fail("usage: routelog-lmdb-crashtest append|follow|open STORE …", code: 64) }
let store = args[2]

switch args[1] {
case "append":
    guard args.count == 6, let seed = UInt64(args[4]) else { fail("usage: append STORE SESSION SEED DURABILITY", code: 64) }
    let durability: LMDBEventLog.Durability = switch args[5] {
    case "perEvent": .perEvent
    case "grouped": .grouped(maxDelay: .milliseconds(20))
    default: .none
    }
    do {
        // A tiny map, so that kills also land during growth.
        let log = try LMDBEventLog.open(at: store, options: .init(durability: durability, snapshotInterval: 16, initialMapSize: 64 << 10, retention: .none))
        let session = SessionID(args[3])
        var seq = try log.session(session).eventCount
        var generator = SessionGenerator(seed: seed &+ seq)
        var rng = SplitMix64(seed: seed ^ 0x5EED)
        while true {
            let n = Int(rng.next() % 8) + 1
            // Call sites come and go, so kills also land in batches that add a site to the session's table.
            let batch = generator.events(n).enumerated().map { i, e in
                let k = Int(seq) + i
                // Times in the tests' clock's era (1_700_000_000_000), so the test's reopen, under the
                // app's retention (which ages a session by its last event), keeps the session.
                return RecordedEvent(e, meta: EventMetadata(timestamp: 1_700_000_000_000 + Int64(seq) + 1, callSite: CallSite(file: "Screen\(k % 23).swift", line: k % 5)))
            }
            let stored = try log.append(batch, to: session, expectedSeq: seq)
            seq = stored.last!.seq
            say("acked \(seq)")
        }
    } catch {
        fail("\(error)")
    }

case "follow":
    guard args.count == 5, let until = UInt64(args[4]) else { fail("usage: follow STORE SESSION UNTIL", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        var replayer = Replayer()
        for try await event in log.follow(session: SessionID(args[3]), from: 1) {
            let step = replayer.apply(event.event)
            guard event.seq == step.seq, event.digest == step.digest, event.outcome == step.outcome else {
                say("mismatch \(event.seq): stored digest \(event.digest.short), replayed \(step.digest.short) at seq \(step.seq)")
                exit(2)
            }
            if event.seq >= until { break }
        }
        say("done \(replayer.seq)")
    } catch {
        fail("\(error)")
    }

case "open":
    guard args.count >= 4 else { fail("usage: open STORE rw|ro [nobody]", code: 64) }
    if args.count >= 5, args[4] == "nobody", getuid() == 0 {
        guard setgid(65534) == 0, setuid(65534) == 0 else { fail("cannot become nobody", code: 3) }
    }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: args[3] == "ro", retention: .none))
        say("ok \(try log.sessions().count)")
    } catch {
        fail("\(error)")
    }

case "race":
    guard args.count == 7 || (args.count == 8 && args[7] == "ro"), let rounds = Int(args[3]), let start = Int64(args[4]),
          let period = Int64(args[5]) else {
        fail("usage: race BASE ROUNDS START_MS PERIOD_MS INDEX [ro]", code: 64)
    }
    for round in 0..<rounds {
        let due = start + Int64(round) * period
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        if due > now { usleep(UInt32(min(due - now, 5_000)) * 1000) }
        if args.count == 8 {
            let path = "\(store)/\(round)"
            var outcome = "error \(round) not opened within 2 s"
            for _ in 0..<2_000 {
                do {
                    let log = try LMDBEventLog.open(at: path, options: .init(readOnly: true))
                    _ = try log.sessions()
                    outcome = "ok \(round)"
                } catch LMDBEventLogError.notAStore(_, let reason) where reason == "no such directory" || reason == "the directory is empty" {
                    usleep(1_000)
                    continue
                } catch {
                    outcome = "error \(round) \(error)"
                }
                break
            }
            say(outcome)
            continue
        }
        do {
            let log = try LMDBEventLog.open(at: "\(store)/\(round)", options: .init(durability: .none, retention: .none))
            let session = try log.createSession(NewSession(label: "racer \(args[6])"))
            try log.append(RecordedEvent(.push(RouteRef(id: "racer-\(args[6])"))), to: session.id, expectedSeq: 0)
            say("ok \(round)")
        } catch {
            say("error \(round) \(error)")
        }
    }

case "write":
    guard args.count == 6, let seed = UInt64(args[3]), let count = UInt64(args[4]), ["hold", "verify"].contains(args[5]) else {
        fail("usage: write STORE SEED COUNT hold|verify", code: 64)
    }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .perEvent, retention: .none))
        let session = try log.createSession(NewSession(label: "writer \(seed)")).id
        say("session \(session.rawValue)")
        if args[5] == "hold" {
            let held = Shared()
            Thread.detachNewThread {
                do {
                    try log.environment.withReadTransaction { _ in
                        held.flag.store(true, ordering: .releasing)
                        while true { usleep(1_000_000) }
                    }
                } catch {
                    fail("holding a read transaction: \(error)", code: 2)
                }
            }
            for _ in 0..<5_000 where !held.flag.load(ordering: .acquiring) { usleep(1000) }
            guard held.flag.load(ordering: .acquiring) else { fail("the reader thread did not start", code: 2) }
            say("holding")
        } else {
            Thread.detachNewThread {
                while true {
                    do {
                        let report = try log.verify(session: session)
                        if !report.isValid { fail("verify: \(report)", code: 2) }
                    } catch {
                        fail("verify: \(error)", code: 2)
                    }
                    usleep(2_000)
                }
            }
        }
        var seq: UInt64 = 0
        for batch in writerBatches(seed: seed) {
            if count > 0 && seq >= count { break }
            let events = count > 0 ? Array(batch.prefix(Int(count - seq))) : batch
            let stored = try log.append(events, to: session, expectedSeq: seq)
            seq = stored.last!.seq
            say("acked \(seq)")
        }
        say("done \(seq)")
    } catch {
        fail("\(error)")
    }

case "follow-to":
    guard args.count == 6, let timeout = Int64(args[5]) else { fail("usage: follow-to STORE SESSION TARGET_FILE TIMEOUT_MS", code: 64) }
    let session = SessionID(args[3])
    let targetFile = args[4]
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        let shared = Shared()
        let outcome: Result<Digest, any Error>? = try await withThrowingTaskGroup(of: Result<Digest, any Error>?.self) { group in
            group.addTask {
                var replayer = Replayer()
                var digest = Digest.zero
                for try await event in log.follow(session: session, from: 1) {
                    let step = replayer.apply(event.event)
                    guard event.seq == step.seq, event.digest == step.digest, event.outcome == step.outcome else {
                        say("mismatch \(event.seq): stored digest \(event.digest.short), replayed \(step.digest.short) at seq \(step.seq)")
                        exit(2)
                    }
                    digest = step.digest
                    shared.seen.store(event.seq, ordering: .releasing)
                    let t = shared.target.load(ordering: .acquiring)
                    if t != 0 && event.seq >= t { break }
                }
                return .success(digest)
            }
            group.addTask {
                // Reads the target and ends the follow once it is reached; bounded by the timeout.
                let clock = ContinuousClock()
                let deadline = clock.now + .milliseconds(timeout)
                while clock.now < deadline {
                    if shared.target.load(ordering: .acquiring) == 0,
                       let text = try? String(contentsOfFile: targetFile, encoding: .utf8),
                       let t = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                        shared.target.store(max(t, 1), ordering: .releasing)
                    }
                    let t = shared.target.load(ordering: .acquiring)
                    if t != 0 && shared.seen.load(ordering: .acquiring) >= t { return nil }
                    try await Task.sleep(for: .milliseconds(5))
                }
                return .failure(CancellationError())
            }
            var result: Result<Digest, any Error>?
            for try await r in group {
                if let r { result = r; break }
                // The target was reached while the follower waited for more: end it.
                if shared.seen.load(ordering: .acquiring) >= shared.target.load(ordering: .acquiring) { break }
            }
            group.cancelAll()
            return result
        }
        let last = shared.seen.load(ordering: .acquiring)
        switch outcome {
        case .failure?:
            say("timeout \(last)")
            exit(3)
        case .success(let digest)?:
            let report = try log.verify(session: session)
            guard report.isValid else { fail("verify: \(report)", code: 2) }
            say("done \(last) \(digest.hex)")
        case nil:
            // Reached while idle: the digest is the stored one at the target, checked on the way.
            let report = try log.verify(session: session)
            guard report.isValid else { fail("verify: \(report)", code: 2) }
            let events = try log.events(session)
            say("done \(last) \(events[Int(last) - 1].digest.hex)")
        }
    } catch {
        fail("\(error)")
    }

case "fleet":
    guard args.count == 5, let count = Int(args[3]), let seed = UInt64(args[4]) else { fail("usage: fleet STORE SESSIONS SEED", code: 64) }
    do {
        var rejections: [String: Int] = [:]
        var refused: [String: Int] = [:]
        var crashed: [String: Int] = [:]
        var journaled = 0
        var stuck: [String] = []
        // Divergences by route id ("" for a tab's root) and app version.
        var divergences: [String: Int] = [:]
        let versions = ["1.0", "1.1", "2.0"]
        let sites = ["InboxView.swift:12", "ThreadView.swift:88", "Paywall.swift:7", "Settings.swift:40"]
        // Released before the answers are printed: the journals left behind stay for the export.
        // The crashed runs' journals are kept open until the process ends by `_exit` (no atexit
        // handler), as a crash leaves them: their runs are active when they die.
        var crashedJournals: [any EventJournal] = []
        do {
            let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, retention: .none))
            for i in 0..<count {
                let version = versions[i % versions.count]
                let session = try log.createSession(NewSession(label: "fleet \(i)", appName: "Mail", appVersion: version)).id
                var generator = SessionGenerator(seed: seed &+ UInt64(i))
                let n = 150 + Int((seed &+ UInt64(i) &* 7919) % 250)
                let events = generator.events(n).enumerated().map { j, e in
                    // Swipes are the user's, except every fourth, which stands for SwiftUI's late nil
                    // write (origin system): the refused-swipes query must leave those out.
                    let origin: Origin = e.kind == .interactiveDismiss ? (j % 4 == 0 ? .system : .user)
                        : j % 3 == 0 ? .user : (j % 7 == 0 ? .system : .app)
                    let site = origin == .app ? sites[j % sites.count].split(separator: ":") : nil
                    return RecordedEvent(e, meta: EventMetadata(timestamp: 1_795_000_000_000 + Int64(i) * 3_600_000 + Int64(j) * 500, origin: origin,
                                                                callSite: site.map { CallSite(file: String($0[0]), line: Int($0[1])!) }))
                }
                // Every fourth session: a first run of `version` wrote most of it; a second run, of
                // the next version, crashed with its last events only in its journal.
                let crashes = i % 4 == 1
                let split = crashes ? n - 5 - (i % 7) : n
                let secondVersion = versions[(i + 1) % versions.count]
                let firstRun = crashes ? try log.beginRun(of: session, head: 0, RunStart(appVersion: version, build: "100")) : nil
                try log.append(Array(events[..<split]), to: session, expectedSeq: 0)
                // Screen records: every third session's screens never reported; the others saw
                // 1 to 3 divergences (kinds and routes in turn), and a crashing session one more,
                // found after its second run's first event (that run's version).
                if i % 3 != 2 {
                    let routes = ["player", "composer", "upsell", ""]
                    var records: [ScreenRecord] = [ScreenRecord(.appeared(.tabRoot("inbox")), headSeq: 1, time: 1)]
                    var heads = (0..<(1 + i % 3)).map { k in UInt64(2 + (i * 5 + k * 11) % (split - 2)) }
                    if crashes { heads.append(UInt64(split + 1)) }
                    for (k, head) in heads.enumerated() {
                        let route = routes[(i + k) % routes.count]
                        let kind = Divergence.Kind.allCases[(i + k) % Divergence.Kind.allCases.count]
                        let screen: ScreenID = route.isEmpty ? .tabRoot("inbox") : .presentation(token: head, routeID: route)
                        let d = Divergence(kind: kind, screen: screen, seq: head, cause: Divergence.Cause.allCases[k % 3],
                                           visibleDepth: kind == .depthMismatch ? 2 : nil, stateDepth: kind == .depthMismatch ? 1 : nil,
                                           detectedAt: 1_795_000_000_000 + Int64(head) * 500 + 250)
                        records.append(ScreenRecord(.diverged(d), headSeq: head, time: d.detectedAt))
                        divergences["\(route)\t\(head > UInt64(split) ? secondVersion : version)", default: 0] += 1
                    }
                    try log.appendScreenRecords(records, to: session)
                }
                // The first run ended normally, everything committed: a clean end.
                firstRun?.close(allCommitted: true)
                // The answers, from a replay of the generated events (not from the store or the export).
                var replayer = Replayer()
                var journal: (any EventJournal)?
                if crashes { journal = try log.beginRun(of: session, head: UInt64(split), RunStart(appVersion: secondVersion, build: "200")) }
                for (j, e) in events.enumerated() {
                    let step = replayer.apply(e.event)
                    let runVersion = j < split ? version : secondVersion
                    if j >= split {
                        journal?.write(e, seq: step.seq, digest: step.digest)
                        journaled += 1
                    }
                    guard let reason = step.outcome.reason else { continue }
                    rejections["\(runVersion)\t\(reason.rawValue)", default: 0] += 1
                    if e.event.kind == .interactiveDismiss, e.meta.origin == .user, let top = replayer.state.topPresentation {
                        refused[top.route.id, default: 0] += 1
                    }
                }
                if let journal { crashedJournals.append(journal) }
                if crashes {
                    let top = replayer.state.topPresentation?.route.id ?? ""
                    crashed["\(secondVersion)\t\(top)\t\(replayer.state.activeFrame.path.count)", default: 0] += 1
                }
                if let top = replayer.state.topPresentation, !top.dismissible { stuck.append(session.rawValue) }
            }
            try log.flush()
        }
        func table(_ d: [String: Int]) -> JSONValue {
            .array(d.keys.sorted().map { k in
                .array(k.split(separator: "\t", omittingEmptySubsequences: false).map { .string(String($0)) } + [.int(Int64(d[k]!))])
            })
        }
        // What was on screen at each crash: version, top presentation (null for none), path length, count.
        let crashes: JSONValue = .array(crashed.keys.sorted().map { k in
            let p = k.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return .array([.string(p[0]), p[1].isEmpty ? .null : .string(p[1]), .int(Int64(p[2])!), .int(Int64(crashed[k]!))])
        })
        // Divergences by route id (null for a tab's root) and app version, count.
        let diverged: JSONValue = .array(divergences.keys.sorted().map { k in
            let p = k.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return .array([p[0].isEmpty ? .null : .string(p[0]), .string(p[1]), .int(Int64(divergences[k]!))])
        })
        say(JSONValue.object(["rejections": table(rejections), "refused_swipes": table(refused), "stuck": .array(stuck.sorted().map(JSONValue.string)),
                              "crashed": crashes, "journaled": .int(Int64(journaled)), "divergences": diverged]).canonicalText)
        withExtendedLifetime(crashedJournals) { _exit(0) }
    } catch {
        fail("\(error)")
    }

case "append-screens":
    guard args.count == 5, let count = Int(args[4]) else { fail("usage: append-screens STORE SESSION COUNT", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .perEvent, retention: .none))
        let session = SessionID(args[3])
        let head = try log.session(session).eventCount
        for i in 0..<count {
            let ghost = ScreenID.presentation(token: 1000 + UInt64(i), routeID: "ghost")
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            try log.appendScreenRecords([
                ScreenRecord(.appeared(ghost), headSeq: head, time: now),
                ScreenRecord(.diverged(Divergence(kind: .unknownScreen, screen: ghost, seq: head, detectedAt: now + 1000)),
                             headSeq: head, time: now + 1000),
            ], to: session)
            try log.flush()
            say("screens \(2 * (i + 1))")
            usleep(200_000)
        }
    } catch {
        fail("\(error)")
    }

case "die-in-write":
    do {
        let environment = try LMDBEnvironment.open(at: store)
        try environment.withWriteTransaction { _ in
            say("in-txn")
            while true { pause() }
        }
    } catch {
        fail("\(error)")
    }

case "hold-open":
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(readOnly: true))
        say("open \(log.environment.lockMode.rawValue)")
        _ = FileHandle.standardInput.readDataToEndOfFile()
        withExtendedLifetime(log) {}
        exit(0)
    } catch {
        fail("\(error)")
    }

case "delete":
    guard args.count >= 4 else { fail("usage: delete STORE SESSION…", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .perEvent, retention: .none))
        for id in args[3...] {
            try log.deleteSession(SessionID(id))
            say("deleted \(id)")
        }
    } catch {
        fail("\(error)")
    }

case "screens":
    guard args.count == 5, ["diverged", "agreed"].contains(args[4]) else { fail("usage: screens STORE SESSION diverged|agreed", code: 64) }
    do {
        let log = try LMDBEventLog.open(at: store, options: .init(durability: .none, retention: .none))
        let t: Int64 = 1_795_000_000_000
        var records: [ScreenRecord] = [
            ScreenRecord(.appeared(.tabRoot("home")), headSeq: 1, time: t + 150),
            ScreenRecord(.appeared(.stackEntry(frame: .root, index: 0, routeID: "product")), headSeq: 2, time: t + 250),
            ScreenRecord(.disappeared(.stackEntry(frame: .root, index: 0, routeID: "product")), headSeq: 3, time: t + 350),
        ]
        if args[4] == "diverged" {
            let found: [(UInt64, Divergence)] = [
                (3, Divergence(kind: .notOnScreen, screen: .presentation(token: 3, routeID: "checkout"), seq: 3, cause: .presentedWhileDismissing, detectedAt: t + 360)),
                (4, Divergence(kind: .stillOnScreen, screen: .presentation(token: 5, routeID: "address"), seq: 4, detectedAt: t + 460)),
                (4, Divergence(kind: .unknownScreen, screen: .stackEntry(frame: .root, index: 2, routeID: "ghost", tab: "home"), seq: 4,
                               cause: .removedWithoutWrite, detectedAt: t + 470)),
                (5, Divergence(kind: .depthMismatch, screen: .stackEntry(frame: .presentation(3), index: 1, routeID: "shipping"), seq: 4,
                               cause: .pathWriteDuringTabSwitch, visibleDepth: 2, stateDepth: 1, detectedAt: t + 560)),
            ]
            records += found.map { ScreenRecord(.diverged($0.1), headSeq: $0.0, time: $0.1.detectedAt) }
        }
        try log.appendScreenRecords(records, to: SessionID(args[3]))
        try log.flush()
        say("ok \(records.count)")
    } catch {
        fail("\(error)")
    }

default:
    fail("unknown command \(args[1])", code: 64)
}

/// State shared between a child's threads or tasks.
final class Shared: Sendable {
    let flag = Atomic<Bool>(false)
    /// The seq to follow to (0: not known yet) and the last seq seen.
    let target = Atomic<UInt64>(0)
    let seen = Atomic<UInt64>(0)
}
