import Foundation

/// A regression fixture: a list of events and, optionally, what replaying them must give.
///
/// A fixture is a JSON file (`Fixtures/*.json`) in the `routelog-fixture/1` format:
///
/// ```json
/// {
///   "format": "routelog-fixture/1",
///   "name": "sheet-stack-swipe-nondismissible",
///   "description": "A swipe on an upsell shown with dismissible: false is rejected.",
///   "events": [
///     {"show":{"dismissible":false,"placement":"onTop","route":{"id":"upsell"},"style":"sheet"}},
///     {"interactiveDismiss":{},"meta":{"origin":"user"}}
///   ],
///   "expect": {
///     "outcomes": [
///       "applied",
///       "rejected:notDismissible"
///     ],
///     "state": { … },
///     "digest": "<32 hex digits>"
///   }
/// }
/// ```
///
/// `events` holds ``RecordedEvent``s in their canonical JSON form (with an optional `"meta"`).
/// `expect` is optional: a hand-written list of events without it is a valid fixture, and
/// ``recorded()`` (or record mode, ``isRecordModeEnabled``) fills it in from a replay. Each of the
/// three expectations may also be left out on its own. An optional top-level `"session"` object
/// (``SessionHeader``) says where an exported fixture came from.
///
/// ``rendered()`` writes the canonical text: top-level keys in the order above, one event per line
/// and one outcome per line, so that a git diff of a fixture reads event by event.
public struct Fixture: Hashable, Sendable {
    /// The format this build reads and writes.
    public static let format = "routelog-fixture/1"

    /// A short name, by convention the file name without `.json` (e.g. `router-alert-replaces-sheet`).
    public var name: String
    /// What the fixture shows, in a sentence or two.
    public var description: String
    /// Where an exported fixture came from, if it says.
    public var session: SessionHeader?
    /// The events, in order. The first has seq 1.
    public var events: [RecordedEvent]
    /// What a replay must give, or `nil` for a fixture that has not been recorded yet.
    public var expect: Expectation?

    /// Creates a fixture in memory.
    public init(name: String, description: String = "", session: SessionHeader? = nil,
                events: [RecordedEvent], expect: Expectation? = nil) {
        self.name = name
        self.description = description
        self.session = session
        self.events = events
        self.expect = expect
    }

    /// Creates a fixture from bare events (with default metadata).
    public init(name: String, description: String = "", events: [Event]) {
        self.init(name: name, description: description, events: events.map { RecordedEvent($0) })
    }

    /// What replaying a fixture's events from the empty state must give.
    public struct Expectation: Hashable, Sendable {
        /// One outcome per event, in order.
        public var outcomes: [Outcome]?
        /// The state after the last event.
        public var state: NavigationState?
        /// The digest of that state.
        public var digest: Digest?

        public init(outcomes: [Outcome]? = nil, state: NavigationState? = nil, digest: Digest? = nil) {
            self.outcomes = outcomes
            self.state = state
            self.digest = digest
        }

        /// The expectation a replay produced: every outcome, the final state and its digest.
        public init(_ result: ReplayResult) {
            self.init(outcomes: result.steps.map(\.outcome), state: result.state, digest: result.state.digest)
        }
    }

    /// Where an exported session came from: `{"label", "app"?, "appVersion"?, "created"?}`.
    public struct SessionHeader: Hashable, Sendable {
        /// The session's label.
        public var label: String
        /// The app that recorded it.
        public var app: String?
        /// The app's version.
        public var appVersion: String?
        /// When the session was created, in milliseconds since 1970 (written as ISO 8601 UTC).
        public var created: Int64?

        public init(label: String, app: String? = nil, appVersion: String? = nil, created: Int64? = nil) {
            self.label = label
            self.app = app
            self.appVersion = appVersion
            self.created = created
        }
    }
}

// MARK: - Reading

/// A fixture that cannot be read: a one-line message naming the file and the place.
///
/// Examples of ``description``:
/// - `Fixtures/x.json: events[3].show.style: unknown value "shet" (expected one of sheet, …)`
/// - `Fixtures/x.json: line 4, column 12: expected ',' or '}' in object`
/// - `Fixtures/x.json: unsupported format "routelog-fixture/2" (this build reads routelog-fixture/1)`
public struct FixtureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Hashable, Sendable {
        /// The file could not be read (missing, a directory, not UTF-8…).
        case unreadable(String)
        /// The text is not JSON; the error carries the line and column.
        case syntax(JSONError)
        /// The JSON does not have a fixture's shape; the error carries a path like `events[3].show.style`.
        case shape(FormatError)
        /// The `format` names a version this build does not read.
        case unsupportedFormat(String)
        /// The fixture could not be written.
        case unwritable(String)
    }

    /// The file name as the caller gave it (or a label such as `<stdin>`).
    public var file: String
    public var problem: Problem

    public init(file: String, problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        let what: String = switch problem {
        case .unreadable(let why): "cannot read the file: \(why)"
        case .syntax(let e): e.description
        case .shape(let e): e.description
        case .unsupportedFormat(let f): "unsupported format \"\(JSONValue.escapingControlCharacters(f))\" (this build reads \(Fixture.format))"
        case .unwritable(let why): "cannot write the file: \(why)"
        }
        return "\(file): \(what)"
    }
}

