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
/// `recorded()` (or record mode, ``isRecordModeEnabled``) fills it in from a replay. Each of the
/// three expectations may also be left out on its own. An optional top-level `"session"` object
/// (``SessionHeader``) says where an exported fixture came from.
///
/// `rendered()` writes the canonical text: top-level keys in the order above, one event per line
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
