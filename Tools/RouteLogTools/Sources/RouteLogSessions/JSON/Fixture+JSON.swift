@_spi(Tools) import RouteLogCore

extension Fixture {
    /// The fixture as one JSON value: the object its canonical text (``Fixture/rendered()``) holds,
    /// for an answer that carries a fixture inside it (the MCP server's `export` and `minimize`).
    package var json: JSONValue {
        var o: [String: JSONValue] = [
            "format": .string(Fixture.format), "name": .string(name), "description": .string(description),
            "events": .array(events.map(\.json)),
        ]
        if let session { o["session"] = session.json }
        if let expect { o["expect"] = expect.json }
        return .object(o)
    }
}