extension Fixture {
    /// Reads a fixture file.
    ///
    /// - Parameter path: the file's path; error messages repeat it as given.
    /// - Throws: ``FixtureError`` naming the file and the line and column, or the event index and
    ///   field, of the first problem.
    public init(contentsOf path: String) throws(FixtureError) {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? UInt64, size > UInt64(Fixture.maxFileBytes) {
            throw FixtureError(file: path, problem: .unreadable("the file is larger than \(Fixture.maxFileBytes) bytes, the most a fixture may hold"))
        }
        // A regular file is mapped and its pages are let go as the reader passes them, so a
        // file of a million events is never resident all at once.
        if let mapped = MappedFile(path) {
            defer { mapped.unmap() }
            guard Fixture.isUTF8(mapped.buffer, passed: mapped.release) else {
                throw FixtureError(file: path, problem: .unreadable("not UTF-8 text"))
            }
            mapped.rewind()
            self = try Fixture.parse(utf8: mapped.buffer, file: path, passed: mapped.release)
            return
        }
        guard let bytes = Fixture.readBytes(path) else {
            let reason: String
            var isDir: ObjCBool = false
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                reason = "no such file"
            } else if isDir.boolValue {
                reason = "it is a directory"
            } else {
                reason = "permission denied or I/O error"
            }
            throw FixtureError(file: path, problem: .unreadable(reason))
        }
        guard Fixture.isUTF8(bytes) else {
            throw FixtureError(file: path, problem: .unreadable("not UTF-8 text"))
        }
        self = try bytes.withUnsafeBufferPointer { (buffer) throws(FixtureError) in try Fixture.parse(utf8: buffer, file: path) }
    }

    /// Parses fixture text.
    ///
    /// - Parameters:
    ///   - text: the JSON text.
    ///   - file: the name to put in error messages.
    /// - Throws: ``FixtureError``.
    public init(text: String, file: String) throws(FixtureError) {
        self = try Array(text.utf8).withUnsafeBufferPointer { (buffer) throws(FixtureError) in try Fixture.parse(utf8: buffer, file: file) }
    }

    /// Parses fixture text given as UTF-8 bytes. The events are read one at a time as the parser
    /// reaches them (no tree of the whole file is built), with the same errors, in the same order
    /// of precedence, as a parse of the whole tree: any syntax error first, then the shape.
    ///
    /// `passed` is told how far the parser has gone (it never reads the bytes before again).
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, file: String, passed: ((Int) -> Void)? = nil) throws(FixtureError) -> Fixture {
        var events: [RecordedEvent] = []
        var eventError: FormatError?
        var parser = JSONParser(bytes: bytes)
        let parsed: (value: JSONValue, streamed: Int?)
        do throws(JSONError) {
            parsed = try parser.parseDocument(streaming: "events") { i, item, offset in
                passed?(offset)
                guard eventError == nil, i < Fixture.maxEvents else { return }
                do throws(FormatError) { events.append(try RecordedEvent(json: item)) } catch { eventError = error.within("events[\(i)]") }
            }
        } catch {
            throw FixtureError(file: file, problem: .syntax(error))
        }
        let streamed = parsed.streamed.map { StreamedEvents(count: $0, events: events, error: eventError) }
        do {
            return try Fixture(json: parsed.value, streamed: streamed)
        } catch {
            switch error {
            case .shape(let f): throw FixtureError(file: file, problem: .shape(f))
            case .unsupported(let f): throw FixtureError(file: file, problem: .unsupportedFormat(f))
            }
        }
    }

    /// The items of a fixture's `events` array, converted while parsing: how many there were, the
    /// events converted, and the first item that is not an event.
    struct StreamedEvents {
        var count: Int
        var events: [RecordedEvent]
        var error: FormatError?
    }

    /// The whole file, or `nil` when it cannot be read.
    static func readBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        var bytes: [UInt8] = []
        // One byte more than the size, so a file that grew is still read to its end.
        var want = max(Int(st.st_size), 0) + 1
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: want))
            var got = 0
            var failed = false
            bytes.withUnsafeMutableBytes { raw in
                while got < want {
                    let r = read(fd, raw.baseAddress! + start + got, want - got)
                    if r > 0 { got += r } else if r < 0 && errno == EINTR { continue } else { failed = r < 0; break }
                }
            }
            if failed { return nil }
            bytes.removeLast(want - got)
            if got < want { return bytes }
            want = 1 << 16
        }
    }

    /// Whether `bytes` are valid UTF-8. Checked in slices cut where an ASCII byte starts (never
    /// inside a multi-byte sequence), so no copy of the whole text is made; `passed` is told how
    /// far the check has gone.
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>, passed: ((Int) -> Void)? = nil) -> Bool {
        let slice = 1 << 20
        var lo = 0
        while lo < bytes.count {
            var hi = min(bytes.count, lo + slice)
            while hi < bytes.count && bytes[hi] >= 0x80 { hi += 1 }
            let part = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
            if !UTF8Validation.isValid(part) { return false }
            lo = hi
            passed?(lo)
        }
        return true
    }

    static func isUTF8(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { isUTF8($0) } }

    /// Reads a fixture from its JSON value (the file name is left to the caller).
    init(json: JSONValue, streamed: StreamedEvents? = nil) throws(FixtureParseFailure) {
        let r: JSONReader
        do { r = try JSONReader(json, "a fixture") } catch { throw .shape(error) }
        // The format comes first: a newer file may have keys this build does not know.
        guard let formatValue = r.object["format"], !formatValue.isNull else {
            throw .shape(FormatError(path: "format", message: "missing required key \"format\" (expected \"\(Fixture.format)\")"))
        }
        guard let format = formatValue.stringValue else {
            throw .shape(FormatError(path: "format", message: "expected a string, found \(formatValue.kindName)"))
        }
        guard format == Fixture.format else { throw .unsupported(format) }
        do throws(FormatError) {
            try r.only(["format", "name", "description", "session", "events", "expect"])
            let name = try r.string("name")
            let description = try r.optionalString("description") ?? ""
            let session = try r.decodeIfPresent("session", as: SessionHeader.self)
            var events: [RecordedEvent] = []
            if let streamed {
                try Fixture.checkEventCount(streamed.count)
                if let error = streamed.error { throw error }
                events = streamed.events
            } else {
                let items = try r.array("events")
                try Fixture.checkEventCount(items.count)
                for (i, item) in items.enumerated() {
                    do { events.append(try RecordedEvent(json: item)) } catch { throw error.within("events[\(i)]") }
                }
            }
            let expect = try r.decodeIfPresent("expect", as: Expectation.self)
            self.init(name: name, description: description, session: session, events: events, expect: expect)
        } catch {
            throw .shape(error)
        }
    }
}

