import ArgumentParser

/// A seq option's value (`--at`, `--from`, `--to`): a whole number from 0. Parsed from any text
/// (`-1` included, which the parser would otherwise take for an option and report as a missing
/// value), so the message says what is wrong with it.
/// The parser's message then reads "The value '-1' is invalid for '--at <at>': a seq is …".
enum SeqArgument {
    @Sendable static func parse(_ text: String) throws -> UInt64 {
        if let n = UInt64(text) { return n }
        if text.hasPrefix("-"), Int64(text) != nil {
            throw ValidationError("a seq is a whole number from 0 (0 is the state before any event), never negative")
        }
        throw ValidationError("a seq is a whole number from 0 (0 is the state before any event)")
    }
}
