/// A predicate that does not parse or type-check, with the 1-based column where it went wrong.
struct PredicateError: Error, Equatable, CustomStringConvertible {
    var column: Int
    var message: String
    var description: String { "predicate: column \(column): \(message)" }
}