extension Fixture {
    /// The largest fixture or export file read (1 GiB); a larger one is refused before it is read.
    public static let maxFileBytes = 1 << 30
    /// The most events one file may hold (10 million).
    public static let maxEvents = 10_000_000

    static func checkEventCount(_ n: Int) throws(FormatError) {
        if n > maxEvents { throw FormatError(path: "events", message: "\(n) events, more than the \(maxEvents) a file may hold") }
    }
}

/// A regular file mapped read-only. ``release(_:)`` lets go of the pages before an offset (they
/// are read from the file again if touched), so a scan of a large file keeps only a window of it
/// resident (on Linux; see ``release(_:)`` for Apple platforms).
final class MappedFile {
    let buffer: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private var released = 0
    /// How far past the last release a scan goes before the next one.
    private static let window = 16 << 20

    /// `nil` when `path` is not a regular, non-empty file that can be mapped.
    init?(_ path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return nil }
        let count = Int(st.st_size)
        guard let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        base = p
        buffer = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Lets go of the whole pages before `offset` once the scan is a window past the last release.
    func release(_ offset: Int) {
        guard offset - released >= Self.window else { return }
        let page = Int(getpagesize())
        let end = offset / page * page
        #if os(Linux)
        // Drops the pages from this process; they are read from the file again if touched.
        madvise(base + released, end - released, MADV_DONTNEED)
        #endif
        // Apple platforms: MADV_DONTNEED only lowers the pages' priority there; they are clean
        // file pages, which the kernel reclaims under memory pressure without being asked.
        released = end
    }

    /// For a second scan from the start.
    func rewind() { released = 0 }

    func unmap() { munmap(base, buffer.count) }
}

/// Why ``Fixture/init(json:)`` failed, before the file name is attached.
enum FixtureParseFailure: Error {
    case shape(FormatError)
    case unsupported(String)
}

