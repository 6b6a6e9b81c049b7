// The compact binary codec (format version 1) for events, metadata, states, outcomes and digests.
// The layout is specified in RouteLogCore.docc/BinaryFormat.md; keep the two in step.

/// A failure to decode RouteLog binary data: what is wrong and at which byte.
@_spi(Tools) public struct BinaryDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offset, from the start of the decoded buffer, of the value that is wrong.
    public var offset: Int
    /// What is wrong there.
    public var message: String

    /// An error at `offset` from the start of the decoded buffer.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `at byte 17: string length 4294967295 exceeds the 12 bytes left`.
    public var description: String { "at byte \(offset): \(message)" }
}

/// The binary codec: compact, versioned and length-checked encodings of ``RecordedEvent``,
/// ``Event``, ``NavigationState``, ``Outcome`` and ``Digest``.
///
/// Every encoding starts with the format version byte. Decoding never traps: a truncated,
/// corrupted or oversized input, invalid UTF-8, an unknown tag, trailing bytes or data written by
/// a newer format all throw a ``BinaryDecodingError`` naming the byte offset, and a length field
/// is checked against the bytes left before anything is allocated.
///
/// ```swift
/// let bytes = BinaryCodec.encode(RecordedEvent(.push(RouteRef(id: "inbox"))))
/// let event = try BinaryCodec.decodeRecordedEvent(bytes)
/// ```
@_spi(Tools) public enum BinaryCodec {
    /// The format version this build writes, and the newest it reads.
    public static let formatVersion: UInt8 = 1

    /// The deepest chain of nested frames (a root and the contents of presentations on it) a
    /// decoder accepts: a root plus ``NavigationState/maxChainDepth`` presentations.
    public static let maxNesting = NavigationState.maxChainDepth + 1

    /// Encodes a value, starting with the format version.
    @inlinable
    public static func encode<Value: BinaryCodable>(_ value: Value) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        encode(value, into: &out)
        return out
    }

    /// Appends the encoding of a value (starting with the format version) to `out`.
    @inlinable
    public static func encode<Value: BinaryCodable>(_ value: Value, into out: inout [UInt8]) {
        BinaryWriter.appending(to: &out) { w in
            w.writeFormatVersion()
            Value.binaryCoding.write(&w, value)
        }
    }

    /// Decodes an ``encode(_:)`` result. The whole buffer must be one value.
    /// - Throws: ``BinaryDecodingError`` for anything but a complete, valid encoding (for a
    ///   ``NavigationState``, also one that breaks an invariant: ``NavigationState/validate()``).
    @inlinable
    public static func decode<Value: BinaryCodable>(_: Value.Type, from bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Value {
        var r = BinaryReader(bytes)
        try r.readFormatVersion()
        let value = try Value.binaryCoding.read(&r)
        try r.expectEnd()
        return value
    }

    /// Decodes an ``encode(_:)`` result held in an array.
    public static func decode<Value: BinaryCodable>(_: Value.Type, from bytes: [UInt8]) throws(BinaryDecodingError) -> Value {
        // `withUnsafeBytes` only rethrows untyped errors, so the typed one travels in a `Result`.
        let result: Result<Value, BinaryDecodingError> = bytes.withUnsafeBytes { b in
            do throws(BinaryDecodingError) { return .success(try decode(Value.self, from: b)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // Shorthands for `decode(_:from:)`, one per value type.

    /// Decodes an encoded ``RecordedEvent``.
    public static func decodeRecordedEvent(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> RecordedEvent { try decode(RecordedEvent.self, from: bytes) }
    /// Decodes an encoded ``RecordedEvent``.
    public static func decodeRecordedEvent(_ bytes: [UInt8]) throws(BinaryDecodingError) -> RecordedEvent { try decode(RecordedEvent.self, from: bytes) }
    /// Decodes an encoded ``Event``.
    public static func decodeEvent(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Event { try decode(Event.self, from: bytes) }
    /// Decodes an encoded ``Event``.
    public static func decodeEvent(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Event { try decode(Event.self, from: bytes) }
    /// Decodes an encoded ``NavigationState`` and checks its invariants.
    public static func decodeState(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> NavigationState { try decode(NavigationState.self, from: bytes) }
    /// Decodes an encoded ``NavigationState`` and checks its invariants.
    public static func decodeState(_ bytes: [UInt8]) throws(BinaryDecodingError) -> NavigationState { try decode(NavigationState.self, from: bytes) }
    /// Decodes an encoded ``Outcome``.
    public static func decodeOutcome(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Outcome { try decode(Outcome.self, from: bytes) }
    /// Decodes an encoded ``Outcome``.
    public static func decodeOutcome(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Outcome { try decode(Outcome.self, from: bytes) }
    /// Decodes an encoded ``Digest``.
    public static func decodeDigest(_ bytes: UnsafeRawBufferPointer) throws(BinaryDecodingError) -> Digest { try decode(Digest.self, from: bytes) }
    /// Decodes an encoded ``Digest``.
    public static func decodeDigest(_ bytes: [UInt8]) throws(BinaryDecodingError) -> Digest { try decode(Digest.self, from: bytes) }
}

/// A value the binary codec encodes: ``RecordedEvent``, ``Event``, ``NavigationState``,
/// ``Outcome`` and ``Digest``. The conformances are the codec's; other types should not conform.
@_spi(Tools) public protocol BinaryCodable {
    /// How the value's body (without the version byte) is written and read.
    static var binaryCoding: BinaryCoding<Self> { get }
}

/// The writer and reader methods of one ``BinaryCodable`` type.
@_spi(Tools) public struct BinaryCoding<Value>: Sendable {
    @usableFromInline let write: @Sendable (inout BinaryWriter, Value) -> Void
    @usableFromInline let read: @Sendable (inout BinaryReader) throws(BinaryDecodingError) -> Value
}

@_spi(Tools) extension RecordedEvent: BinaryCodable { public static let binaryCoding = BinaryCoding<Self>(write: { $0.write($1) }, read: { r throws(BinaryDecodingError) in try r.readRecordedEvent() }) }
@_spi(Tools) extension Event: BinaryCodable { public static let binaryCoding = BinaryCoding<Self>(write: { $0.write($1) }, read: { r throws(BinaryDecodingError) in try r.readEvent() }) }
@_spi(Tools) extension NavigationState: BinaryCodable { public static let binaryCoding = BinaryCoding<Self>(write: { $0.write($1) }, read: { r throws(BinaryDecodingError) in try r.readState() }) }
@_spi(Tools) extension Outcome: BinaryCodable { public static let binaryCoding = BinaryCoding<Self>(write: { $0.write($1) }, read: { r throws(BinaryDecodingError) in try r.readOutcome() }) }
@_spi(Tools) extension Digest: BinaryCodable { public static let binaryCoding = BinaryCoding<Self>(write: { $0.write($1) }, read: { r throws(BinaryDecodingError) in try r.readDigest() }) }
