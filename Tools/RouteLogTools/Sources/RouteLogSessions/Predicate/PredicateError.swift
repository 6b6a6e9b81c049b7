/// A predicate that does not parse or type-check, with the 1-based column where it went wrong.
package struct PredicateError: Error, Equatable, CustomStringConvertible {
    package var column: Int
    package var message: String
    package var description: String { "predicate: column \(column): \(message)" }
}