extension Fixture.Expectation: CanonicalJSONConvertible {
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

extension Fixture.SessionHeader: CanonicalJSONConvertible {
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
    public func rendered() -> String {
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
    public func write(toFile path: String) throws(FixtureError) {
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

// MARK: - Checking and recording

/// One way a replay differs from a fixture's expectations.
public enum FixtureMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The fixture expects a different number of outcomes than it has events.
    case outcomeCount(expected: Int, actual: Int)
    /// The outcome at `index` (0-based; its seq is `index + 1`) differs. `differing` counts every
    /// differing outcome; only the first is named.
    case outcome(index: Int, expected: Outcome, actual: Outcome, differing: Int)
    /// The final state differs.
    case state(expected: NavigationState, actual: NavigationState)
    /// The final state's digest differs.
    case digest(expected: Digest, actual: Digest)

    public var description: String {
        switch self {
        case .outcomeCount(let e, let a):
            "expected \(e) outcomes, the replay has \(a) (one per event)"
        case .outcome(let i, let e, let a, let n):
            "events[\(i)] (seq \(i + 1)): expected \(e), got \(a)" + (n > 1 ? " (\(n) outcomes differ; this is the first)" : "")
        case .state(let e, let a):
            "final state differs (expected → actual):\n"
                + StateDiff.between(e, a).changes.map { "    \($0)" }.joined(separator: "\n")
                + "\n  expected: \(e.canonicalJSON)\n  actual:   \(a.canonicalJSON)"
        case .digest(let e, let a):
            "digest differs: expected \(e.hex), got \(a.hex)"
        }
    }
}

/// The result of ``Fixture/check()``: the replay and every mismatch with the expectations.
public struct FixtureCheckResult: Hashable, Sendable, CustomStringConvertible {
    /// The fixture's name.
    public var name: String
    /// The replay of the fixture's events from the empty state.
    public var replay: ReplayResult
    /// Whether the fixture has an `expect` block at all.
    public var hasExpectation: Bool
    /// Every difference, outcomes first, then state, then digest. Empty when the fixture passes.
    public var mismatches: [FixtureMismatch]

    /// No mismatch. A fixture without expectations passes trivially; see ``hasExpectation``.
    public var passed: Bool { mismatches.isEmpty }

    /// The index of the first event whose outcome differs, if one does.
    public var firstDifferingOutcome: Int? {
        for m in mismatches { if case .outcome(let i, _, _, _) = m { return i } }
        return nil
    }

    /// A one-line summary followed by one line per mismatch.
    public var description: String {
        if !hasExpectation { return "\(name): no expectations recorded (\(replay.steps.count) events replayed)" }
        if passed { return "\(name): ok (\(replay.steps.count) events, digest \(replay.state.digest.short))" }
        return "\(name): \(mismatches.count) mismatch\(mismatches.count == 1 ? "" : "es")\n"
            + mismatches.map { "  " + $0.description }.joined(separator: "\n")
    }
}

extension Fixture {
    /// Replays the events from the empty state with ``replay(_:)`` and compares the result with
    /// ``expect``: each outcome, the final state and the digest.
    public func check() -> FixtureCheckResult {
        let result = replay(events.map(\.event))
        var mismatches: [FixtureMismatch] = []
        if let expect {
            if let outcomes = expect.outcomes {
                let actual = result.steps.map(\.outcome)
                if outcomes.count != actual.count {
                    mismatches.append(.outcomeCount(expected: outcomes.count, actual: actual.count))
                }
                let differing = zip(outcomes, actual).enumerated().filter { $0.element.0 != $0.element.1 }
                if let first = differing.first {
                    mismatches.append(.outcome(index: first.offset, expected: first.element.0, actual: first.element.1, differing: differing.count))
                }
            }
            if let state = expect.state, state != result.state {
                mismatches.append(.state(expected: state, actual: result.state))
            }
            if let digest = expect.digest, digest != result.state.digest {
                mismatches.append(.digest(expected: digest, actual: result.state.digest))
            }
        }
        return FixtureCheckResult(name: name, replay: result, hasExpectation: expect != nil, mismatches: mismatches)
    }

    /// The same fixture with its `expect` block rewritten from a replay: every outcome, the final
    /// state and its digest.
    public func recorded() -> Fixture {
        var copy = self
        copy.expect = Expectation(replay(events.map(\.event)))
        return copy
    }

    /// Whether record mode is on: the environment variable `ROUTELOG_RECORD` is `1` (or `true`/`yes`).
    ///
    /// In record mode, fixture tests rewrite each file with ``recorded()`` instead of failing.
    public static var isRecordModeEnabled: Bool {
        guard let value = ProcessInfo.processInfo.environment["ROUTELOG_RECORD"] else { return false }
        return ["1", "true", "yes"].contains(value.lowercased())
    }
}
