@_spi(Tools) import RouteLogCore

// How an error message quotes what a user typed.

/// Text from the user as an error message quotes it: on one line, control and line-breaking
/// characters escaped as JSON escapes (`\n`, `\u0000`).
package func printable<S: StringProtocol>(_ text: S) -> String { JSONValue.escapingControlCharacters(String(text)) }

/// A character as an error message quotes it (see ``printable(_:)``).
package func printable(_ c: Character) -> String { printable(String(c)) }

/// A name the user gave (a session reference, a tool's argument) as an error message quotes it:
/// ``printable(_:)``, cut to its first 200 characters with `…` (an argument can be megabytes long).
package func printableName<S: StringProtocol>(_ text: S) -> String {
    text.count > 200 ? printable(text.prefix(200)) + "…" : printable(text)
}
