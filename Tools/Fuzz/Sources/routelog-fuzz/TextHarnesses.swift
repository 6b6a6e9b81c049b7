// Harnesses for the text formats: JSON, fixture/export files, predicates and session references.

import Foundation
@_spi(Tools) @testable import RouteLogCore
@testable import RouteLogSessions

// MARK: JSON

/// The JSON parser. On any bytes: no trap; an error names a line and column inside the input;
/// a parsed value's canonical and pretty texts parse back to the same value, and the canonical
/// text is a fixed point.
func fuzzJSON(_ buffer: UnsafeRawBufferPointer) {
    let bytes = Array(buffer)
    do {
        let value = try JSONValue(parsing: bytes)
        let canonical = value.canonicalText
        guard let again = try? JSONValue(parsing: canonical) else { fatalError("canonical text does not parse: \(canonical)") }
        check(again == value, "canonical text parses to another value: \(canonical)")
        check(again.canonicalText == canonical, "canonical text is not a fixed point: \(canonical)")
        check((try? JSONValue(parsing: value.prettyText)) == value, "pretty text parses to another value: \(value.prettyText)")
    } catch {
        let lines = bytes.count(where: { $0 == 0x0A }) + 1
        check(error.line >= 1 && error.line <= lines, "error line \(error.line) outside the input (\(lines) lines)")
        check(error.column >= 1 && error.column <= bytes.count + 1, "error column \(error.column) outside the input")
        checkOneLine(error.description, "JSON")
    }
}

// MARK: Fixture and export files

/// The fixture/export reader, from bytes to events and expect block. On any bytes: no trap, a
/// one-line error naming the file; a fixture that reads renders to text that reads back to the
/// same fixture, and `check()` (a full replay) runs.
func fuzzFixture(_ buffer: UnsafeRawBufferPointer) {
    guard let text = String(validating: buffer, as: UTF8.self) else { return }
    do {
        let fixture = try Fixture(text: text, file: "fuzz.json")
        let rendered = fixture.rendered()
        guard let again = try? Fixture(text: rendered, file: "again.json") else { fatalError("a rendered fixture does not read back:\n\(rendered)") }
        check(again == fixture, "a rendered fixture reads back different:\n\(rendered)")
        check(again.rendered() == rendered, "rendering is not a fixed point")
        let result = fixture.check()
        check(result.replay.state.validate().isEmpty, "a fixture replays to an invalid state")
        if fixture.expect == nil { check(fixture.recorded().check().passed, "a recorded expect block does not pass") }
        _ = result.description
    } catch {
        // Compared as bytes: a key that begins with a combining mark joins the space before it into
        // one Character, so a Character-wise hasPrefix would miss the file name that is there.
        check(error.description.utf8.starts(with: "fuzz.json: ".utf8), "the error does not name the file: \(error)")
        checkOneLine(error.description, "fixture")
    }
}

// MARK: Predicates

/// A few states to evaluate parsed predicates on: empty, a path, a sheet over tabs.
nonisolated(unsafe) let predicateContexts: [PredicateContext] = {
    var s = NavigationState()
    var contexts = [PredicateContext(seq: 0, state: s, event: nil, outcome: nil)]
    let events: [Event] = [
        .push(RouteRef(id: "inbox")), .show(RouteRef(id: "upsell"), style: .sheet, dismissible: false),
        .interactiveDismiss(), .setTabs(["home", "search"], selected: "search"), .pop(),
    ]
    for (i, e) in events.enumerated() {
        let o = s.apply(e, seq: UInt64(i + 1))
        contexts.append(PredicateContext(seq: UInt64(i + 1), state: s, event: e, outcome: o))
    }
    return contexts
}()

/// The predicate language. On any text: no trap; an error is one line with a column inside the
/// text (or just past its end); a predicate that parses evaluates everywhere, and its negation
/// `!(p)` parses and evaluates to the opposite.
func fuzzPredicate(_ buffer: UnsafeRawBufferPointer) {
    guard let text = String(validating: buffer, as: UTF8.self) else { return }
    do {
        let p = try RouteLogSessions.Predicate(text)
        let negated: RouteLogSessions.Predicate
        do { negated = try RouteLogSessions.Predicate("!(\(text))") } catch {
            // Only the nesting limit can refuse the negation of a valid predicate.
            check(error.message.contains("nests deeper"), "!(p) does not parse for a valid p: \(text.debugDescription): \(error)")
            return
        }
        for c in predicateContexts {
            check(p.holds(in: c) != negated.holds(in: c), "!(p) is not the negation of p: \(text.debugDescription)")
        }
        _ = p.readsEvent
    } catch {
        check(error.column >= 1 && error.column <= text.count + 1, "predicate error column \(error.column) outside \(text.debugDescription)")
        checkOneLine(error.description, "predicate")
    }
}

// MARK: Session references

/// Session references (`latest~N`, `#N`, `REF@N`, prefixes, files). On any text: no trap, a one-line
/// usage error, or a reference that keeps its text and whose parts write back to it.
func fuzzSessionRef(_ buffer: UnsafeRawBufferPointer) {
    guard let text = String(validating: buffer, as: UTF8.self) else { return }
    do {
        let ref = try SessionRef(parsing: text)
        check(ref.text == text, "a reference does not keep its text")
        let body: String
        switch ref.base {
        case .latest(let back):
            check(back >= 0, "latest~N with a negative N")
            body = back == 0 ? "latest" : "latest~\(back)"
        case .id(let id):
            check(!id.isEmpty, "an empty session id")
            body = id
        case .file(let path):
            check(!path.isEmpty, "an empty file name")
            body = path
        case .entry(let n):
            check(n >= 1, "#N with N below 1")
            body = "#\(n)"
        }
        // The parts write back to a reference that reads the same (`latest~07@010` → `latest~7@10`).
        let rebuilt = body + (ref.seq.map { "@\($0)" } ?? "")
        guard let again = try? SessionRef(parsing: rebuilt) else { fatalError("\(rebuilt.debugDescription) (from \(text.debugDescription)) does not parse") }
        check(again.base == ref.base && again.seq == ref.seq, "\(text.debugDescription) and \(rebuilt.debugDescription) read differently")
    } catch {
        check(error.cause == .usage, "a bad reference is not a usage error: \(error)")
        checkOneLine(error.message, "session reference")
    }
}
