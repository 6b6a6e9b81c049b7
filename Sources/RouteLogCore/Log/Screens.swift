// What is on screen beside a session's state: the screens as the state names them, the moments
// the two disagree, and what a navigator stores of both beside the events (never as events).

/// A screen as the navigation state knows it: what a view reports to
/// `Navigator.screenAppeared(_:)` and `Navigator.screenDisappeared(_:)`.
///
/// A presented view is named by its presentation's token (the seq of the event that presented
/// it) and route id; a pushed view by the frame whose stack holds it, its index on that stack
/// (0 = the bottom) and its route id; a tab's root view by the tab's id.
public enum ScreenID: Hashable, Sendable, CustomStringConvertible {
    /// The view of a presentation: its token and its route's id.
    case presentation(token: UInt64, routeID: String)
    /// A view on a frame's stack: the frame (`.root` or a presentation's content), the index on
    /// its path (0 = bottom) and the route's id. `tab` names the tab whose root frame holds it,
    /// for `.root` in a state with tabs; `nil` there means the tab selected when it is reported.
    case stackEntry(frame: FrameRef, index: Int, routeID: String, tab: String? = nil)
    /// The root view of a tab.
    case tabRoot(String)

    /// `player (#12)`, `episode-3 at root[2]`, `episode-3 at root[2] of tab library`,
    /// `episode-3 at #12[0]`, `tab library`.
    public var description: String {
        switch self {
        case .presentation(let token, let routeID): "\(routeID) (#\(token))"
        case .stackEntry(let frame, let index, let routeID, let tab):
            "\(routeID) at \(frame)[\(index)]" + (tab.map { " of tab \($0)" } ?? "")
        case .tabRoot(let id): "tab \(id)"
        }
    }
}

/// A moment when what is on screen and the navigator's state disagree, as the navigator found it
/// from the screens' own reports (see `Navigator.screenAppeared(_:)`).
///
/// Each case is reported once, when it has lasted the grace period
/// (`Navigator.divergenceGracePeriod`) while the app is active and live: a screen the state
/// shows that is not on screen, a screen still on screen after the state removed it, a screen on
/// screen that the state does not have, a stack showing a depth other than its path's.
///
/// ```
/// #7 not on screen: player (#7) (likely cause: a presentation requested while another was still dismissing)
/// ```
public struct Divergence: Hashable, Sendable, CustomStringConvertible {
    /// What disagrees.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The state shows the screen; it did not appear, or it disappeared and did not come back.
        case notOnScreen
        /// The screen is still on screen after the state removed it.
        case stillOnScreen
        /// A screen on screen that the state does not have.
        case unknownScreen
        /// A stack shows more or fewer screens than its path holds.
        case depthMismatch
    }

    /// What most likely caused it, when the reports tell.
    public enum Cause: String, Hashable, Sendable, CaseIterable {
        /// A presentation was requested while another, already removed from the state, was still
        /// on screen (dismissing): UIKit refuses to present over a view that is still presenting.
        case presentedWhileDismissing
        /// The stack's path was written while a tab switch was under way (within the grace period
        /// of the switch): SwiftUI can drop a path write that lands mid-transition.
        case pathWriteDuringTabSwitch
        /// The presentation left the screen while the state still shows it: the system removed it
        /// (a size-class change, a parent view torn down) without its binding's `nil` write.
        case removedWithoutWrite

        /// The cause in a few words.
        public var phrase: String {
            switch self {
            case .presentedWhileDismissing: "a presentation requested while another was still dismissing"
            case .pathWriteDuringTabSwitch: "a path write during a tab switch"
            case .removedWithoutWrite: "removed without its binding write"
            }
        }
    }

    /// What disagrees.
    public var kind: Kind
    /// The screen concerned; for ``Kind/depthMismatch`` the top screen the stack shows.
    public var screen: ScreenID
    /// The seq the divergence concerns: the event that made the state show the screen (or remove
    /// it, or change the stack's path); the head when the screen appeared or disappeared, when
    /// the screen did so on its own.
    public var seq: UInt64
    /// The likely cause, `nil` when the reports do not tell.
    public var cause: Cause?
    /// For ``Kind/depthMismatch``: how many screens the stack shows (the index of its top screen
    /// on screen, plus one); `nil` for the other kinds.
    public var visibleDepth: Int?
    /// For ``Kind/depthMismatch``: the length of the stack's path in the state; `nil` for the
    /// other kinds.
    public var stateDepth: Int?
    /// When the navigator found it: milliseconds since 1970 on the navigator's clock.
    public var detectedAt: Int64

    /// A divergence (the navigator makes them; tests and tools compare with them).
    public init(kind: Kind, screen: ScreenID, seq: UInt64, cause: Cause? = nil, visibleDepth: Int? = nil, stateDepth: Int? = nil,
                detectedAt: Int64) {
        self.kind = kind
        self.screen = screen
        self.seq = seq
        self.cause = cause
        self.visibleDepth = visibleDepth
        self.stateDepth = stateDepth
        self.detectedAt = detectedAt
    }

    /// One line: `#7 not on screen: player (#7)`, `#9 depth mismatch: episode-2 at root[1] (2 on
    /// screen, 1 in the state)`, with `(likely cause: …)` when known.
    public var description: String {
        var s = "#\(seq) \(what)"
        if let depths { s += " (\(depths))" }
        if let cause { s += " (likely cause: \(cause.phrase))" }
        return s
    }

    /// What disagrees, in words: `not on screen: player (#7)`, `depth mismatch: episode-2 at
    /// root[1]` (the tools' marks and ``description`` put the seq, ``depths`` and the cause around it).
    @_spi(Tools) public var what: String {
        switch kind {
        case .notOnScreen: "not on screen: \(screen)"
        case .stillOnScreen: "still on screen: \(screen)"
        case .unknownScreen: "unknown screen: \(screen)"
        case .depthMismatch: "depth mismatch: \(screen)"
        }
    }

    /// For a depth mismatch, `2 on screen, 1 in the state`; `nil` for the other kinds.
    @_spi(Tools) public var depths: String? {
        kind == .depthMismatch ? "\(visibleDepth ?? 0) on screen, \(stateDepth ?? 0) in the state" : nil
    }
}

