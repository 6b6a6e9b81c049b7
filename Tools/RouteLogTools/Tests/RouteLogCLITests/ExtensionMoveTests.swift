import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing

/// Issue 38 C: an extension always records. The app moves a large extension store in slices and
/// lets go of it whenever the extension waits, so each of the extension's opens gets in, however
/// long the whole move takes; and a busy store says what the other process is doing.
@Suite(.serialized) struct ExtensionMoveTests {
    /// An extension store at `path` with `sessions` sessions of `events` events each.
    static func fill(_ path: String, sessions: Int, events: Int) throws {
        let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, retention: .none, oneProcessAtATime: true))
        defer { log.environment.release() }
        for s in 0..<sessions {
            let id = try log.createSession(NewSession(label: "share", appName: "CrashApp", appVersion: "2.0")).id
            var seq: UInt64 = 0
            while seq < UInt64(events) {
                let batch = (0..<min(1_000, events - Int(seq))).map { k in
                    RecordedEvent(k % 3 == 2 ? .pop() : .push(RouteRef(id: "thread/\(s)-\(Int(seq) + k)")))
                }
                _ = try log.append(batch, to: id, expectedSeq: seq)
                seq += UInt64(batch.count)
            }
        }
    }

    struct Outcome {
        var requests: [(k: Int, waited: Double, session: String)] = []
        /// How long each open (that got in or not) waited for the store's owner.lock.
        var lockWaits: [Double] = []
        var errors: [String] = []
        /// How long each failed open waited.
        var errorWaits: [Double] = []
        var moves = 0
        var movesThatLetGo = 0
        var moveSeconds = 0.0
    }

    /// Runs `requests` extension requests in a child process while this process moves the
    /// extension's sessions into `app`, again and again, until the child is done; then moves
    /// what is left.
    static func moveWhileTheExtensionRecords(app: LMDBEventLog, ext: String, requests: Int) throws -> Outcome {
        var outcome = Outcome()
        let child = try CrashApp.start(["requests", ext, String(requests)])
        // The first request has begun: the move starts now, and overlaps the next ones.
        var lines: [String] = []
        if let first = child.nextLine() { lines.append(first) }
        let stop = NSLock()
        nonisolated(unsafe) var done = false
        nonisolated(unsafe) var moves = 0, letGo = 0
        nonisolated(unsafe) var moveError: (any Error)?
        let clock = ContinuousClock()
        let started = clock.now
        nonisolated(unsafe) var firstMoveEnded: Duration?
        let mover = Thread {
            while !stop.withLock({ done }) {
                do {
                    let r = try app.moveSessions(fromStoreAt: ext)
                    moves += 1
                    if r.busy { letGo += 1 } else if firstMoveEnded == nil { firstMoveEnded = started.duration(to: clock.now) }
                } catch {
                    moveError = error
                    return
                }
                usleep(2_000)
            }
        }
        mover.start()
        lines += child.rest()
        stop.withLock { done = true }
        while !mover.isFinished { usleep(1_000) }
        if let moveError { throw moveError }
        outcome.moves = moves
        outcome.movesThatLetGo = letGo
        outcome.moveSeconds = Double((firstMoveEnded ?? .zero).components.attoseconds) / 1e18 + Double((firstMoveEnded ?? .zero).components.seconds)
        for line in lines {
            let parts = line.split(separator: " ")
            if let i = parts.firstIndex(of: "lock"), i + 1 < parts.count, let ms = Double(parts[i + 1]) { outcome.lockWaits.append(ms) }
            if parts.first == "request", parts.count >= 6, let k = Int(parts[1]), let ms = Double(parts[3]) {
                outcome.requests.append((k, ms, String(parts[5])))
            } else if parts.first == "error" {
                outcome.errors.append(line)
                if parts.count > 3, let ms = Double(parts[3].dropLast()) { outcome.errorWaits.append(ms) }
            }
        }
        // What is left (the last requests' sessions) moves once nothing holds the store.
        for _ in 0..<100 where try app.moveSessions(fromStoreAt: ext).busy { usleep(10_000) }
        return outcome
    }

    @Test(.timeLimit(.minutes(10))) func everyExtensionOpenGetsInWhileTheAppMovesAndRecords() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ext = dir.path("share")
        try Self.fill(ext, sessions: 20, events: 5_000)
        let app = try LMDBEventLog.open(at: dir.path("app"), options: .init(durability: .none, retention: .none))
        let requests = 40
        let outcome = try Self.moveWhileTheExtensionRecords(app: app, ext: ext, requests: requests)

        #expect(outcome.errors == [], "every open of the extension gets in")
        #expect(outcome.requests.map(\.k) == Array(0..<requests))
        print("extension waited at most \(outcome.requests.map(\.waited).max() ?? 0) ms (for owner.lock \(outcome.lockWaits.max() ?? 0) ms) over \(requests) requests; \(outcome.moves) moves, \(outcome.movesThatLetGo) let go for the extension")
        // Everything is in the app's store exactly once, and nothing is left in the extension's.
        let sessions = try app.sessions()
        #expect(Set(sessions.map(\.id)).count == sessions.count)
        #expect(sessions.filter { $0.eventCount == 5_000 }.count == 20)
        for r in outcome.requests {
            let moved = sessions.filter { $0.id.rawValue == r.session }
            #expect(moved.count == 1 && moved.first?.eventCount == 5, "request \(r.k)'s session is in the app's store, with its calls")
        }
        for info in sessions where info.eventCount == 5_000 { #expect(try app.verify(session: info.id).isValid) }
        let left = try LMDBEventLog.open(at: ext, options: .init(readOnly: true))
        #expect(try left.sessions().isEmpty)
    }

    /// A busy extension store says what holds it: the app moving sessions in, or a process that
    /// has it open.
    @Test func aBusyExtensionStoreSaysWhatTheOtherProcessIsDoing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ext = dir.path("share")
        let child = try CrashApp.extensionMidRequest(ext)
        defer { child.kill(); _ = child.rest() }
        var opened: (any Error)?
        do { _ = try LMDBEventLog.open(at: ext, options: .init(oneProcessAtATime: true)) } catch { opened = error }
        let held = try #require(opened as? LMDBEventLogError)
        #expect(held == .storeHeld(path: ext, byMove: false))
        #expect("\(held)".contains("another process has the store \(ext) open"), "\(held)")
        // The app moving (here, this process, with the move's options): an extension's open says so.
        var options = LMDBEventLog.Options(retention: .none, oneProcessAtATime: true)
        options.moving = true
        child.kill()
        _ = child.rest()
        let mover = try LMDBEventLog.open(at: ext, options: options)
        defer { mover.environment.release() }
        let other = try CrashApp.run(["extension", ext, "3", "1", "suspend"])
        #expect(other.contains { $0.contains("store busy: another process (the app moving sessions in) holds \(ext)/owner.lock") }, "\(other)")
    }

    /// Issue 38 C's figures (ROUTELOG_MEASURE=1): the longest wait of an extension's open during a
    /// move of 20 sessions × 5,000 events, with the move in one piece (before) and in slices.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ROUTELOG_MEASURE"] != nil), .timeLimit(.minutes(5)))
    func measureTheExtensionsWait() throws {
        // The extension's requests alone, on a store as large, for the baseline of a wait.
        do {
            let dir = try TempDir()
            defer { dir.cleanup() }
            try Self.fill(dir.path("share"), sessions: 20, events: 5_000)
            let lines = try CrashApp.run(["requests", dir.path("share"), "20"])
            let waits = lines.compactMap { l -> Int? in let p = l.split(separator: " "); return p.first == "request" ? Double(p[3]).map { Int($0) } : nil }
            print("MEASURE no move: extension open + navigator took \(waits.sorted()) ms")
        }
        for sliced in [false, true] {
            let defaults = (StoreLifecycle.moveBatchEvents, StoreLifecycle.moveSliceEvents)
            if !sliced { (StoreLifecycle.moveBatchEvents, StoreLifecycle.moveSliceEvents) = (Int.max, Int.max) }
            StoreLifecycle.moveYieldsToWaiters = sliced
            defer { (StoreLifecycle.moveBatchEvents, StoreLifecycle.moveSliceEvents) = defaults; StoreLifecycle.moveYieldsToWaiters = true }
            let dir = try TempDir()
            defer { dir.cleanup() }
            let ext = dir.path("share")
            try Self.fill(ext, sessions: 20, events: 5_000)
            let app = try LMDBEventLog.open(at: dir.path("app"), options: .init(durability: .none, retention: .none))
            let o = try Self.moveWhileTheExtensionRecords(app: app, ext: ext, requests: 40)
            let waits = o.requests.map(\.waited) + o.errorWaits
            print("MEASURE move \(sliced ? "in slices" : "in one piece"): \(o.requests.count) of 40 extension opens got in, \(o.errors.count) failed (\(o.errors.first ?? "")); longest open \(waits.max() ?? 0) ms (opens: \(waits.sorted().map { Int($0) })), longest wait for owner.lock \(o.lockWaits.max() ?? 0) ms (\(o.lockWaits.sorted().map { Int($0) })); \(o.moves) moves, \(o.movesThatLetGo) let go; the first whole move took \(o.moveSeconds) s")
        }
    }
}

/// A session of the extension's store that holds no event yet (an extension killed before its
/// first commit) is moved like any other: the app's store gets it with its metadata, and only
/// then is it deleted from the extension's.
@Suite("Moving an empty session")
struct EmptySessionMoveTests {
    @Test func aSessionWithoutEventsIsMovedNotLost() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let ext = dir.path("ext"), app = dir.path("app")
        let id: SessionID
        do {
            let store = try LMDBEventLog.open(at: ext, options: .init(durability: .none, retention: .none))
            id = try store.createSession(NewSession(label: "share", appName: "Ext", appVersion: "1.0")).id
        }
        let appStore = try LMDBEventLog.open(at: app, options: .init(durability: .none, retention: .none))
        let moved = try appStore.moveSessions(fromStoreAt: ext)
        #expect(!moved.busy)
        #expect(moved.sessions.map(\.session) == [id])
        let info = try appStore.session(id)
        #expect(info.eventCount == 0 && info.label == "share" && info.appName == "Ext")
        let left = try LMDBEventLog.open(at: ext, options: .init(readOnly: true))
        #expect(try left.sessions().isEmpty)
    }
}
