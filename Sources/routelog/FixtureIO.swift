import Foundation
import RouteLogCore

/// A fixture or export file as the CLI reads and writes it: the portable format
/// `{"format": "routelog-fixture/1", "name", "description", "events": […], "expect": {…}}`.
struct FixtureDocument: Equatable {
    static let formatName = "routelog-fixture/1"

    var name: String
    var description: String
    var events: [RecordedEvent]
    var expect: Expectation?

    /// What a replay of the events must give.
    struct Expectation: Equatable {
        var outcomes: [Outcome]
        var state: NavigationState
        var digest: Digest
    }

    /// The expectation a replay with the current reducer gives.
    static func expectation(for events: [RecordedEvent]) -> Expectation {
        let r = replay(events.map(\.event))
        return Expectation(outcomes: r.steps.map(\.outcome), state: r.state, digest: r.state.digest)
    }

    // MARK: - Reading

    /// Loads and parses a file. Errors name the file and the place inside it.
    static func load(_ path: String) throws(CLIError) -> FixtureDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw .data("cannot read file: \(path)\(isDir.boolValue ? " (a directory)" : "")")
            }
            throw .usage("no such file: \(path)")
        }
        let value: JSONValue
        do { value = try JSONValue(parsing: [UInt8](data)) } catch { throw .data("malformed fixture: \(path): \(error)") }
        do { return try FixtureDocument(json: value) } catch { throw .data("malformed fixture: \(path): \(error)") }
    }

    init(name: String, description: String, events: [RecordedEvent], expect: Expectation?) {
        self.name = name
        self.description = description
        self.events = events
        self.expect = expect
    }

    init(json: JSONValue) throws(FormatError) {
        guard case .object(let o) = json else { throw FormatError(path: "", message: "expected a fixture object, found \(json.kindName)") }
        let known: Set<String> = ["format", "name", "description", "events", "expect"]
        for key in JSONValue.sortedKeys(o.keys) where !known.contains(key) {
            throw FormatError(path: key, message: "unknown key \"\(key)\" (expected one of \"description\", \"events\", \"expect\", \"format\", \"name\")")
        }
        if let f = o["format"], !f.isNull {
            guard let s = f.stringValue else { throw FormatError(path: "format", message: "expected a string, found \(f.kindName)") }
            guard s == Self.formatName else {
                throw FormatError(path: "format", message: "unsupported format \"\(s)\" (this routelog reads \"\(Self.formatName)\")")
            }
        }
        func string(_ key: String) throws(FormatError) -> String {
            guard let v = o[key], !v.isNull else { return "" }
            guard let s = v.stringValue else { throw FormatError(path: key, message: "expected a string, found \(v.kindName)") }
            return s
        }
        name = try string("name")
        description = try string("description")
        guard let ev = o["events"], !ev.isNull else { throw FormatError(path: "events", message: "missing required key \"events\"") }
        guard let items = ev.arrayValue else { throw FormatError(path: "events", message: "expected an array, found \(ev.kindName)") }
        var events: [RecordedEvent] = []
        events.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            do { events.append(try RecordedEvent(json: item)) } catch { throw error.within("events[\(i)]") }
        }
        self.events = events
        if let e = o["expect"], !e.isNull {
            do { expect = try Self.expectation(json: e) } catch { throw error.within("expect") }
        } else {
            expect = nil
        }
    }

    private static func expectation(json: JSONValue) throws(FormatError) -> Expectation {
        guard case .object(let o) = json else { throw FormatError(path: "", message: "expected an object, found \(json.kindName)") }
        for key in JSONValue.sortedKeys(o.keys) where !["outcomes", "state", "digest"].contains(key) {
            throw FormatError(path: key, message: "unknown key \"\(key)\" (expected one of \"digest\", \"outcomes\", \"state\")")
        }
        guard let oc = o["outcomes"]?.arrayValue else { throw FormatError(path: "outcomes", message: "expected an array of outcomes") }
        var outcomes: [Outcome] = []
        for (i, v) in oc.enumerated() {
            do { outcomes.append(try Outcome(json: v)) } catch { throw error.within("outcomes[\(i)]") }
        }
        guard let sv = o["state"] else { throw FormatError(path: "state", message: "missing required key \"state\"") }
        let state: NavigationState
        do { state = try NavigationState(json: sv) } catch { throw error.within("state") }
        guard let ds = o["digest"]?.stringValue, let digest = Digest(hex: ds) else {
            throw FormatError(path: "digest", message: "expected 32 lowercase hex digits")
        }
        return Expectation(outcomes: outcomes, state: state, digest: digest)
    }

    // MARK: - Writing

    /// The file's text: canonical JSON values, one event and one outcome per line so a git diff reads well.
    var text: String {
        var out = "{\n"
        out += "  \"format\": \(JSONValue.string(Self.formatName).canonicalText),\n"
        out += "  \"name\": \(JSONValue.string(name).canonicalText),\n"
        out += "  \"description\": \(JSONValue.string(description).canonicalText),\n"
        if events.isEmpty {
            out += "  \"events\": []"
        } else {
            out += "  \"events\": [\n"
            out += events.map { "    " + $0.json.canonicalText }.joined(separator: ",\n")
            out += "\n  ]"
        }
        if let expect {
            out += ",\n  \"expect\": {\n"
            if expect.outcomes.isEmpty {
                out += "    \"outcomes\": [],\n"
            } else {
                out += "    \"outcomes\": [\n"
                out += expect.outcomes.map { "      " + $0.json.canonicalText }.joined(separator: ",\n")
                out += "\n    ],\n"
            }
            out += "    \"state\": \(expect.state.json.canonicalText),\n"
            out += "    \"digest\": \"\(expect.digest.hex)\"\n"
            out += "  }"
        }
        out += "\n}\n"
        return out
    }

    /// Writes the file (atomically).
    func write(to path: String) throws(CLIError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .data("cannot write file: \(path): \(oneLine(error.localizedDescription))")
        }
    }
}
