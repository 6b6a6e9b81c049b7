import ArgumentParser
import Foundation
import RouteLogCore

// Options shared by several commands. (Kept out of the parsers under Refs/, which the fuzzer
// compiles without ArgumentParser.)

/// `--no-times` of `export` and `minimize`: a fixture that says nothing of when (no event times,
/// no creation time) or where (file sessions named by their file name, `--run` paths cut to their
/// last component) it was made, so regenerating it from the same events gives the same bytes.
struct StableFixtureOptions: ParsableArguments {
    @Flag(help: "Write no event times and no creation time, so the same events give the same bytes.") var noTimes = false

    func events(_ events: [RecordedEvent]) -> [RecordedEvent] { Self.events(events, noTimes: noTimes) }

    /// `events` without their times when `noTimes`.
    static func events(_ events: [RecordedEvent], noTimes: Bool) -> [RecordedEvent] {
        guard noTimes else { return events }
        return events.map { e in
            var e = e
            e.meta.timestamp = 0
            return e
        }
    }

    func header(_ header: Fixture.SessionHeader?) -> Fixture.SessionHeader? { Self.header(header, noTimes: noTimes) }

    /// `header` without its creation time when `noTimes`.
    static func header(_ header: Fixture.SessionHeader?, noTimes: Bool) -> Fixture.SessionHeader? {
        guard noTimes, var header else { return header }
        header.created = nil
        return header
    }
}

extension ResolvedSession {
    /// How a written file names this session: a file by its name without the folders (no
    /// absolute path of the machine it was made on), a stored session by its id.
    var portableName: String {
        document == nil ? name : URL(fileURLWithPath: name).lastPathComponent
    }
}

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
