// How every message of the CLI quotes input: on one line, with control characters escaped.

import RouteLogCore

/// Text from the predicate as an error message quotes it: on one line, control and line-breaking
/// characters escaped as JSON escapes (`\n`, `\u0000`), like every other message that quotes input.
func printable<S: StringProtocol>(_ text: S) -> String { JSONValue.escapingControlCharacters(String(text)) }

/// A character of the predicate as an error message quotes it (see ``printable(_:)``).
func printable(_ c: Character) -> String { printable(String(c)) }
