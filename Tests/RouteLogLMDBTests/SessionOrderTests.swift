import Foundation
@_spi(Tools) import RouteLogCore
@_spi(Tools) @testable import RouteLogLMDB
import Testing
import RouteLogTestSupport

/// Sessions are listed in the order they entered the store (a counter the store keeps), whatever
/// their recorded creation time; each row keeps its order and the time it entered.
@Suite(.tags(.appleLocks))
struct SessionOrderTests {
    func tempStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("routelog-order-\(UUID().uuidString)").path
    }

    @Test func sessionsAreListedInTheOrderTheyEnteredTheStore() throws {
        let path = tempStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = StepClock(1_800_000_000_000)
        let log = try LMDBEventLog.open(at: path, options: .init(durability: .none, clock: { clock.now }))
        let fresh = try log.createSession(NewSession(label: "fresh"))
        clock.now += 1_000
        // An import keeps its recorded time, days older than the fresh session.
        let old = try log.importFixture(Fixture(name: "old", session: Fixture.SessionHeader(label: "old", created: 1_700_000_000_000),
                                                events: [RecordedEvent(.push(RouteRef(id: "a")))]))
        let again = try log.importFixture(Fixture(name: "old", session: Fixture.SessionHeader(label: "old", created: 1_700_000_000_000),
                                                  events: [RecordedEvent(.push(RouteRef(id: "a")))]))
        let all = try log.sessions()
        #expect(all.map(\.id) == [fresh.id, old.id, again.id])
        #expect(all.map(\.entryOrder) == [1, 2, 3])
        #expect(all.map(\.createdAt) == [1_800_000_000_000, 1_700_000_000_000, 1_700_000_000_000])
        #expect(all.map(\.enteredAt) == [1_800_000_000_000, 1_800_000_001_000, 1_800_000_001_000])
        // Appends rewrite the row and keep its order.
        try log.append([RecordedEvent(.push(RouteRef(id: "b")))], to: fresh.id, expectedSeq: 0)
        #expect(try log.session(fresh.id).entryOrder == 1)
    }

    @Test func aSessionRowKeepsItsEntryOrderAndRefusesAnOlderRowFormat() throws {
        let id = SessionID.v7(milliseconds: 1_700_000_000_000, random: (1, 2))
        let info = SessionInfo(id: id, label: "row", appName: "App", appVersion: "2.1", createdAt: 1_700_000_000_000,
                               eventCount: 3, lastEventAt: 1_700_000_000_500, headDigest: NavigationState().digest,
                               entryOrder: 7, enteredAt: 1_800_000_000_000)
        var bytes = SessionRow(info: info, headHash: .zero).encode()
        let row = try bytes.withUnsafeBytes { try SessionRow.decode($0, id: id) }
        #expect(row.info.entryOrder == 7 && row.info.enteredAt == 1_800_000_000_000 && row.info.label == "row")
        #expect(row.info.lastEventAt == 1_700_000_000_500 && row.info.appVersion == "2.1")
        // A row whose format byte says 1 (before entry orders) is refused, even with a valid seal.
        bytes[0] = 1
        var w = BinaryWriter()
        w.bytes = Array(bytes.dropLast(16))
        w.seal()
        let sealed = w.bytes
        #expect(throws: BinaryDecodingError.self) { try sealed.withUnsafeBytes { try SessionRow.decode($0, id: id) } }
    }
}

/// A clock the test moves by hand.
final class StepClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64
    init(_ start: Int64) { value = start }
    var now: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
