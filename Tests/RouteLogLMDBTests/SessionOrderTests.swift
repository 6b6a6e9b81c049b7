import Foundation
import RouteLogCore
@testable import RouteLogLMDB
import Testing

/// Sessions are listed in the order they entered the store (a counter the store keeps), whatever
/// their recorded creation time; session rows written before the counter still read.
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

    @Test func aFormatOneRowStillReads() throws {
        var w = ByteSink()
        w.u8(1)
        w.i64(1_700_000_000_000)
        w.u64(0)
        w.u8(0); w.i64(0)
        w.digest(NavigationState().digest)
        w.digest(.zero)
        w.string("legacy")
        w.optionalString(nil)
        w.optionalString(nil)
        w.seal()
        let id = SessionID.v7(milliseconds: 1_700_000_000_000, random: (1, 2))
        let row = try w.bytes.withUnsafeBytes { try SessionRow.decode($0, id: id) }
        #expect(row.info.label == "legacy" && row.info.entryOrder == 0 && row.info.enteredAt == nil)
        // Written again, it is a format-2 row that reads back the same.
        let again = try row.encode().withUnsafeBytes { try SessionRow.decode($0, id: id) }
        #expect(again.info.entryOrder == 0 && again.info.enteredAt == row.info.createdAt)
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
