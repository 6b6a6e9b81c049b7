import Foundation
@_spi(Tools) import RouteLogCore
import Testing

/// ``Fixture/scan(contentsOf:event:)`` reads what ``Fixture/init(contentsOf:)`` reads, without
/// keeping the events or the expected outcomes, and fails with the same errors.
@Suite("Fixture scan")
struct FixtureScanTests {
    static func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "routelog-scan-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: FixtureCorpus.files)
    func scanHandsOverTheEventsTheFullReadKeeps(_ file: String) throws {
        let path = FixtureCorpus.path(file)
        let full = try Fixture(contentsOf: path)
        var events: [RecordedEvent] = []
        let scanned = try Fixture.scan(contentsOf: path) { events.append($0) }
        #expect(events == full.events)
        #expect(scanned.eventCount == full.events.count)
        var header = full
        header.events = []
        header.expect?.outcomes = nil
        #expect(scanned.header == header)
    }

    /// A fixture whose expected outcomes hold `outcome` at index 1 and whose state is `state`.
    static func text(outcome: String, state: String = "{\"root\":{\"path\":[]}}", extra: String = "") -> String {
        """
        {"format":"routelog-fixture/1","name":"x","events":[{"push":{"route":{"id":"a"}}},{"pop":{}}],
         "expect":{\(extra)"outcomes":["applied",\(outcome)],"state":\(state)}}
        """
    }

    @Test(arguments: [
        text(outcome: "\"bogus\""),
        text(outcome: "3"),
        text(outcome: "\"applied\"", extra: "\"other\":1,"),
        text(outcome: "\"applied\"", extra: "\"outcomes\":[],"),
        text(outcome: "\"applied\"", state: "7"),
        text(outcome: "\"applied\"").replacingOccurrences(of: "{\"pop\":{}}", with: "{\"pop\":5}"),
        text(outcome: "\"applied\"").replacingOccurrences(of: "\"outcomes\":[", with: "\"outcomes\":{\"a\":["),
        text(outcome: "\"applied\" x"),
    ])
    func scanFailsAsTheFullReadFails(_ text: String) throws {
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let full = #expect(throws: FixtureError.self) { try Fixture(contentsOf: path) }
        let scanned = #expect(throws: FixtureError.self) { try Fixture.scan(contentsOf: path) }
        #expect(full != nil && full == scanned)
    }

    @Test func fullReadKeepsTheStreamedOutcomes() throws {
        let path = try Self.temporaryFile(Self.text(outcome: "\"applied\""))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let full = try Fixture(contentsOf: path)
        #expect(full.expect?.outcomes == [.applied(), .applied()])
        #expect(full.events.count == 2)
        #expect(try Fixture.scan(contentsOf: path).eventCount == 2)
    }
}
