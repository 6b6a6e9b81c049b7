import Foundation

@_spi(Tools) extension Fixture.Expectation: CanonicalJSONConvertible {
    /// `{"outcomes"?: ["applied", …], "state"?: State, "digest"?: "<32 hex digits>"}`.
    public var json: JSONValue {
        objectValue([
            ("outcomes", outcomes.map { .array($0.map(\.json)) }),
            ("state", state?.json),
            ("digest", digest.map { .string($0.hex) }),
        ])
    }

    public init(json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "the expectations")
        try r.only(["outcomes", "state", "digest"])
        var outcomes: [Outcome]?
        if r.has("outcomes") {
            var list: [Outcome] = []
            for (i, item) in try r.array("outcomes").enumerated() {
                do { list.append(try Outcome(json: item)) } catch { throw error.within("outcomes[\(i)]") }
            }
            outcomes = list
        }
        var digest: Digest?
        if let hex = try r.optionalString("digest") {
            guard let d = Digest(hex: hex) else {
                throw FormatError(path: "digest", message: "expected 32 lowercase hex digits, found \"\(hex)\"")
            }
            digest = d
        }
        self.init(outcomes: outcomes, state: try r.decodeIfPresent("state", as: NavigationState.self), digest: digest)
    }
}

@_spi(Tools) extension Fixture.SessionHeader: CanonicalJSONConvertible {
    /// `{"label": "…", "app"?: "…", "appVersion"?: "…", "created"?: "2026-11-22T21:43:54.123Z"}`.
    public var json: JSONValue {
        objectValue([
            ("label", .string(label)),
            ("app", app.map(JSONValue.string)),
            ("appVersion", appVersion.map(JSONValue.string)),
            ("created", created.map { .string(ISO8601.format(milliseconds: $0)) }),
        ])
    }

    public init(json: JSONValue) throws(FormatError) {
        let r = try JSONReader(json, "a session header")
        try r.only(["label", "app", "appVersion", "created"])
        var created: Int64?
        if r.has("created") {
            let v = try r.value("created")
            if let ms = v.intValue {
                created = ms
            } else if let s = v.stringValue, let ms = ISO8601.parse(s) {
                created = ms
            } else {
                throw FormatError(path: "created", message: "expected an ISO 8601 UTC time like \"2026-11-22T21:43:54.123Z\" or milliseconds, found \(v.canonicalText)")
            }
        }
        self.init(label: try r.optionalString("label") ?? "", app: try r.optionalString("app"),
                  appVersion: try r.optionalString("appVersion"), created: created)
    }
}

// MARK: - Writing

extension Fixture {
    /// The canonical text of the fixture, ending with a newline.
    ///
    /// Deterministic: the same fixture always gives the same bytes. Top-level keys come in the
    /// order `format`, `name`, `description`, `session`, `events`, `expect`; each event is one
    /// line of canonical JSON with its kind first and `meta` last; each outcome is one line; the
    /// expected state is pretty-printed with sorted keys. Reading the text back with
    /// ``init(text:file:)`` gives an equal fixture.
    @_spi(Tools) public func rendered() -> String {
        var out = "{\n"
        out += "  \"format\": \(JSONValue.string(Fixture.format).canonicalText),\n"
        out += "  \"name\": \(JSONValue.string(name).canonicalText),\n"
        out += "  \"description\": \(JSONValue.string(description).canonicalText),\n"
        if let session {
            out += "  \"session\": \(session.json.canonicalText),\n"
        }
        out += "  \"events\": ["
        if events.isEmpty {
            out += "]"
        } else {
            out += "\n"
            for (i, e) in events.enumerated() {
                out += "    " + Fixture.eventLine(e) + (i == events.count - 1 ? "\n" : ",\n")
            }
            out += "  ]"
        }
        if let expect {
            out += ",\n  \"expect\": {"
            var parts: [String] = []
            if let outcomes = expect.outcomes {
                if outcomes.isEmpty {
                    parts.append("\n    \"outcomes\": []")
                } else {
                    parts.append("\n    \"outcomes\": [\n" + outcomes.map { "      " + $0.json.canonicalText }.joined(separator: ",\n") + "\n    ]")
                }
            }
            if let state = expect.state {
                let pretty = state.json.prettyText.replacingOccurrences(of: "\n", with: "\n    ")
                parts.append("\n    \"state\": " + pretty)
            }
            if let digest = expect.digest {
                parts.append("\n    \"digest\": \"\(digest.hex)\"")
            }
            out += parts.joined(separator: ",") + (parts.isEmpty ? "}" : "\n  }")
        }
        out += "\n}\n"
        return out
    }

    /// One event as a line: `{"<kind>":{…},"meta":{…}}`, the kind first, the rest canonical.
    static func eventLine(_ e: RecordedEvent) -> String {
        guard case .object(let o) = e.event.json, let (kind, body) = o.first else { return e.json.canonicalText }
        var line = "{" + JSONValue.string(kind).canonicalText + ":" + body.canonicalText
        if e.meta != EventMetadata() { line += ",\"meta\":" + e.meta.json.canonicalText }
        return line + "}"
    }

    /// Writes ``rendered()`` to a file, replacing it.
    ///
    /// - Throws: ``FixtureError`` with ``FixtureError/Problem/unwritable(_:)``.
    @_spi(Tools) public func write(toFile path: String) throws(FixtureError) {
        do {
            try Data(rendered().utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDir: ObjCBool = false
            let reason = FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) && isDir.boolValue
                ? "permission denied or I/O error" : "no such directory \(dir)"
            throw FixtureError(file: path, problem: .unwritable(reason))
        }
    }
}