// MARK: - Stored beside the events

/// What a navigator saw of its screens, stored beside a session's events: a screen appeared, a
/// screen disappeared, or what is on screen and the state disagreed (a ``Divergence``).
///
/// Screen records are not events: they change no state, digest, replay, diff or bisect, and a
/// fixture export leaves them out. A store keeps them per session in the order the navigator
/// made them; ``headSeq`` places each among the events.
public struct ScreenRecord: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Change: Hashable, Sendable {
        /// The screen reported itself on screen.
        case appeared(ScreenID)
        /// The screen reported itself gone.
        case disappeared(ScreenID)
        /// The navigator found what is on screen and its state disagreeing.
        case diverged(Divergence)
    }

    /// What happened.
    public var change: Change
    /// The session's head (the seq of its last event) when it happened: the record comes after
    /// that event and before the next.
    public var headSeq: UInt64
    /// When it happened: milliseconds since 1970 on the navigator's clock.
    public var time: Int64

    /// A record of `change` at `time`, with the session's head at `headSeq`.
    public init(_ change: Change, headSeq: UInt64, time: Int64) {
        self.change = change
        self.headSeq = headSeq
        self.time = time
    }

    /// The screen concerned (for a divergence, its ``Divergence/screen``).
    public var screen: ScreenID {
        switch change {
        case .appeared(let s), .disappeared(let s): s
        case .diverged(let d): d.screen
        }
    }

    /// The divergence, for a ``Change/diverged(_:)`` record.
    public var divergence: Divergence? {
        if case .diverged(let d) = change { return d }
        return nil
    }

    /// `appeared player (#7)`, `disappeared episode-3 at root[2]`, `diverged #7 not on screen: …`.
    public var description: String {
        switch change {
        case .appeared(let s): "appeared \(s)"
        case .disappeared(let s): "disappeared \(s)"
        case .diverged(let d): "diverged \(d)"
        }
    }
}

/// A log that stores screen records beside its sessions' events (``ScreenRecord``): the
/// navigator hands it what its screens report and the divergences it finds, after the events they
/// follow. ``InMemoryEventLog`` and `LMDBEventLog` are such logs.
@_spi(Tools) public protocol ScreenRecordingEventLog: EventLog {
    /// Appends `records` to the session's screen records, after those it has. They change no event,
    /// state or digest. Throws ``EventLogError/sessionNotFound(_:)``.
    func appendScreenRecords(_ records: [ScreenRecord], to session: SessionID) throws
    /// Calls `body` with the session's screen records, oldest first; return `false` to stop.
    func readScreenRecords(_ session: SessionID, _ body: (ScreenRecord) throws -> Bool) throws
    /// How many screen records the session has (a follower polls it to hear of new ones).
    func screenRecordCount(_ session: SessionID) throws -> Int
}

