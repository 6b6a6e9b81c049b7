// A session of a log: its identity, what an app gives to start one, and how a log lists it.

/// A session's identity: a UUIDv7 string (time-ordered, so sorting ids sorts by creation).
public struct SessionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// A UUIDv7 from a Unix time in milliseconds and 74 random bits.
    @_spi(Tools) public static func v7(milliseconds: Int64, random: (UInt64, UInt64)) -> SessionID {
        var bytes = [UInt8](repeating: 0, count: 16)
        let ms = UInt64(max(0, milliseconds))
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: ms >> (8 * UInt64(5 - i))) }
        for i in 6..<8 { bytes[i] = UInt8(truncatingIfNeeded: random.0 >> (8 * UInt64(i))) }
        for i in 8..<16 { bytes[i] = UInt8(truncatingIfNeeded: random.1 >> (8 * UInt64(i - 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b -> String in let s = String(b, radix: 16); return s.count == 1 ? "0" + s : s }.joined()
        let h = Array(hex)
        return SessionID("\(String(h[0..<8]))-\(String(h[8..<12]))-\(String(h[12..<16]))-\(String(h[16..<20]))-\(String(h[20..<32]))")
    }

    /// A new UUIDv7 for now.
    @_spi(Tools) public static func generate(milliseconds: Int64) -> SessionID {
        var g = SystemRandomNumberGenerator()
        return v7(milliseconds: milliseconds, random: (g.next(), g.next()))
    }
}

/// What the caller tells a log about a new session.
public struct NewSession: Hashable, Sendable {
    public var label: String
    public var appName: String?
    public var appVersion: String?
    /// The app's build; recorded with the run (see ``RunStart``), not with the session.
    public var build: String?
    public init(label: String = "", appName: String? = nil, appVersion: String? = nil, build: String? = nil) {
        self.label = label
        self.appName = appName
        self.appVersion = appVersion
        self.build = build
    }
}

/// A session as a log lists it.
public struct SessionInfo: Hashable, Sendable {
    public var id: SessionID
    public var label: String
    public var appName: String?
    public var appVersion: String?
    /// When the app created the session, in milliseconds since 1970 (an import keeps the
    /// exported time).
    public var createdAt: Int64
    /// The number of events (the last seq).
    public var eventCount: UInt64
    /// Timestamp of the last event, if any.
    public var lastEventAt: Int64?
    /// The digest of the state after the last event (the empty state's digest when there are none).
    public var headDigest: Digest
    /// The session's place in the order sessions entered this log, by creation or import: 1 for
    /// the first. ``EventLog/sessions()`` lists sessions in this order, so the last one is the
    /// newest in the log whatever its ``createdAt``. 0 for a session stored before the log counted.
    public var entryOrder: UInt64
    /// When the session entered this log (the log's clock at creation or import), in milliseconds
    /// since 1970; `nil` when the log did not record it.
    public var enteredAt: Int64?
    /// Whether the session entered this log by import (`routelog import`), not by an app writing it.
    public var imported: Bool

    public init(id: SessionID, label: String, appName: String? = nil, appVersion: String? = nil, createdAt: Int64,
                eventCount: UInt64 = 0, lastEventAt: Int64? = nil, headDigest: Digest = NavigationState().digest,
                entryOrder: UInt64 = 0, enteredAt: Int64? = nil, imported: Bool = false) {
        self.id = id
        self.label = label
        self.appName = appName
        self.appVersion = appVersion
        self.createdAt = createdAt
        self.eventCount = eventCount
        self.lastEventAt = lastEventAt
        self.headDigest = headDigest
        self.entryOrder = entryOrder
        self.enteredAt = enteredAt
        self.imported = imported
    }
}
