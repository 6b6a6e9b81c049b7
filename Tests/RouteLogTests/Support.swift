import Foundation
import Logging
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
import RouteLogTestSupport

/// The routes of a small podcast app.
enum PodRoute: Routable {
    case episode(id: Int)
    case show(name: String)
    case player(episode: Int)
    case upsell(feature: String)
    case alert(message: String)
    case settings
    case ratio(Double)

    var id: String {
        switch self {
        case .episode(let id): "episode-\(id)"
        case .show(let name): "show-\(name)"
        case .player: "player"
        case .upsell: "upsell"
        case .alert: "alert"
        case .settings: "settings"
        case .ratio: "ratio"
        }
    }
}

/// An incompatible route type that reuses PodRoute's ids (a route type that changed shape).
enum OldRoute: Routable {
    case episode(legacyKey: String)
    var id: String { "episode-1" }
}

/// A fixed clock: deterministic timestamps.
let fixedClock: @Sendable () -> Int64 = { 1_700_000_000_000 }

/// A navigator of ``PodRoute`` on a fresh in-memory log, on the fixed clock.
@MainActor func inMemoryNavigator() throws -> Navigator<PodRoute> {
    try Navigator<PodRoute>(log: InMemoryEventLog(clock: fixedClock), clock: fixedClock)
}

/// A log handler that keeps every message, for asserting what the navigator logged.
final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var _messages: [(Logger.Level, String)] = []
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { _messages.append((event.level, event.message.description)) }
    }

    var messages: [(Logger.Level, String)] { lock.withLock { _messages } }
    func count(_ level: Logger.Level) -> Int { messages.filter { $0.0 == level }.count }

    var logger: Logger { Logger(label: "test") { _ in self } }
}

/// An in-memory log whose appends can be made to fail (disk full), or to fail after committing.
final class FlakyLog: ForwardingEventLog, @unchecked Sendable {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
    private let lock = NSLock()
    private var _failing = false
    private var _failAfterCommit = false
    private var _attempts = 0

    var failing: Bool {
        get { lock.withLock { _failing } }
        set { lock.withLock { _failing = newValue } }
    }
    /// The next append commits, then throws as if the acknowledgement was lost.
    var failAfterCommit: Bool {
        get { lock.withLock { _failAfterCommit } }
        set { lock.withLock { _failAfterCommit = newValue } }
    }
    var attempts: Int { lock.withLock { _attempts } }

    init() { super.init(InMemoryEventLog(snapshotInterval: 4, clock: fixedClock)) }

    override func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        let (fail, afterCommit): (Bool, Bool) = lock.withLock {
            _attempts += 1
            let a = _failAfterCommit
            _failAfterCommit = false
            return (_failing, a)
        }
        if fail { throw DiskFull() }
        let stored = try inner.append(events, to: session, expectedSeq: expectedSeq)
        if afterCommit { throw DiskFull() }
        return stored
    }
}

/// A log whose appends wait at a gate, like a slow fsync, until the test opens it (an in-memory
/// log unless another is given). The gate gives up after 30 minutes, a hang guard only: on a busy
/// machine a test may take minutes between its first call and `open()`, and the outcome must not
/// change with that.
class GatedLog: ForwardingEventLog, @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _started = false
    private var _timedOut = false
    private var _open = false

    var started: Bool { lock.withLock { _started } }
    /// Whether an append gave up waiting: it was blocking whoever called it.
    var timedOut: Bool { lock.withLock { _timedOut } }

    override init(_ inner: any EventLog = InMemoryEventLog(clock: fixedClock)) { super.init(inner) }

    func open() {
        lock.withLock { _open = true }
        gate.signal()
    }

    override func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        let mustWait: Bool = lock.withLock {
            _started = true
            return !_open
        }
        if mustWait {
            if gate.wait(timeout: .now() + 1_800) == .timedOut { lock.withLock { _timedOut = true } } else { gate.signal() }
        }
        return try inner.append(events, to: session, expectedSeq: expectedSeq)
    }
}