@_spi(Tools) extension ScreenRecordingEventLog {
    /// The log itself.
    public var screenRecording: (any ScreenRecordingEventLog)? { self }

    /// Counts them by reading them all; a store answers from its keys.
    public func screenRecordCount(_ session: SessionID) throws -> Int {
        var n = 0
        try readScreenRecords(session) { _ in n += 1; return true }
        return n
    }

    /// The session's screen records, oldest first.
    public func screenRecords(_ session: SessionID) throws -> [ScreenRecord] {
        var out: [ScreenRecord] = []
        try readScreenRecords(session) { out.append($0); return true }
        return out
    }
}

// MARK: Binary form

/// The code tables of screen records (BinaryFormat.md): the numbers never change meaning.
@_spi(Tools) extension Divergence.Kind: WireCoded {
    public static let wireTable: [Self] = [.notOnScreen, .stillOnScreen, .unknownScreen, .depthMismatch]
}

/// 1...3; 0 is "no cause" in a record.
@_spi(Tools) extension Divergence.Cause: WireCoded {
    public static let wireTable: [Self] = [.presentedWhileDismissing, .pathWriteDuringTabSwitch, .removedWithoutWrite]
    public static var wireCodeBase: UInt8 { 1 }
}

@_spi(Tools) extension BinaryWriter {
    /// A screen record: its change's kind (1 appeared, 2 disappeared, 3 diverged), the head seq
    /// and the time (varint, zigzag varint), the screen, and for a divergence its kind, seq, cause,
    /// depths and time of detection.
    public mutating func write(_ r: ScreenRecord) {
        switch r.change {
        case .appeared: writeByte(1)
        case .disappeared: writeByte(2)
        case .diverged: writeByte(3)
        }
        writeVarint(r.headSeq)
        writeZigZag(r.time)
        write(r.screen)
        guard let d = r.divergence else { return }
        writeByte(d.kind.wireCode)
        writeVarint(d.seq)
        writeByte(d.cause?.wireCode ?? 0)
        writeByte((d.visibleDepth != nil ? 1 : 0) | (d.stateDepth != nil ? 2 : 0))
        if let v = d.visibleDepth { writeVarint(UInt64(v)) }
        if let v = d.stateDepth { writeVarint(UInt64(v)) }
        writeZigZag(d.detectedAt)
    }

    /// A screen: 1 presentation (token, route id), 2 stack entry (frame, index, route id, tab or
    /// none), 3 tab root (tab id).
    public mutating func write(_ s: ScreenID) {
        switch s {
        case .presentation(let token, let routeID):
            writeByte(1)
            writeVarint(token)
            writeString(routeID)
        case .stackEntry(let frame, let index, let routeID, let tab):
            writeByte(2)
            write(Optional(frame))
            writeVarint(UInt64(index))
            writeString(routeID)
            writeByte(tab == nil ? 0 : 1)
            if let tab { writeString(tab) }
        case .tabRoot(let id):
            writeByte(3)
            writeString(id)
        }
    }
}

@_spi(Tools) extension BinaryReader {
    /// A screen record (see `BinaryWriter.write(_:)`).
    public mutating func readScreenRecord() throws(BinaryDecodingError) -> ScreenRecord {
        let at = offset
        let kind = try readByte()
        guard (1...3).contains(kind) else { throw error("unknown screen record kind \(kind)", at: at) }
        let head = try readVarint()
        let time = try readZigZag()
        let screen = try readScreen()
        switch kind {
        case 1: return ScreenRecord(.appeared(screen), headSeq: head, time: time)
        case 2: return ScreenRecord(.disappeared(screen), headSeq: head, time: time)
        default:
            let k = try readByte()
            guard let kind = Divergence.Kind(wireCode: k) else { throw error("unknown divergence kind \(k)", at: offset - 1) }
            let seq = try readVarint()
            let c = try readByte()
            let cause = Divergence.Cause(wireCode: c)
            guard c == 0 || cause != nil else { throw error("unknown divergence cause \(c)", at: offset - 1) }
            let flags = try readFlags("divergence depths", allowed: 3)
            let visible: Int? = if flags & 1 != 0 { try readInt(limit: Int(Int32.max), "visible depth") } else { nil }
            let state: Int? = if flags & 2 != 0 { try readInt(limit: Int(Int32.max), "state depth") } else { nil }
            let detected = try readZigZag()
            let d = Divergence(kind: kind, screen: screen, seq: seq, cause: cause, visibleDepth: visible, stateDepth: state,
                               detectedAt: detected)
            return ScreenRecord(.diverged(d), headSeq: head, time: time)
        }
    }

