/// A value that is already canonical JSON text: sorted keys, no insignificant whitespace.
///
/// Build one from a ``JSONValue`` (``init(_:)``) or by parsing text (``init(parsing:)``); both
/// produce the canonical form, so two equal values always have equal bytes.
public struct RawJSON: Hashable, Sendable, CustomStringConvertible {
    /// The canonical JSON text.
    public let text: String

    /// Wraps text the caller guarantees is canonical (used by the binary decoder, whose bytes
    /// were written from a `RawJSON`).
    @usableFromInline
    init(uncheckedCanonical text: String) { self.text = text }

    public init(_ value: JSONValue) { self.text = value.canonicalText }

    /// Parses JSON text and stores its canonical form.
    public init(parsing text: String) throws(JSONError) {
        self.text = try JSONValue(parsing: text).canonicalText
    }

    /// The payload as a JSON value tree.
    public var value: JSONValue {
        // Canonical text always parses; a failure would mean memory corruption.
        (try? JSONValue(parsing: text)) ?? .null
    }

    public var description: String { text }
}
