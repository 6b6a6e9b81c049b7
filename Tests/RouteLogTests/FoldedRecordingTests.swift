import Foundation
@_spi(Tools) import RouteLog
@_spi(Tools) import RouteLogCore
@_spi(Tools) import RouteLogLMDB
@_spi(Tools) import RouteLogTestSupport
import Testing

/// A log between the recorder and a store that counts the recorder's appends of each kind and,
/// when `lies`, hands the store a wrong digest for the last event of every folded batch.
final class FoldedSpyLog: ForwardingEventLog, FoldedAppendingEventLog, @unchecked Sendable {
    let store: LMDBEventLog
    let lies: Bool
    private let lock = NSLock()
    private var _folded = 0
    private var _plain = 0
    private var _refused = 0

    init(_ store: LMDBEventLog, lies: Bool) {
        self.store = store
        self.lies = lies
        super.init(store)
    }

    override var foldedAppending: (any FoldedAppendingEventLog)? { self }

    /// Folded appends tried, the store's refusals of them, and plain appends.
    var counts: (folded: Int, refused: Int, plain: Int) { lock.withLock { (_folded, _refused, _plain) } }

    override func append(_ events: [RecordedEvent], to session: SessionID, expectedSeq: UInt64) throws -> [StoredEvent] {
        lock.withLock { _plain += 1 }
        return try super.append(events, to: session, expectedSeq: expectedSeq)
    }

    func appendFolded(_ events: [RecordedEvent], digests: [Digest], to session: SessionID, expectedSeq: UInt64) throws {
        lock.withLock { _folded += 1 }
        var given = digests
        if lies, let last = given.indices.last { given[last] = Digest(hi: given[last].hi ^ 1, lo: given[last].lo) }
        do {
            try store.appendFolded(events, digests: given, to: session, expectedSeq: expectedSeq)
        } catch let error as FoldMismatch {
            lock.withLock { _refused += 1 }
            throw error
        }
    }
}

@MainActor
@Suite struct FoldedRecordingTests {
    func store() throws -> (LMDBEventLog, TempDir) {
        let dir = try TempDir()
        return (try LMDBEventLog.open(at: dir.path, options: .init(durability: .none, snapshotInterval: 4, clock: fixedClock)), dir)
    }

    @Test func theRecorderHandsTheStoreItsDigests() async throws {
        let (store, dir) = try store()
        defer { dir.cleanup() }
        let log = FoldedSpyLog(store, lies: false)
        let nav = try Navigator<PodRoute>(log: log, clock: fixedClock)
        let results = NavigatorTests.script(nav)
        await nav.flush()
        #expect(nav.recordingError == nil)
        let counts = log.counts
        #expect(counts.folded > 0 && counts.refused == 0 && counts.plain == 0)
        let stored = try store.events(nav.session)
        #expect(stored.map(\.outcome) == results.compactMap(\.outcome))
        #expect(stored.map(\.digest) == replay(stored.map(\.event)).steps.map(\.digest))
        #expect(stored.last?.digest == nav.state.digest)
        #expect(try store.verify(session: nav.session).failure == nil)
    }

    @Test func aBatchTheStoreRefusesIsAppendedForItToFold() async throws {
        let (store, dir) = try store()
        defer { dir.cleanup() }
        let log = FoldedSpyLog(store, lies: true)
        let capture = CapturingLogHandler()
        let nav = try Navigator<PodRoute>(log: log, logger: capture.logger, clock: fixedClock)
        let results = NavigatorTests.script(nav)
        await nav.flush()
        #expect(nav.recordingError == nil)
        let counts = log.counts
        // Every folded batch was refused (nothing of it written) and appended for the store to fold.
        #expect(counts.folded > 0 && counts.refused == counts.folded && counts.plain == counts.folded)
        let stored = try store.events(nav.session)
        #expect(stored.count == results.count)
        #expect(stored.map(\.digest) == replay(stored.map(\.event)).steps.map(\.digest))
        #expect(try store.verify(session: nav.session).failure == nil)
        // The store's fold agrees with the navigator's: no digest warning.
        #expect(capture.count(.warning) == 0)
    }
}