    /// A screen (see `BinaryWriter.write(_:)`).
    public mutating func readScreen() throws(BinaryDecodingError) -> ScreenID {
        let at = offset
        switch try readByte() {
        case 1:
            let token = try readVarint()
            return .presentation(token: token, routeID: try readString())
        case 2:
            guard let frame = try readFrameRef() else { throw error("a stack entry without a frame", at: at + 1) }
            let index = try readInt(limit: Int(Int32.max), "stack index")
            let routeID = try readString()
            let tab: String? = if try readFlags("stack entry tab", allowed: 1) == 1 { try readString() } else { nil }
            return .stackEntry(frame: frame, index: index, routeID: routeID, tab: tab)
        case 3:
            return .tabRoot(try readString())
        case let b:
            throw error("unknown screen kind \(b)", at: at)
        }
    }
}

// MARK: JSON

@_spi(Tools) extension ScreenID {
    /// The screen as JSON, the keys every tool uses for it: `screen` (its one-line description),
    /// `kind` (`presentation`, `stackEntry`, `tabRoot`), and `token` and `routeID`; `frame`
    /// (`"root"` or a token), `index`, `routeID` and `tab` (or `null`); or `tab`.
    public var json: JSONValue {
        var o: [String: JSONValue] = ["screen": .string(description)]
        switch self {
        case .presentation(let token, let routeID):
            o["kind"] = .string("presentation")
            o["token"] = .int(Int64(bitPattern: token))
            o["routeID"] = .string(routeID)
        case .stackEntry(let frame, let index, let routeID, let tab):
            o["kind"] = .string("stackEntry")
            o["frame"] = frame.json
            o["index"] = .int(Int64(index))
            o["routeID"] = .string(routeID)
            o["tab"] = tab.map(JSONValue.string) ?? .null
        case .tabRoot(let id):
            o["kind"] = .string("tabRoot")
            o["tab"] = .string(id)
        }
        return .object(o)
    }
}

@_spi(Tools) extension Divergence {
    /// The divergence as JSON: `seq`, `kind` (the ``Kind`` case's name), `screen` (``ScreenID/json``),
    /// `cause` (the ``Cause`` case's name, or `null`) and `causeText`, `visibleDepth` and
    /// `stateDepth` (`null` but for a depth mismatch), `detected` (ISO 8601) and `text` (its
    /// one-line description).
    public var json: JSONValue {
        .object([
            "seq": .int(Int64(clamping: seq)), "kind": .string(kind.rawValue), "screen": screen.json,
            "cause": cause.map { .string($0.rawValue) } ?? .null, "causeText": cause.map { .string($0.phrase) } ?? .null,
            "visibleDepth": visibleDepth.map { .int(Int64($0)) } ?? .null, "stateDepth": stateDepth.map { .int(Int64($0)) } ?? .null,
            "detected": .string(ISO8601.format(milliseconds: detectedAt)), "text": .string(description),
        ])
    }
}

@_spi(Tools) extension ScreenRecord {
    /// The record as JSON: `change` (`appeared`, `disappeared`, `diverged`), `headSeq`, `time`
    /// (ISO 8601), `screen` (``ScreenID/json``), and for a divergence `divergence`
    /// (``Divergence/json``, else `null`).
    public var json: JSONValue {
        let change: String = switch self.change {
        case .appeared: "appeared"
        case .disappeared: "disappeared"
        case .diverged: "diverged"
        }
        return .object([
            "change": .string(change), "headSeq": .int(Int64(clamping: headSeq)), "time": .string(ISO8601.format(milliseconds: time)),
            "screen": screen.json, "divergence": divergence?.json ?? .null,
        ])
    }
}
