import Foundation
@testable import RouteLogAgent
@_spi(Tools) import RouteLogCore
import Testing

/// The agent tools `routelog mcp` serves, called in-process on fixture files: origin filters,
/// the answer cap (pages where an answer is a list, a one-line error where it is not), redaction.
struct AgentToolsTests {
    let dir: TempDir

    static let secret = "SECRET-SKU-41"

    init() throws {
        dir = try TempDir()
        try dir.writeSession("shop.json", [
            RecordedEvent(.push(RouteRef(id: "product", payload: RawJSON(.object(["sku": .string(Self.secret)])))), meta: Sessions.at(0, .user)),
            RecordedEvent(.show(RouteRef(id: "checkout"), style: .sheet), meta: Sessions.at(100)),
            RecordedEvent(.reset(NavigationState()), meta: Sessions.at(200, .deepLink)),
            RecordedEvent(.pop(), meta: Sessions.at(300, .system)),
        ], label: "shop")
        // A state far larger than one answer: 500 routes with long ids on one stack.
        let long = String(repeating: "x", count: 200)
        try dir.writeSession("deep.json", (0..<500).map { RecordedEvent(.push(RouteRef(id: "screen-\($0)-\(long)")), meta: Sessions.at(Int64($0))) }, label: "deep")
    }

    func call(_ tools: AgentTools, _ name: String, _ args: [String: JSONValue]) async -> AgentTools.Answer {
        await tools.call(name, args)
    }

    @Test func eventsFilterByEveryOriginIncludingDeepLink() async throws {
        let tools = AgentTools(storePath: dir.path, fixtures: dir.parent)
        let shop = JSONValue.string(dir.path("shop.json"))
        let deep = await call(tools, "get_events", ["session": shop, "origin": .string("deepLink")])
        #expect(deep.error == nil, "\(deep.text)")
        #expect(deep.structured["events"]?.arrayValue?.compactMap { $0["seq"] } == [.int(3)], "\(deep.text)")
        let user = await call(tools, "get_events", ["session": shop, "origin": .string("user")])
        #expect(user.structured["events"]?.arrayValue?.compactMap { $0["seq"] } == [.int(1)], "\(user.text)")
        let bad = await call(tools, "get_events", ["session": shop, "origin": .string("web")])
        #expect(bad.error == "unknown origin: web (app, user, system, deepLink)", "\(bad.text)")
    }

    @Test func anAnswerOverTheCapPagesOrIsAOneLineError() async throws {
        let tools = AgentTools(storePath: dir.path, fixtures: dir.parent)
        let deep = JSONValue.string(dir.path("deep.json"))
        // The state is one document: too large, it is an error that says what to ask instead.
        let state = await call(tools, "get_state", ["session": deep])
        let message = try #require(state.error)
        #expect(message.contains("over the 30 KB limit") && !message.contains("\n"), "\(message)")
        // The blame of the same state is a list: it pages, every page under the cap, and the pages
        // together name every route once.
        var cursor: JSONValue?
        var seen = 0, pages = 0
        repeat {
            var args: [String: JSONValue] = ["session": deep]
            if let cursor { args["cursor"] = cursor }
            let page = await call(tools, "blame", args)
            #expect(page.error == nil, "\(page.text)")
            #expect(page.structured.canonicalText.utf8.count <= AgentTools.maxAnswerBytes)
            seen += page.structured["elements"]?.arrayValue?.count ?? 0
            cursor = page.structured["next"].flatMap { $0 == .null ? nil : $0 }
            pages += 1
        } while cursor != nil && pages < 100
        #expect(pages > 1 && seen == 500, "pages \(pages), elements \(seen)")
        // The tools still answer after an error.
        let small = await call(tools, "get_state", ["session": deep, "seq": .int(2)])
        #expect(small.error == nil && small.structured["seq"] == .int(2), "\(small.text)")
    }

    @Test func exportIsRedactedUnlessTheServerWasStartedUnredacted() async throws {
        let shop = JSONValue.string(dir.path("shop.json"))
        let redacted = await call(AgentTools(storePath: dir.path, fixtures: dir.parent), "export", ["session": shop])
        #expect(redacted.error == nil && redacted.structured["redacted"] == .bool(true), "\(redacted.text)")
        #expect(!redacted.text.contains(Self.secret))
        let plain = await call(AgentTools(storePath: dir.path, unredacted: true, fixtures: dir.parent), "export", ["session": shop])
        #expect(plain.error == nil && plain.structured["redacted"] == .bool(false), "\(plain.text)")
        #expect(plain.text.contains(Self.secret))
    }

    @Test func badRefsAndSeqsAreTheCLIsOneLineErrors() async throws {
        let tools = AgentTools(storePath: dir.path, fixtures: dir.parent)
        let missing = await call(tools, "blame", ["session": .string(dir.path("missing.json"))])
        #expect(missing.error?.hasPrefix("no such file") == true, "\(missing.text)")
        let range = await call(tools, "blame", ["session": .string(dir.path("shop.json") + "@9")])
        #expect(range.error?.contains("out of range: 9") == true, "\(range.text)")
        let contradiction = await call(tools, "blame", ["session": .string(dir.path("shop.json") + "@2"), "seq": .int(3)])
        #expect(contradiction.error?.contains("contradicts") == true, "\(contradiction.text)")
        let whole = await call(tools, "lifetimes", ["session": .string(dir.path("shop.json") + "@2")])
        #expect(whole.error?.contains("without @N") == true, "\(whole.text)")
        let unknown = await call(tools, "rm", [:])
        #expect(unknown.error?.hasPrefix("unknown tool: rm") == true, "\(unknown.text)")
    }
}
